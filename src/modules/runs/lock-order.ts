// The one row-lock order of the engine and of everything that touches agents, issues, runs and
// wakeups (ARCHITECTURE: company, agent, issue, run, wakeup). A transaction takes the locks it
// needs in this order and never goes back for an earlier one:
//
//   1. the agent row: lockAgent (core/agent-access.ts) or lockAgentOfRun (below), in a statement of
//      its own before anything else of that agent's;
//   2. issue rows (checkout, issue updates);
//   3. run rows (start, finish, cancel, lease renewal, checkout's run record);
//   4. budget usage counters, in their sorted order (budgets/usage.ts);
//   5. wakeup rows (decisions, promotions of deferred wakes, cancels).
//
// Why it matters here: a run's finish used to lock its run, then its agent, while a decision about
// the same agent (a wake, a pause, an interrupt) locked the agent, then a run: two runs of one agent
// starting and finishing at once could wait on each other (40P01), and the engine recorded the run
// as failed though its process had succeeded.
//
// Row locks are FOR NO KEY UPDATE, never FOR UPDATE: no code path changes a key, and the key-share
// locks that foreign keys take (a new run, wakeup, cost event or run-issue link of the agent) do
// not conflict with NO KEY UPDATE, so inserting a child row never waits for the parent's holder.
//
// A transaction about several agents would hold one agent and wait for the next while that one's
// finish waits for the first's counters: the reaper therefore ends each run in a transaction of its
// own, and a budget stop locks all the agents it touches first, in one statement (id order for a
// project's runs). The rest (a foreign path that does not follow the order) is caught by
// transactionWithRetry (db/retry.ts), which every engine transaction goes through.
//
// A second gain of locking the agent in its own first statement: later statements of the
// transaction take their snapshot after every other writer of that agent's runs has committed
// (they all hold the agent lock), so settleAgentStatus's "is a run still live" reads the truth,
// not a snapshot from before the lock wait (which left agents `running` with no live run).
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

/** Locks the agent of a run (step 1); false when the run does not exist. */
export async function lockAgentOfRun(tx: Tx, runId: string): Promise<boolean> {
  const rows = await tx.execute(
    sql`select a.id from agents a where a.id = (select r.agent_id from heartbeat_runs r where r.id = ${runId}) for no key update of a`,
  );
  return rows.rows.length > 0;
}
