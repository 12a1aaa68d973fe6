// The shape of every query key. A company's keys are ['c', companyId, resource, ...params]: the live
// layer refreshes "everything about issues in this company" with one prefix, and leaving a deleted
// company drops all of its cache with another. Each resource is declared once, by the module of
// ui/src/queries/ that reads it (its key factory and queryOptions); live/invalidation.ts names the
// same factories for the events that make them stale.

/** The prefix of every key of one company. */
const companyScope = (companyId: string) => ['c', companyId] as const;

/** Whether a cached query belongs to the company (a predicate for refreshing or dropping all of it). */
export const isCompanyQuery = (queryKey: readonly unknown[], companyId: string): boolean =>
  queryKey[0] === 'c' && queryKey[1] === companyId;

/** A company resource: its name (the third element of its keys) and the prefix of all its keys. */
export interface CompanyResource {
  readonly name: string;
  all(companyId: string): readonly unknown[];
}

/** The root of a resource's key factory: `all` (every key of it) and `key` (one key under it). */
export function companyResource<const Name extends string>(name: Name) {
  const all = (companyId: string) => [...companyScope(companyId), name] as const;
  return {
    name,
    all,
    key: <const Params extends readonly unknown[]>(companyId: string, ...params: Params) =>
      [...all(companyId), ...params] as const,
  };
}

/** Keys of the instance, not of one company (the live stream of a company never refreshes them). */
export const instanceKeys = {
  me: ['me'] as const,
  companies: ['companies'] as const,
  /** The adapter list; its config schemas sit under it, so a change to adapters refreshes both. */
  adapters: ['adapters'] as const,
  adapterConfigSchema: (type: string) => ['adapters', type, 'config-schema'] as const,
  health: ['health'] as const,
  doctor: ['instance', 'doctor'] as const,
};
