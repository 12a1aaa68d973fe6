// Row types of the tables whose rows more than one area handles: they live beside the schema so an
// area can name another area's row without importing its service or presenter (issue 17).
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
