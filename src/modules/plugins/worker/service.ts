// What the plugin's health and logs routes answer: this replica's workers of the plugin, for the
// companies the caller may see. The permission is the plugin record's (getPlugin: board callers).
import { and, eq } from 'drizzle-orm';
import { accessibleCompanyIds } from '../../../core/access.ts';
import type { Ctx } from '../../../core/context.ts';
import { pluginCompanyEnablements } from '../../../db/schema/index.ts';
import { getPlugin } from '../service.ts';
import type { PluginWorkers, WorkerState } from './host.ts';
import type { LogLine } from './lines.ts';

export interface WorkerHealth extends WorkerState {
  /** The worker's own `health` answer when it is running and answered. */
  health: unknown;
}

/** Per company that enabled the plugin (or still has a worker here): the worker's state on this replica. */
export async function pluginHealth(ctx: Ctx, workers: PluginWorkers, pluginId: string): Promise<WorkerHealth[]> {
  await getPlugin(ctx, pluginId);
  const enabled = await ctx.db
    .select({ companyId: pluginCompanyEnablements.companyId })
    .from(pluginCompanyEnablements)
    .where(and(eq(pluginCompanyEnablements.pluginId, pluginId), eq(pluginCompanyEnablements.status, 'enabled')));
  const live = workers.states(pluginId);
  const companies = [...new Set([...enabled.map((row) => row.companyId), ...live.map((state) => state.companyId)])];
  const visible = await accessibleCompanyIds(ctx.db, ctx.actor, companies);
  const shown = companies.filter((id) => visible.has(id)).sort();
  return Promise.all(
    shown.map(async (companyId) => {
      const state = workers.state(pluginId, companyId) ?? {
        companyId,
        status: 'stopped' as const,
        pid: null,
        uptimeMs: null,
        restarts: 0,
        sandbox: workers.sandbox,
        lastError: null,
      };
      return { ...state, health: await workers.workerHealth(pluginId, companyId) };
    }),
  );
}

/** The recent stderr lines, `log` calls and host notes of the plugin's workers the caller may see. */
export async function pluginLogs(
  ctx: Ctx,
  workers: PluginWorkers,
  pluginId: string,
): Promise<(LogLine & { companyId: string })[]> {
  await getPlugin(ctx, pluginId);
  const lines = workers.logs(pluginId);
  const visible = await accessibleCompanyIds(ctx.db, ctx.actor, new Set(lines.map((line) => line.companyId)));
  return lines.filter((line) => visible.has(line.companyId));
}
