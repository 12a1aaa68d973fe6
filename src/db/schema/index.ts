// The full schema, one file per area. drizzle-kit reads every file in this folder.
export * from './identity.ts';
export * from './companies.ts';
export * from './agents.ts';
export * from './secrets.ts';
export * from './activity.ts';
