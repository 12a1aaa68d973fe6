// Who may use the plugin registry (SPEC "Plugins", issue 27 section 2): the `plugin.*` rows of the
// permission table (core/permissions.ts). Any board user reads the instance's plugins; installing,
// upgrading, uninstalling and instance availability are the instance owner's alone (a plugin is
// someone else's code). A company's board turns a plugin on for that company, consenting to its
// capabilities. Agents get 403 everywhere, refused as readers first ("board access required").
import type { Company } from '../../core/access.ts';
import type { Ctx } from '../../core/context.ts';
import { assertMay, companyFor } from '../../core/permissions.ts';

export async function assertMayReadPlugins(ctx: Ctx): Promise<void> {
  await assertMay(ctx, 'plugin.read', {});
}

export async function assertMayManagePlugins(ctx: Ctx): Promise<void> {
  await assertMayReadPlugins(ctx);
  await assertMay(ctx, 'plugin.manage', {});
}

/** The company a company-plugin route names, once the caller may: 403 agents, 404 missing, 403 another company's. */
export function pluginCompanyFor(ctx: Ctx, action: 'plugin.readCompany' | 'plugin.consent', companyId: string) {
  return companyFor(ctx, action, companyId, {}) as Promise<Company>;
}
