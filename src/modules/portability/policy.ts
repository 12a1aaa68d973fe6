// Who may export and import (SPEC section 4, the role column of the seven routes): the `company.export*`
// and `company.import*` rows of the permission table (core/permissions.ts).
// - `/export`: any caller with access to the company (company.export).
// - `/exports`, `/exports/preview`: the board, or the company's CEO agent (company.exportBundle).
// - `/imports/preview`, `/imports/apply`: the same, into their own company (company.importInto).
// - `/api/companies/import` and its preview: the board only (company.import).
// - A `path` source reads the server's disk: only the instance owner, who owns that disk
//   (company.importFromServerPath).
// - Agents' env values in an export: whoever may read every agent's configuration (agent.readConfig
//   about no agent in particular: the board, the CEO agent, an agent allowed to create agents).
import type { Company } from '../../core/access.ts';
import { callerAgent } from '../../core/agent-access.ts';
import type { Ctx } from '../../core/context.ts';
import { assertMay, companyFor, permits } from '../../core/permissions.ts';

export function exportingCompany(ctx: Ctx, companyId: string, strict: boolean): Promise<Company> {
  return companyFor(ctx, strict ? 'company.exportBundle' : 'company.export', companyId, {});
}

export function importingInto(ctx: Ctx, companyId: string): Promise<Company> {
  return companyFor(ctx, 'company.importInto', companyId, {});
}

export async function assertMayImportCompanies(ctx: Ctx): Promise<void> {
  await assertMay(ctx, 'company.import', {});
}

export async function assertMayReadServerPath(ctx: Ctx): Promise<void> {
  await assertMay(ctx, 'company.importFromServerPath', {});
}

export async function readsPlainEnv(ctx: Ctx, companyId: string): Promise<boolean> {
  const caller = await callerAgent(ctx.db, ctx.actor);
  return permits(ctx.actor, 'agent.readConfig', { companyId, agentId: null, caller });
}
