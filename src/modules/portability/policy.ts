// Who may export and import (SPEC section 4, the role column of the seven routes). `/export` needs
// only access to the company, which the company boundary decides.
import { isCeoOf, type Actor } from '../../core/actor.ts';
import type { CallerAgent } from '../../core/agent-access.ts';

/** `/exports`, `/exports/preview`, `/imports/preview`, `/imports/apply`: the board, or the company's CEO agent. */
export const canUseCompanyPortability = (actor: Actor, companyId: string) =>
  actor.kind === 'board' || isCeoOf(actor, companyId);

/** `/api/companies/import` and its preview: the board only. */
export const canImportCompanies = (actor: Actor) => actor.kind === 'board';

/** A `path` source reads the server's disk: only the instance owner, who owns that disk. */
export const canReadServerPath = (actor: Actor) => actor.kind === 'board' && actor.isInstanceOwner;

/**
 * Every agent's configuration, env values included: the board, the CEO agent, an agent allowed to
 * create agents (the same callers the agents area shows unredacted configurations to).
 */
export const canReadConfigs = (actor: Actor, caller: CallerAgent, companyId: string) =>
  actor.kind !== 'agent' || isCeoOf(actor, companyId) || caller?.permissions.canCreateAgents === true;
