// The full schema, one file per area. drizzle-kit reads every file in this folder.
export * from './identity.ts';
export * from './companies.ts';
export * from './agents.ts';
export * from './secrets.ts';
export * from './activity.ts';
export * from './work.ts';
export * from './issues.ts';
export * from './approvals.ts';
export * from './feedback.ts';
export * from './routines.ts';
export * from './costs.ts';
export * from './budgets.ts';
export * from './cost-rollups.ts';
export * from './finance.ts';
export * from './adapters.ts';
export * from './skills.ts';
export * from './telemetry.ts';
