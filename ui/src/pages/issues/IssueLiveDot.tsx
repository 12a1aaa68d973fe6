// The live dot on an issue row or card: a run about the issue (or holding its checkout) is queued or
// running. Read from the company's live runs (one query every row shares, refreshed by each run
// status change); named for who works on it ("Dev is working on this").
import { useQuery } from '@tanstack/react-query';
import { useAgentNames } from '../../queries/agents';
import type { Issue } from '../../queries/issues';
import { liveRunsQuery } from '../../queries/runs';

export function IssueLiveDot({ companyId, issue }: { companyId: string; issue: Pick<Issue, 'id' | 'checkoutRunId'> }) {
  const { data: run } = useQuery({
    ...liveRunsQuery(companyId),
    select: (runs) => runs.find((one) => one.issueId === issue.id || one.runId === issue.checkoutRunId),
  });
  const { knownName } = useAgentNames(companyId);
  if (!run) return null;
  const name = knownName(run.agentId) ?? 'An agent';
  const label = run.status === 'running' ? `${name} is working on this` : `${name} is about to start on this`;
  return <span className="live-dot live-motion issue-live-dot" role="img" aria-label={label} title={label} />;
}
