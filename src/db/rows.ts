// Row types of the tables whose rows more than one area handles: they live beside the schema so an
// area can name another area's row without importing its service or presenter (issue 17). And
// oneRow, for the statements that cannot come back empty.
import type {
  activityLog,
  agentApiKeys,
  agents,
  agentWakeupRequests,
  approvals,
  assets,
  goals,
  heartbeatRuns,
  issues,
  projects,
} from './schema/index.ts';

export type ActivityEntry = typeof activityLog.$inferSelect;
export type Agent = typeof agents.$inferSelect;
export type AgentKey = typeof agentApiKeys.$inferSelect;
export type Approval = typeof approvals.$inferSelect;
export type Asset = typeof assets.$inferSelect;
export type Goal = typeof goals.$inferSelect;
export type HeartbeatRun = typeof heartbeatRuns.$inferSelect;
export type Issue = typeof issues.$inferSelect;
export type Project = typeof projects.$inferSelect;
export type WakeupRequest = typeof agentWakeupRequests.$inferSelect;

/**
 * The row a statement must have produced: an INSERT ... RETURNING, a read of a row the same
 * transaction just wrote or locked, a SELECT of aggregates (one row always). None is a bug, not a
 * caller's mistake: it throws a plain Error naming what was missing, which the server logs and
 * answers as a 500, instead of a TypeError on `undefined` somewhere later. Where no row means "not
 * found" or "lost a race", check for it and throw the typed error (404, 409) instead.
 */
export function oneRow<T>(rows: readonly T[], what: string): T {
  const row = rows[0];
  if (row === undefined) throw new Error(`expected a ${what} row from the database, got none`);
  return row;
}
