// The surfaces that call a company's plugin worker for the board and for agents (issue 27 sections
// 4 and 5): data feeds and actions (the board's blocks, buttons and forms, and the frames' bridge),
// the UI contributions the board renders, tools (listed and executed in an agent's run), and the
// dashboard payload. Every call names its company; the worker it reaches is that company's, and
// the invocation's cause is who asked (the board user, or the agent with its run), so whatever the
// worker then asks of the host is bounded by that caller's rights as well as the company's grant.
import path from 'node:path';
import { and, asc, count, desc, eq } from 'drizzle-orm';
import type { AgentActor, BoardActor } from '../../core/actor.ts';
import type { Ctx } from '../../core/context.ts';
import { DomainError, forbidden, notFound, unprocessable } from '../../core/errors.ts';
import { assertKindMay, companyFor } from '../../core/permissions.ts';
import { isLiveRunStatus } from '../../core/statuses.ts';
import {
  agents,
  heartbeatRuns,
  issues,
  pluginCompanyEnablements,
  pluginJobRuns,
  plugins,
  pluginState,
  pluginWebhookDeliveries,
} from '../../db/schema/index.ts';
import { blocksPayload } from './blocks.ts';
import { fieldName, type PluginManifest } from './manifest.ts';
import type { PluginRow } from './present.ts';
import { manifestOf } from './service.ts';
import { assertMatches } from './values.ts';
import { BridgeError } from './worker/errors.ts';
import type { PluginWorkers } from './worker/host.ts';
import { pluginHealth, type WorkerHealth } from './worker/service.ts';

/** A plugin as one company has it. */
export interface CompanyPlugin {
  companyId: string;
  plugin: PluginRow;
  manifest: PluginManifest;
  /** Ready on the instance and enabled by the company: its worker may run for it. */
  runnable: boolean;
}

type CompanyPluginAction = 'plugin.readCompany' | 'plugin.configure' | 'plugin.useUi';

/**
 * The plugin as the company has it, once the caller may act on it there: 403 for a kind of caller
 * the action refuses, 404 for a missing company, 403 for another company's, then 404 for a plugin
 * that is not installed.
 */
export async function companyPluginFor(
  ctx: Ctx,
  action: CompanyPluginAction,
  pluginId: string,
  companyId: string,
): Promise<CompanyPlugin> {
  const company = await companyFor(ctx, action, companyId, {});
  const [row] = await ctx.db
    .select({ plugin: plugins, consent: pluginCompanyEnablements.status })
    .from(plugins)
    .leftJoin(
      pluginCompanyEnablements,
      and(eq(pluginCompanyEnablements.pluginId, plugins.id), eq(pluginCompanyEnablements.companyId, company.id)),
    )
    .where(eq(plugins.id, pluginId));
  if (!row) throw notFound('plugin');
  return {
    companyId: company.id,
    plugin: row.plugin,
    manifest: manifestOf(row.plugin),
    runnable: row.plugin.status === 'ready' && row.consent === 'enabled',
  };
}

/** The plugins that run for the company: ready on the instance and enabled by it, by key. */
async function runnablePlugins(ctx: Ctx, companyId: string): Promise<{ plugin: PluginRow; capabilities: string[] }[]> {
  return ctx.db
    .select({ plugin: plugins, capabilities: pluginCompanyEnablements.capabilities })
    .from(plugins)
    .innerJoin(
      pluginCompanyEnablements,
      and(eq(pluginCompanyEnablements.pluginId, plugins.id), eq(pluginCompanyEnablements.companyId, companyId)),
    )
    .where(and(eq(plugins.status, 'ready'), eq(pluginCompanyEnablements.status, 'enabled')))
    .orderBy(asc(plugins.pluginKey));
}

const undeclared = (what: string, key: string) =>
  new DomainError('not_found', `the plugin declares no ${what} ${JSON.stringify(key)}`);

// --- data and actions (the board's blocks, buttons and forms; a frame's bridge) ---

export interface SurfaceCall {
  companyId: string;
  key: string;
  params: Record<string, unknown>;
}

/**
 * A data key's answer, from the company's worker, caused by the board user. When a blocks slot
 * shows this key the answer must be a blocks payload: anything else is the worker's fault
 * (WORKER_ERROR naming the field), and never reaches a browser.
 */
export async function pluginData(ctx: Ctx, workers: PluginWorkers, pluginId: string, call: SurfaceCall) {
  const cause = assertKindMay(ctx.actor, 'plugin.useUi');
  const scope = await companyPluginFor(ctx, 'plugin.useUi', pluginId, call.companyId);
  if (!scope.manifest.data.some((d) => d.key === call.key)) throw undeclared('data key', call.key);
  const data = await workers.invoke(pluginId, scope.companyId, {
    kind: 'data',
    key: call.key,
    input: call.params,
    cause,
  });
  if (!scope.manifest.ui.slots.some((slot) => slot.kind === 'blocks' && slot.data === call.key)) return { data };
  const parsed = blocksPayload.safeParse(data);
  if (parsed.success) return { data: parsed.data };
  const [issue] = parsed.error.issues;
  throw new BridgeError(
    'WORKER_ERROR',
    `the worker's answer for data key ${JSON.stringify(call.key)} is not blocks: ${fieldName(issue?.path ?? [])}: ${issue?.message ?? 'invalid'}`,
  );
}

/** Runs a declared action in the company's worker, its params checked against `paramsSchema` first (422). */
export async function pluginAction(ctx: Ctx, workers: PluginWorkers, pluginId: string, call: SurfaceCall) {
  const cause = assertKindMay(ctx.actor, 'plugin.useUi');
  const scope = await companyPluginFor(ctx, 'plugin.useUi', pluginId, call.companyId);
  const action = scope.manifest.actions.find((a) => a.key === call.key);
  if (!action) throw undeclared('action', call.key);
  assertMatches(action.paramsSchema, call.params, 'params');
  const data = await workers.invoke(pluginId, scope.companyId, {
    kind: 'action',
    key: call.key,
    input: call.params,
    cause,
  });
  return { data };
}

// --- UI contributions ---

export interface UiContribution {
  pluginId: string;
  pluginKey: string;
  displayName: string;
  slots: {
    key: string;
    slot: string;
    title: string;
    kind: 'blocks' | 'frame';
    entity?: string;
    data?: string;
    frameUrl?: string;
  }[];
}

/** Where the board loads a frame slot's page: served outside /api, so the frame holds no session. */
export const frameUrlOf = (pluginId: string, entry: string) =>
  `/plugin-frames/${pluginId}/${path.posix.normalize(entry).replace(/^\.\//, '')}`;

/** The slots of the plugins that run for the company, for the board to render. */
export async function uiContributions(ctx: Ctx, companyId: string): Promise<UiContribution[]> {
  const company = await companyFor(ctx, 'plugin.readCompany', companyId, {});
  return (await runnablePlugins(ctx, company.id))
    .map(({ plugin }) => ({ plugin, manifest: manifestOf(plugin) }))
    .filter(({ manifest }) => manifest.ui.slots.length > 0)
    .map(({ plugin, manifest }) => ({
      pluginId: plugin.id,
      pluginKey: plugin.pluginKey,
      displayName: manifest.displayName,
      slots: manifest.ui.slots.map((slot) => ({
        key: slot.key,
        slot: slot.slot,
        title: slot.title,
        kind: slot.kind,
        ...(slot.entity && { entity: slot.entity }),
        ...(slot.data && { data: slot.data }),
        ...(slot.entry && { frameUrl: frameUrlOf(plugin.id, slot.entry) }),
      })),
    }));
}

// --- tools ---

export interface PluginTool {
  /** `<pluginId>:<name>`: what `tools/execute` takes. */
  tool: string;
  pluginId: string;
  pluginKey: string;
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  effect: 'read' | 'write';
}

/** The tools of the plugins that run for the company and hold its consent to `tools`. */
export async function listPluginTools(ctx: Ctx, companyId: string): Promise<PluginTool[]> {
  const company = await companyFor(ctx, 'plugin.listTools', companyId, {});
  return (await runnablePlugins(ctx, company.id))
    .filter(({ capabilities }) => capabilities.includes('tools'))
    .flatMap(({ plugin }) =>
      manifestOf(plugin).tools.map((t) => ({
        tool: `${plugin.id}:${t.name}`,
        pluginId: plugin.id,
        pluginKey: plugin.pluginKey,
        name: t.name,
        description: t.description,
        inputSchema: t.inputSchema,
        effect: t.effect,
      })),
    );
}

export interface ToolExecution {
  tool: string;
  parameters: Record<string, unknown>;
  runContext: { companyId: string; agentId: string; runId?: string; issueId?: string };
}

const TOOL_REF = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}):(.+)$/i;

/**
 * Executes a plugin tool in an agent's context, which the host checks: the agent is the company's,
 * an agent caller acts only as itself (and a run token only in its own run), a run named is that
 * agent's and live, an issue named is the company's. The parameters are checked against the tool's
 * `inputSchema` (422); the worker is invoked with the agent (and its run) as the cause.
 */
export async function executePluginTool(ctx: Ctx, workers: PluginWorkers, input: ToolExecution) {
  const { companyId, agentId, issueId } = input.runContext;
  const company = await companyFor(ctx, 'plugin.executeTool', companyId, { agentId });
  const ref = TOOL_REF.exec(input.tool);
  if (!ref) throw unprocessable('tool: must be "<pluginId>:<name>", as GET /api/plugins/tools lists it');
  const [, pluginId = '', name = ''] = ref;

  const [agent] = await ctx.db
    .select({ id: agents.id, role: agents.role, adapterType: agents.adapterType })
    .from(agents)
    .where(and(eq(agents.id, agentId), eq(agents.companyId, company.id)));
  if (!agent) throw unprocessable('runContext.agentId: not an agent of this company');

  const { actor } = ctx;
  const callerRun = actor.kind === 'agent' ? actor.runId : undefined;
  if (
    actor.kind === 'agent' &&
    actor.via === 'agent_jwt' &&
    input.runContext.runId &&
    input.runContext.runId !== callerRun
  )
    throw forbidden('a run token executes tools only in its own run');
  const runId = input.runContext.runId ?? callerRun;
  if (runId) {
    const [run] = await ctx.db
      .select({ status: heartbeatRuns.status })
      .from(heartbeatRuns)
      .where(
        and(eq(heartbeatRuns.id, runId), eq(heartbeatRuns.agentId, agent.id), eq(heartbeatRuns.companyId, company.id)),
      );
    if (!run) throw unprocessable('runContext.runId: not a run of this agent');
    if (!isLiveRunStatus(run.status)) throw unprocessable(`runContext.runId: the run is ${run.status}, not live`);
  }
  if (issueId) {
    const [issue] = await ctx.db
      .select({ id: issues.id })
      .from(issues)
      .where(and(eq(issues.id, issueId), eq(issues.companyId, company.id)));
    if (!issue) throw unprocessable('runContext.issueId: not an issue of this company');
  }

  const [row] = await ctx.db.select().from(plugins).where(eq(plugins.id, pluginId));
  if (!row) throw notFound('plugin');
  const runnable = (await runnablePlugins(ctx, company.id)).find((p) => p.plugin.id === pluginId);
  const tool = runnable?.capabilities.includes('tools')
    ? manifestOf(runnable.plugin).tools.find((t) => t.name === name)
    : undefined;
  if (!tool)
    throw new DomainError(
      'not_found',
      `no tool ${JSON.stringify(name)} of plugin ${row.pluginKey} runs for this company (GET /api/plugins/tools lists those that do)`,
    );
  assertMatches(tool.inputSchema, input.parameters, 'parameters');

  const cause: AgentActor =
    actor.kind === 'agent'
      ? { ...actor, ...(runId && { runId }) }
      : {
          kind: 'agent',
          agentId: agent.id,
          companyId: company.id,
          role: agent.role,
          adapterType: agent.adapterType,
          // A board user executing a tool for an agent acts with that agent's rights, never a run token's.
          via: 'agent_key',
          ...(runId && { runId }),
        };
  const result = await workers.invoke(pluginId, company.id, {
    kind: 'tool',
    key: name,
    input: input.parameters,
    cause,
    context: { agentId: agent.id, runId: runId ?? null, issueId: issueId ?? null },
  });
  return { result };
}

// --- dashboard ---

/** How many recent job runs and webhook deliveries the dashboard shows. */
const DASHBOARD_RECENT = 10;

export interface PluginDashboard {
  pluginId: string;
  companyId: string;
  /** This replica's worker for the company (none when it never started here and the company has not enabled it). */
  workers: WorkerHealth[];
  recentJobRuns: Pick<
    typeof pluginJobRuns.$inferSelect,
    'id' | 'jobKey' | 'fireAt' | 'trigger' | 'status' | 'attempt' | 'startedAt' | 'finishedAt' | 'error'
  >[];
  recentDeliveries: Pick<
    typeof pluginWebhookDeliveries.$inferSelect,
    'id' | 'webhookKey' | 'status' | 'receivedAt' | 'deliveredAt' | 'attempts' | 'error'
  >[];
  state: { keys: number };
}

/** The dashboard payload of the plugin for one company: its worker here, its recent job runs and deliveries, its state size. */
export async function pluginDashboard(
  ctx: Ctx,
  workers: PluginWorkers,
  pluginId: string,
  companyId: string,
): Promise<PluginDashboard> {
  const scope = await companyPluginFor(ctx, 'plugin.readCompany', pluginId, companyId);
  const health = await pluginHealth(ctx, workers, pluginId);
  const [recentJobRuns, recentDeliveries, [state]] = await Promise.all([
    ctx.db
      .select({
        id: pluginJobRuns.id,
        jobKey: pluginJobRuns.jobKey,
        fireAt: pluginJobRuns.fireAt,
        trigger: pluginJobRuns.trigger,
        status: pluginJobRuns.status,
        attempt: pluginJobRuns.attempt,
        startedAt: pluginJobRuns.startedAt,
        finishedAt: pluginJobRuns.finishedAt,
        error: pluginJobRuns.error,
      })
      .from(pluginJobRuns)
      .where(and(eq(pluginJobRuns.pluginId, pluginId), eq(pluginJobRuns.companyId, scope.companyId)))
      .orderBy(desc(pluginJobRuns.createdAt), desc(pluginJobRuns.id))
      .limit(DASHBOARD_RECENT),
    ctx.db
      .select({
        id: pluginWebhookDeliveries.id,
        webhookKey: pluginWebhookDeliveries.webhookKey,
        status: pluginWebhookDeliveries.status,
        receivedAt: pluginWebhookDeliveries.receivedAt,
        deliveredAt: pluginWebhookDeliveries.deliveredAt,
        attempts: pluginWebhookDeliveries.attempts,
        error: pluginWebhookDeliveries.error,
      })
      .from(pluginWebhookDeliveries)
      .where(
        and(eq(pluginWebhookDeliveries.pluginId, pluginId), eq(pluginWebhookDeliveries.companyId, scope.companyId)),
      )
      .orderBy(desc(pluginWebhookDeliveries.receivedAt), desc(pluginWebhookDeliveries.id))
      .limit(DASHBOARD_RECENT),
    ctx.db
      .select({ keys: count() })
      .from(pluginState)
      .where(and(eq(pluginState.pluginId, pluginId), eq(pluginState.companyId, scope.companyId))),
  ]);
  return {
    pluginId,
    companyId: scope.companyId,
    workers: health.filter((w) => w.companyId === scope.companyId),
    recentJobRuns,
    recentDeliveries,
    state: { keys: state?.keys ?? 0 },
  };
}

/** Who an invocation made by this caller is caused by: a board user or an agent; none for the system. */
export const causeOf = (actor: Ctx['actor']): BoardActor | AgentActor | null =>
  actor.kind === 'board' || actor.kind === 'agent' ? actor : null;
