// The capabilities a plugin may declare and a company may consent to (issue 27 section 2): a closed
// list, every one scoped to the company that turned the plugin on. What a plugin must never hold is
// named too, so a manifest asking for it is told why rather than "unknown".
export const CAPABILITIES = {
  // reads
  'issues.read': 'read issues',
  'comments.read': 'read comments',
  'documents.read': 'read issue documents',
  'projects.read': 'read projects',
  'agents.read': 'read agents',
  'goals.read': 'read goals',
  'routines.read': 'read routines',
  'activity.read': 'read the activity log',
  'costs.read': 'read costs',
  // writes
  'issues.write': 'create and edit issues (never their status or assignee)',
  'issues.status': "change an issue's status",
  'comments.write': 'write comments (their mentions wake nobody)',
  'documents.write': 'write issue documents',
  'agents.wake': 'wake agents, under the budget rules',
  // runtime
  'events.subscribe': 'receive activity events',
  jobs: 'run scheduled jobs',
  webhooks: 'receive inbound webhooks',
  tools: 'offer tools to agents',
  state: 'keep its own state',
  'http.outbound': "call the hosts listed in the manifest's `net`",
  'secrets.use': 'use the secrets its own config references (never their values in a response)',
  'folders.read': 'read, never write, the server folders the instance owner mounts for it',
  // UI
  'ui.blocks': 'show blocks the board renders',
  'ui.frame': 'show its own page in a sandboxed frame',
} as const;

export type Capability = keyof typeof CAPABILITIES;
export const CAPABILITY_NAMES = Object.keys(CAPABILITIES) as Capability[];

export const isCapability = (name: string): name is Capability => Object.hasOwn(CAPABILITIES, name);

/** Names a manifest might try that no plugin can hold, with the reason the refusal gives. */
export const NEVER_GRANTABLE: Record<string, string> = {
  'approvals.decide': 'deciding approvals is for the board',
  'approvals.write': 'deciding approvals is for the board',
  'budgets.write': 'budgets and overrides are for the board',
  'budgets.override': 'budgets and overrides are for the board',
  'secrets.read': 'secret values never reach a plugin (use secrets.use with references)',
  'secrets.write': 'secret administration is for the board',
  'secrets.manage': 'secret administration is for the board',
  'keys.read': 'keys are never a plugin’s',
  'keys.write': 'keys are never a plugin’s',
  'members.read': 'members are never a plugin’s',
  'members.write': 'members are never a plugin’s',
  'plugins.manage': 'plugin management is the instance owner’s',
  'adapters.manage': 'adapter management is the instance owner’s',
  sql: 'raw SQL is never granted',
  'db.query': 'raw SQL is never granted',
  files: 'the server’s files are never granted',
  'fs.read': 'the server’s files are never granted',
  'fs.write': 'the server’s files are never granted',
  subprocess: 'starting processes is never granted',
  'process.spawn': 'starting processes is never granted',
};
