// Plugins (issue 27): the instance's registry (installed plugins, the shipped examples, each plugin's
// workers and logs on the replica that answers) and one company's view ('plugins': its consents, the
// UI its enabled plugins contribute, and per plugin its config and jobs). A change of consent is an
// activity entry of the company (`plugin.enabled`, `plugin.disabled`), which refreshes 'plugins'.
//
// Some routes are built by other parts of issue 27 (ui-contributions, data, actions, config, jobs):
// until the server this board talks to has them, they answer "route … not found", and the section
// that shows them is left out (`optional`) rather than shown broken.
import { queryOptions } from '@tanstack/react-query';
import { api, ApiError, data } from '../api/client';
import { companyResource } from '../api/keys';

const plugins = companyResource('plugins');
export const companyPluginKeys = {
  ...plugins,
  list: (companyId: string) => plugins.key(companyId, 'list'),
  contributions: (companyId: string) => plugins.key(companyId, 'ui-contributions'),
  config: (companyId: string, pluginId: string) => plugins.key(companyId, pluginId, 'config'),
  jobs: (companyId: string, pluginId: string) => plugins.key(companyId, pluginId, 'jobs'),
  jobRuns: (companyId: string, pluginId: string, jobKey: string) => plugins.key(companyId, pluginId, 'jobs', jobKey),
  data: (companyId: string, pluginId: string, dataKey: string, entityId: string | null) =>
    plugins.key(companyId, pluginId, 'data', dataKey, entityId),
};

/** The registry is the instance's, not one company's: refreshed by the page's own changes. */
export const pluginRegistryKeys = {
  all: ['plugins'] as const,
  list: ['plugins', 'list'] as const,
  examples: ['plugins', 'examples'] as const,
  health: (pluginId: string) => ['plugins', pluginId, 'health'] as const,
  logs: (pluginId: string) => ['plugins', pluginId, 'logs'] as const,
};

const listPlugins = async () => data(await api.GET('/api/plugins'));
export type Plugin = Awaited<ReturnType<typeof listPlugins>>[number];
const listExamples = async () => data(await api.GET('/api/plugins/examples'));
export type PluginExample = Awaited<ReturnType<typeof listExamples>>[number];
const listCompanyPlugins = async (companyId: string) =>
  data(await api.GET('/api/companies/{companyId}/plugins', { params: { path: { companyId } } }));
export type CompanyPlugin = Awaited<ReturnType<typeof listCompanyPlugins>>[number] & {
  /** Each declared webhook's endpoint for this company, once the server lists them. */
  webhooks?: { key: string; url: string; signing?: string }[];
};
const pluginHealth = async (pluginId: string) =>
  data(await api.GET('/api/plugins/{pluginId}/health', { params: { path: { pluginId } } }));
export type WorkerHealth = Awaited<ReturnType<typeof pluginHealth>>[number];
const pluginLogs = async (pluginId: string) =>
  data(await api.GET('/api/plugins/{pluginId}/logs', { params: { path: { pluginId } } }));
export type WorkerLogLine = Awaited<ReturnType<typeof pluginLogs>>[number];

export const pluginsQuery = () => queryOptions({ queryKey: pluginRegistryKeys.list, queryFn: listPlugins });
export const pluginExamplesQuery = () => queryOptions({ queryKey: pluginRegistryKeys.examples, queryFn: listExamples });
export const companyPluginsQuery = (companyId: string) =>
  queryOptions({
    queryKey: companyPluginKeys.list(companyId),
    queryFn: () => listCompanyPlugins(companyId) as Promise<CompanyPlugin[]>,
  });
/** Health and logs change without an activity entry (a worker starts, writes, crashes): read every few seconds while shown. */
export const pluginHealthQuery = (pluginId: string) =>
  queryOptions({
    queryKey: pluginRegistryKeys.health(pluginId),
    queryFn: () => pluginHealth(pluginId),
    refetchInterval: 5000,
  });
export const pluginLogsQuery = (pluginId: string) =>
  queryOptions({
    queryKey: pluginRegistryKeys.logs(pluginId),
    queryFn: () => pluginLogs(pluginId),
    refetchInterval: 5000,
  });

// --- routes other parts of issue 27 add (not in this board's OpenAPI types yet) ---

type Query = Record<string, string>;
/** The same client (its errors, its 401 handling) for a path this board's generated types do not list yet. */
const loose = api as unknown as {
  GET(url: string, init?: { params?: { query?: Query } }): Promise<{ data?: unknown }>;
  POST(url: string, init?: { params?: { query?: Query }; body?: unknown }): Promise<{ data?: unknown }>;
};

/**
 * Whether a failure is the server not having this route at all (not "no such plugin"): its 404
 * "route … not found", or, for /api/plugins/ui-contributions, the 400 of GET /api/plugins/{pluginId}
 * that a server without the route matches it to ("ui-contributions" is no plugin id).
 */
export const isMissingRoute = (error: unknown): boolean =>
  error instanceof ApiError &&
  ((error.status === 404 && /^route \w+ \S+ not found$/.test(error.message)) ||
    (error.status === 400 &&
      Array.isArray(error.details) &&
      error.details.some((detail: { path?: unknown }) => detail?.path === '/pluginId')));

/** The answer, or null when the server has no such route (the caller hides its section). */
async function optional<T>(call: () => Promise<{ data?: unknown }>): Promise<T | null> {
  try {
    return data(await call()) as T;
  } catch (error) {
    if (isMissingRoute(error)) return null;
    throw error;
  }
}

export interface UiSlot {
  key: string;
  slot: 'dashboardWidget' | 'detailTab' | 'companyPage' | 'toolbarAction' | 'commentAnnotation' | 'settingsPage';
  title: string;
  kind: 'blocks' | 'frame';
  entity?: 'issue' | 'project' | 'agent' | 'run';
  data?: string;
  frameUrl?: string;
}
export interface UiContribution {
  pluginId: string;
  pluginKey: string;
  displayName: string;
  slots: UiSlot[];
}

export const uiContributionsQuery = (companyId: string) =>
  queryOptions({
    queryKey: companyPluginKeys.contributions(companyId),
    queryFn: async () =>
      (await optional<UiContribution[]>(() =>
        loose.GET('/api/plugins/ui-contributions', { params: { query: { companyId } } }),
      )) ?? [],
  });

/** A blocks slot's content: the worker's answer to its data key (502 with the worker's story when it fails). */
export const pluginDataQuery = (companyId: string, pluginId: string, dataKey: string, entityId: string | null) =>
  queryOptions({
    queryKey: companyPluginKeys.data(companyId, pluginId, dataKey, entityId),
    queryFn: async () =>
      data(
        await loose.POST(`/api/plugins/${pluginId}/data/${encodeURIComponent(dataKey)}`, {
          body: { companyId, params: entityId ? { entityId } : {} },
        }),
      ) as { data: unknown },
    // A failing worker is shown with its message; asking it again at once would only repeat it.
    retry: false,
  });

export async function runPluginAction(
  companyId: string,
  pluginId: string,
  action: string,
  params: Record<string, unknown>,
): Promise<unknown> {
  return data(
    await loose.POST(`/api/plugins/${pluginId}/actions/${encodeURIComponent(action)}`, {
      body: { companyId, params },
    }),
  );
}

export interface PluginConfig {
  config: Record<string, unknown>;
  configSchema?: Record<string, unknown>;
}
export const pluginConfigQuery = (companyId: string, pluginId: string) =>
  queryOptions({
    queryKey: companyPluginKeys.config(companyId, pluginId),
    queryFn: () =>
      optional<PluginConfig | Record<string, unknown>>(() =>
        loose.GET(`/api/plugins/${pluginId}/config`, { params: { query: { companyId } } }),
      ),
  });

export async function savePluginConfig(companyId: string, pluginId: string, config: Record<string, unknown>) {
  return data(
    await loose.POST(`/api/plugins/${pluginId}/config`, { params: { query: { companyId } }, body: { config } }),
  );
}

export async function testPluginConfig(companyId: string, pluginId: string, config: Record<string, unknown>) {
  return data(
    await loose.POST(`/api/plugins/${pluginId}/config/test`, { params: { query: { companyId } }, body: { config } }),
  ) as { ok: boolean; errors?: string[] };
}

export interface PluginJob {
  key: string;
  cron?: string;
  timezone?: string;
  nextFireAt?: string | null;
  lastRun?: PluginJobRun | null;
}
export interface PluginJobRun {
  id: string;
  status: string;
  trigger?: string;
  fireAt?: string;
  startedAt?: string | null;
  finishedAt?: string | null;
  error?: string | null;
}

export const pluginJobsQuery = (companyId: string, pluginId: string) =>
  queryOptions({
    queryKey: companyPluginKeys.jobs(companyId, pluginId),
    queryFn: () =>
      optional<PluginJob[]>(() => loose.GET(`/api/plugins/${pluginId}/jobs`, { params: { query: { companyId } } })),
  });

export const pluginJobRunsQuery = (companyId: string, pluginId: string, jobKey: string) =>
  queryOptions({
    queryKey: companyPluginKeys.jobRuns(companyId, pluginId, jobKey),
    queryFn: () =>
      optional<PluginJobRun[]>(() =>
        loose.GET(`/api/plugins/${pluginId}/jobs/${encodeURIComponent(jobKey)}/runs`, {
          params: { query: { companyId } },
        }),
      ),
  });

export async function triggerPluginJob(companyId: string, pluginId: string, jobKey: string) {
  return data(
    await loose.POST(`/api/plugins/${pluginId}/jobs/${encodeURIComponent(jobKey)}/trigger`, { body: { companyId } }),
  ) as { runId: string };
}
