// The wake prompt a run's adapter hands to the agent (stdin for the process adapter): who it is,
// why it was woken, what the issue says, and how to reach the API. Bounded: an issue description
// is cut at MAX_DESCRIPTION_CHARS; the agent fetches the rest (heartbeat-context) if it needs it.
import type { DbOrTx } from '../db/client.ts';
import { findIssue } from '../core/issue-access.ts';

const MAX_DESCRIPTION_CHARS = 8_000;

export interface WakePromptInput {
  agent: { id: string; name: string };
  runId: string;
  issueId: string | null;
  wakeReason: string | null;
  wakeSource: string | null;
  /** Wakes merged into an earlier run after it started (a follow-up wake carries them). */
  coalescedWakeups?: { reason: string | null; source: string }[];
}

export async function buildWakePrompt(db: DbOrTx, input: WakePromptInput): Promise<string> {
  const lines = [
    `You are ${input.agent.name} (agent ${input.agent.id}), woken for run ${input.runId}.`,
    `Wake: source ${input.wakeSource ?? 'unknown'}, reason ${input.wakeReason ?? 'none given'}.`,
  ];
  for (const wake of input.coalescedWakeups ?? [])
    lines.push(
      `While your last run worked you were also woken: source ${wake.source}, reason ${wake.reason ?? 'none given'}.`,
    );
  const issue = input.issueId ? await findIssue(db, input.issueId) : null;
  if (issue) {
    const description = issue.description ?? '';
    lines.push(
      '',
      `Issue ${issue.identifier}: ${issue.title}`,
      `Status ${issue.status}, priority ${issue.priority}.`,
      description.length > MAX_DESCRIPTION_CHARS
        ? `${description.slice(0, MAX_DESCRIPTION_CHARS)}\n[description cut; read it in full from the API]`
        : description,
      '',
      `Full context: GET $SERVICE_API_URL/api/issues/${issue.id}/heartbeat-context`,
    );
  }
  lines.push(
    '',
    'Call the API at $SERVICE_API_URL with "Authorization: Bearer $SERVICE_API_KEY" and "X-Service-Run-Id: $SERVICE_RUN_ID".',
    '',
  );
  return lines.join('\n');
}
