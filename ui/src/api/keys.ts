// Query keys: every company-scoped query is ['c', companyId, resource, ...params], so the live layer
// can refresh "everything about issues in this company" with one predicate. Resources are the names
// below; a page that adds a query uses one of them (or adds it here and to live/invalidation.ts).
export type Resource =
  | 'activity'
  | 'agent'
  | 'agents'
  | 'approval'
  | 'approvals'
  | 'counts'
  | 'dashboard'
  | 'documents'
  | 'inbox'
  | 'issue'
  | 'issues'
  | 'org'
  | 'projects'
  | 'routines'
  | 'routine'
  | 'goals'
  | 'labels'
  | 'runs'
  | 'run'
  | 'live-runs'
  | 'costs'
  | 'budgets'
  | 'finance'
  | 'company'
  | 'skills'
  | 'secrets';

export const companyKey = (companyId: string, resource: Resource, ...params: unknown[]) =>
  ['c', companyId, resource, ...params] as const;

export const instanceKeys = {
  me: ['me'] as const,
  companies: ['companies'] as const,
  adapters: ['adapters'] as const,
  health: ['health'] as const,
  doctor: ['instance', 'doctor'] as const,
};
