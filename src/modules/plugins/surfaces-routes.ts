import { z } from 'zod';
import type { App, AppDeps } from '../../http/deps.ts';
import { authenticated, errors, timestampOut } from '../../http/openapi.ts';
import { contextOf } from '../../http/request.ts';
import { getPluginConfig, savePluginConfig, testPluginConfig } from './config.ts';
import { pluginParams } from './schemas.ts';
import {
  executePluginTool,
  listPluginTools,
  pluginAction,
  pluginDashboard,
  pluginData,
  uiContributions,
} from './surfaces.ts';
import type { PluginWorkers } from './worker/host.ts';
import { workerHealthResponse } from './worker/present.ts';

const tags = ['plugins'];

const companyId = z.uuid().describe('the company UUID: the plugin runs for it, and the caller must be of it');
const companyQuery = z.object({ companyId });
const params = z.record(z.string(), z.unknown()).default({}).describe('passed to the worker as the invocation input');
const surfaceKey = z.string().min(1).max(100);
const configObject = z.record(z.string(), z.unknown()).describe("values of the manifest's configSchema");

export const bridgeErrorBody = z
  .object({
    code: z.enum(['WORKER_UNAVAILABLE', 'CAPABILITY_DENIED', 'WORKER_ERROR', 'TIMEOUT']),
    message: z.string(),
  })
  .describe(
    "the plugin's worker failed: not running or not startable (`WORKER_UNAVAILABLE`), refused a host call, answered an error or a wrong shape (`WORKER_ERROR`), or did not answer in time (`TIMEOUT`)",
  );

const COMPANY_BOARD = (verb: string) =>
  errors(
    [403, `an agent caller, or the company is not one of the caller's (${verb} is board only)`],
    [404, 'no such company, or no plugin with this id'],
  );
const SURFACE_ERRORS = () =>
  errors(
    [403, "an agent caller, or the company is not one of the caller's"],
    [404, 'no such company, no plugin with this id, or the plugin declares no such key'],
    [422, "the params do not match the action's paramsSchema (`error` names the field)"],
  );

const configView = z.object({
  pluginId: z.string(),
  companyId: z.string(),
  configSchema: z.record(z.string(), z.unknown()).nullable().describe("the manifest's configSchema (null: no config)"),
  config: z
    .record(z.string(), z.unknown())
    .describe(
      'the saved config with the schema defaults filled in; a secret-ref field holds a secret id, never a value',
    ),
  revision: z.number().int().describe('0 until the first save, then one more on each'),
  updatedAt: z.date().nullable(),
  updatedByUserId: z.string().nullable(),
});
const configBody = z.object({ companyId, config: configObject }).strict();
const CONFIG_CHECKS =
  'Checked in order, each refusal a 422 naming the field: against the manifest’s configSchema (defaults filled in first; a plugin without one takes only `{}`), every `format: "secret-ref"` field must hold the id of a secret of this company, then the worker’s `validateConfig` when its worker can run for the company (`{ ok: false, errors }` is a 422 listing them in `details.errors`; a worker that cannot start is skipped).';

const contribution = z.object({
  pluginId: z.string(),
  pluginKey: z.string(),
  displayName: z.string(),
  slots: z.array(
    z.object({
      key: z.string(),
      slot: z.string(),
      title: z.string(),
      kind: z.enum(['blocks', 'frame']),
      entity: z.string().optional(),
      data: z
        .string()
        .optional()
        .describe('blocks slots: the data key to POST to `/api/plugins/{pluginId}/data/{key}`'),
      frameUrl: z
        .string()
        .optional()
        .describe("frame slots: the page's URL (outside /api: the frame holds no session)"),
    }),
  ),
});

const toolEntry = z.object({
  tool: z.string().describe('`<pluginId>:<name>`, what tools/execute takes'),
  pluginId: z.string(),
  pluginKey: z.string(),
  name: z.string(),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
  effect: z.enum(['read', 'write']),
});

const executeBody = z
  .object({
    tool: z.string().min(1).max(200).describe('`<pluginId>:<name>` as GET /api/plugins/tools lists it'),
    parameters: z.record(z.string(), z.unknown()).default({}).describe("checked against the tool's inputSchema"),
    runContext: z
      .object({
        companyId,
        agentId: z.uuid().describe('the agent the tool runs for (an agent caller: itself)'),
        runId: z.uuid().optional().describe("a live run of that agent (an agent caller's default: its own run)"),
        issueId: z.uuid().optional().describe('an issue of the company the call is about'),
      })
      .strict(),
  })
  .strict();

const dashboardResponse = z.object({
  pluginId: z.string(),
  companyId: z.string(),
  workers: z.array(workerHealthResponse).describe("this replica's worker for the company (empty when none)"),
  recentJobRuns: z
    .array(
      z.object({
        id: z.string(),
        jobKey: z.string(),
        fireAt: timestampOut(),
        trigger: z.string().describe('`schedule` or `manual`'),
        status: z.string().describe('queued, running, succeeded, failed or cancelled'),
        attempt: z.number().int(),
        startedAt: timestampOut().nullable(),
        finishedAt: timestampOut().nullable(),
        error: z.string().nullable(),
      }),
    )
    .describe('the last 10 job runs for the company, newest first'),
  recentDeliveries: z
    .array(
      z.object({
        id: z.string(),
        webhookKey: z.string(),
        status: z.string().describe('received, delivering, delivered or failed'),
        receivedAt: timestampOut(),
        deliveredAt: timestampOut().nullable(),
        attempts: z.number().int(),
        error: z.string().nullable(),
      }),
    )
    .describe('the last 10 webhook deliveries for the company, newest first'),
  state: z.object({ keys: z.number().int().describe('state keys the plugin holds for the company') }),
});

export function registerSurfaceRoutes(app: App, deps: AppDeps, workers: PluginWorkers): void {
  const { db } = deps.database;

  app.get(
    '/api/plugins/ui-contributions',
    {
      schema: {
        tags,
        summary: "The UI slots of a company's plugins",
        description:
          'For each plugin ready on the instance and enabled by the company, its slots: a blocks slot names its `data` key (the board renders the worker’s blocks with its own components), a frame slot its `frameUrl` (shown in a sandboxed iframe). Board users of the company; agents 403.',
        querystring: companyQuery,
        response: {
          200: z.array(contribution).describe('By plugin key; plugins without slots are left out'),
          ...authenticated(),
          ...errors([403, "an agent caller, or the company is not one of the caller's"], [404, 'no such company']),
        },
      },
    },
    async (request) => uiContributions(contextOf(db, request), request.query.companyId),
  );

  app.get(
    '/api/plugins/tools',
    {
      schema: {
        tags,
        summary: "The tools of a company's plugins",
        description:
          'The tools declared by the plugins ready on the instance and enabled by the company with the `tools` capability, as `<pluginId>:<name>` with their input schemas. Board users and agents of the company.',
        querystring: companyQuery,
        response: {
          200: z.array(toolEntry).describe('By plugin key, in manifest order'),
          ...authenticated(),
          ...errors([403, "the company is not one of the caller's"], [404, 'no such company']),
        },
      },
    },
    async (request) => listPluginTools(contextOf(db, request), request.query.companyId),
  );

  app.post(
    '/api/plugins/tools/execute',
    {
      schema: {
        tags,
        summary: 'Execute a plugin tool',
        description:
          "Runs the tool in the company's worker for the agent of `runContext`, the agent (with its run) as the cause: what the worker then asks of the host is bounded by that agent's rights. The host checks the context first: the agent is the company's (422), an agent caller executes only as itself (403) and a run token only in its own run (403), a `runId` is a live run of that agent (422), an `issueId` an issue of the company (422); then the parameters against the tool's inputSchema (422). Board users of the company and the agent itself. `boardroom mcp` offers these tools to agents.",
        body: executeBody,
        response: {
          200: z.object({ result: z.unknown() }).describe("the worker's answer"),
          ...authenticated(),
          ...errors(
            [403, "the company is not one of the caller's, or an agent executing as another agent or in another run"],
            [404, 'no such company, no plugin with this id, or the tool does not run for this company'],
            [
              422,
              'a malformed `tool`, a context the host refuses, or parameters that do not match (`error` names the field)',
            ],
          ),
          502: bridgeErrorBody,
        },
      },
    },
    async (request) => executePluginTool(contextOf(db, request), workers, request.body),
  );

  app.get(
    '/api/plugins/:pluginId/config',
    {
      schema: {
        tags,
        summary: "A company's config of a plugin",
        description:
          'The saved config with the configSchema defaults filled in (defaults alone before the first save). Secrets appear only as references (secret ids), never values. Board users of the company; agents 403.',
        params: pluginParams,
        querystring: companyQuery,
        response: { 200: configView.describe("The company's config"), ...authenticated(), ...COMPANY_BOARD('config') },
      },
    },
    async (request) => getPluginConfig(contextOf(db, request), request.params.pluginId, request.query.companyId),
  );

  app.post(
    '/api/plugins/:pluginId/config',
    {
      schema: {
        tags,
        summary: "Save a company's config of a plugin",
        description: `${CONFIG_CHECKS} Then saved (the revision goes up by one), recorded as \`plugin.config_updated\` in the company's activity (field names only), and announced to the worker with \`configChanged\` (best-effort). Board users of the company; agents 403.`,
        params: pluginParams,
        body: configBody,
        response: {
          200: configView.describe('The config as saved'),
          ...authenticated(),
          ...COMPANY_BOARD('config'),
          ...errors([422, 'the config is refused (`error` names the field; `details.errors` the worker’s reasons)']),
          502: bridgeErrorBody,
        },
      },
    },
    async (request) => savePluginConfig(contextOf(db, request), workers, request.params.pluginId, request.body),
  );

  app.post(
    '/api/plugins/:pluginId/config/test',
    {
      schema: {
        tags,
        summary: 'Check a candidate config without saving it',
        description: `${CONFIG_CHECKS} Nothing is saved. Board users of the company; agents 403.`,
        params: pluginParams,
        body: configBody,
        response: {
          200: z
            .object({
              ok: z.literal(true),
              config: z.record(z.string(), z.unknown()).describe('the candidate with the defaults filled in'),
              checkedByWorker: z.boolean().describe("false: the worker could not run, so only the host's checks ran"),
            })
            .describe('The config passes'),
          ...authenticated(),
          ...COMPANY_BOARD('config'),
          ...errors([422, 'the config is refused (`error` names the field; `details.errors` the worker’s reasons)']),
          502: bridgeErrorBody,
        },
      },
    },
    async (request) =>
      (async () => ({
        ok: true as const,
        ...(await testPluginConfig(contextOf(db, request), workers, request.params.pluginId, request.body)),
      }))(),
  );

  const dataDescription =
    "The data key's answer from the company's worker, invoked with the board user as the cause. When a blocks slot shows this key, the answer must be a blocks payload (`{ blocks: [...] }`, src/modules/plugins/blocks.ts): anything else is 502 `WORKER_ERROR` naming the field. Board users of the company; agents 403.";
  const actionDescription =
    "Runs the declared action in the company's worker, with the board user as the cause, once `params` match the action's paramsSchema (422 naming the field). Board users of the company; agents 403.";
  const dataResponse = {
    200: z.object({ data: z.unknown() }).describe("The worker's answer"),
    ...authenticated(),
    ...SURFACE_ERRORS(),
    502: bridgeErrorBody,
  };
  const keyParams = pluginParams.extend({ key: surfaceKey.describe('the declared data or action key') });
  const surfaceBody = z.object({ companyId, params }).strict();
  const bridgeBody = z.object({ companyId, key: surfaceKey, params }).strict();

  app.post(
    '/api/plugins/:pluginId/data/:key',
    {
      schema: {
        tags,
        summary: "Read a plugin's data feed",
        description: dataDescription,
        params: keyParams,
        body: surfaceBody,
        response: dataResponse,
      },
    },
    async (request) =>
      pluginData(contextOf(db, request), workers, request.params.pluginId, {
        ...request.body,
        key: request.params.key,
      }),
  );

  app.post(
    '/api/plugins/:pluginId/actions/:key',
    {
      schema: {
        tags,
        summary: "Run a plugin's action",
        description: actionDescription,
        params: keyParams,
        body: surfaceBody,
        response: dataResponse,
      },
    },
    async (request) =>
      pluginAction(contextOf(db, request), workers, request.params.pluginId, {
        ...request.body,
        key: request.params.key,
      }),
  );

  app.post(
    '/api/plugins/:pluginId/bridge/data',
    {
      schema: {
        tags,
        summary: "A frame's data request",
        description: `What the board relays for a plugin frame (which holds no session), the key in the body: ${dataDescription}`,
        params: pluginParams,
        body: bridgeBody,
        response: dataResponse,
      },
    },
    async (request) => pluginData(contextOf(db, request), workers, request.params.pluginId, request.body),
  );

  app.post(
    '/api/plugins/:pluginId/bridge/action',
    {
      schema: {
        tags,
        summary: "A frame's action request",
        description: `What the board relays for a plugin frame (which holds no session), the key in the body: ${actionDescription}`,
        params: pluginParams,
        body: bridgeBody,
        response: dataResponse,
      },
    },
    async (request) => pluginAction(contextOf(db, request), workers, request.params.pluginId, request.body),
  );

  app.get(
    '/api/plugins/:pluginId/dashboard',
    {
      schema: {
        tags,
        summary: "A plugin's dashboard for a company",
        description:
          "This replica's worker for the company (state, pid, uptime, restarts, sandbox, last error and its own health answer), its recent job runs and webhook deliveries, and how many state keys it holds. Starts no worker. Board users of the company; agents 403.",
        params: pluginParams,
        querystring: companyQuery,
        response: {
          200: dashboardResponse.describe('The dashboard payload'),
          ...authenticated(),
          ...COMPANY_BOARD('the dashboard'),
        },
      },
    },
    async (request) =>
      pluginDashboard(contextOf(db, request), workers, request.params.pluginId, request.query.companyId),
  );
}
