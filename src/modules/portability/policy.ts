// Who may export and import (SPEC section 4, the role column of the seven routes). `/export` needs
// only access to the company, which the company boundary decides.
import { isCeoOf, type Actor } from '../../core/actor.ts';

/** `/exports`, `/exports/preview`, `/imports/preview`, `/imports/apply`: the board, or the company's CEO agent. */
export const canUseCompanyPortability = (actor: Actor, companyId: string) => actor.kind === 'board' || isCeoOf(actor, companyId);

/** `/api/companies/import` and its preview: the board only. */
export const canImportCompanies = (actor: Actor) => actor.kind === 'board';

/** A `path` source reads the server's disk: only the instance owner, who owns that disk. */
export const canReadServerPath = (actor: Actor) => actor.kind === 'board' && actor.isInstanceOwner;
