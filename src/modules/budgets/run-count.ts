// The `runs` metric: a run counts once it has finished (whatever its end), in the month it started,
// for its company, its agent and its issue's project. Counting at the end, not the start, means a
// budget of N runs lets the N-th run finish instead of cancelling it the moment it begins.
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { issues } from '../../db/schema/index.ts';
import type { Actor } from '../../core/actor.ts';
import { evaluateCrossings } from './evaluate.ts';
import { addScopeUsage, scopesOf } from './usage.ts';

export async function countFinishedRun(
  tx: DbOrTx,
  actor: Actor,
  run: { companyId: string; agentId: string; issueId: string | null; startedAt: Date | null },
): Promise<void> {
  if (!run.startedAt) return;
  const [issue] = run.issueId
    ? await tx.select({ projectId: issues.projectId }).from(issues).where(eq(issues.id, run.issueId))
    : [];
  const delta = { runs: 1 };
  const rows = await addScopeUsage(
    tx,
    run.companyId,
    scopesOf(run.companyId, run.agentId, issue?.projectId ?? null),
    run.startedAt,
    delta,
  );
  await evaluateCrossings(tx, actor, rows, delta);
}
