// SPEC "Plugins (instance-level; alpha)", issue 27 sections 1 and 2: the registry (install, upgrade,
// uninstall, instance availability, the shipped examples), each company's consent, and the health
// and logs of this replica's workers (worker/). The routes that call workers for the board and for
// agents (config, data, actions, the bridge, UI contributions, tools, dashboard) are
// surfaces-routes.ts; jobs, webhooks and streams come with the host API: docs/plugins.md.
import { z } from 'zod';
import type { App, AppDeps } from '../../http/deps.ts';
import { authenticated, errors } from '../../http/openapi.ts';
import { contextOf } from '../../http/request.ts';
import { disableCompanyPlugin, enableCompanyPlugin, listCompanyPlugins } from './company.ts';
import { registerPluginFolderRoutes } from './folders-routes.ts';
import { registerPluginJobRoutes } from './jobs-routes.ts';
import {
  companyPluginResponse,
  exampleResponse,
  pluginResponse,
  presentCompanyPlugin,
  presentPlugin,
} from './present.ts';
import { companyParams, companyPluginParams, consentBody, installBody, pluginParams, upgradeBody } from './schemas.ts';
import {
  getPlugin,
  installPlugin,
  listExamples,
  listPlugins,
  setPluginStatus,
  uninstallPlugin,
  upgradePlugin,
} from './service.ts';
import { registerSurfaceRoutes } from './surfaces-routes.ts';
import { type HostApi, PluginWorkers } from './worker/host.ts';
import { workerHealthResponse, workerLogResponse } from './worker/present.ts';
import { pluginHealth, pluginLogs } from './worker/service.ts';
import { presentWebhooks, registerPluginWebhookRoutes } from './webhooks-routes.ts';
import { registerPluginStreamRoutes } from './streams-routes.ts';

const tags = ['plugins'];
const FORBIDDEN_READ: [403, string] = [403, 'an agent caller (board only)'];
const FORBIDDEN_WRITE: [403, string] = [403, 'an agent caller, or a board user who is not the instance owner'];
const NO_PLUGIN: [404, string] = [404, 'no plugin with this id'];
const OWNER_ONLY =
  'Board only (agents 403); only the instance owner may change the plugin registry (403 otherwise): a plugin is someone else’s code.';
const COMPANY_ERRORS = () =>
  errors(
    [403, "an agent caller, or the company is not one of the caller's"],
    [404, 'no such company, or no plugin with this id'],
  );
const SOURCE = [
  'From an absolute local path (the directory is copied, at most 50 MiB and 10,000 files) or an npm package (`npm install --ignore-scripts <name>@<version>`: no install script runs; needs the npm registry reachable from the server).',
  'The package\'s package.json names the manifest (`"boardroom": { "plugin": "./boardroom.plugin.json" }`), read as JSON and validated (docs/plugins.md); the worker file it names must exist inside the package.',
  'Every file of the package (at most 20 MiB, 2,000 files, no links) is then stored in the database by content hash, so every replica runs the same bytes.',
].join(' ');

const workersByApp = new WeakMap<App, PluginWorkers>();

/** The app's plugin workers (one registry per app, i.e. per replica): what the routes that call workers use. */
export function pluginWorkersOf(app: App): PluginWorkers {
  const workers = workersByApp.get(app);
  if (!workers) throw new Error('the plugin routes are not registered on this app');
  return workers;
}

export function registerPluginRoutes(app: App, deps: AppDeps, hostApi?: HostApi): void {
  const { db } = deps.database;
  const pluginDeps = { dataDir: deps.config.dataDir };
  const workers = new PluginWorkers({
    db,
    dataDir: deps.config.dataDir,
    notifications: deps.notifications,
    hostApi,
  });
  workersByApp.set(app, workers);
  // Before the pool closes (server shutdown closes the app first): every worker stopped in stages.
  app.addHook('onClose', () => workers.close());
  registerPluginFolderRoutes(app, deps, workers);
  registerSurfaceRoutes(app, deps, workers);
  registerPluginWebhookRoutes(app, deps);
  registerPluginStreamRoutes(app, deps);
  registerPluginJobRoutes(app, deps);

  app.get(
    '/api/plugins',
    {
      schema: {
        tags,
        summary: 'List installed plugins',
        description:
          'Every installed plugin by key, with its manifest and instance status. Any board caller; agents 403.',
        response: {
          200: z.array(pluginResponse).describe('Installed plugins by key'),
          ...authenticated(),
          ...errors(FORBIDDEN_READ),
        },
      },
    },
    async (request) => (await listPlugins(contextOf(db, request))).map(presentPlugin),
  );

  app.get(
    '/api/plugins/examples',
    {
      schema: {
        tags,
        summary: 'List the bundled example plugins',
        description:
          'The example packages shipped with the server (plugins/examples/), each validated like an install, with the absolute `localPath` to install it from. Any board caller; agents 403.',
        response: {
          200: z.array(exampleResponse).describe('The examples, by folder name'),
          ...authenticated(),
          ...errors(FORBIDDEN_READ),
        },
      },
    },
    async (request) => listExamples(contextOf(db, request)),
  );

  app.post(
    '/api/plugins/install',
    {
      schema: {
        tags,
        summary: 'Install a plugin',
        description: [
          SOURCE,
          'The plugin is `ready` on the instance at once; it runs for no company until that company’s board enables it (`POST /api/companies/{companyId}/plugins/{pluginId}/enable`).',
          `A plugin key already installed is 409 (upgrade or uninstall it). Any failure answers 422 naming the field and leaves nothing behind. ${OWNER_ONLY}`,
        ].join(' '),
        body: installBody,
        response: {
          201: pluginResponse.describe('The installed plugin'),
          ...authenticated(),
          ...errors(
            FORBIDDEN_WRITE,
            [409, 'a plugin with this key is installed (`details.pluginId` names it)'],
            [422, 'the package could not be fetched, or its manifest or files are invalid (`error` names the field)'],
          ),
        },
      },
    },
    async (request, reply) =>
      reply.status(201).send(presentPlugin(await installPlugin(contextOf(db, request), pluginDeps, request.body))),
  );

  app.get(
    '/api/plugins/:pluginId',
    {
      schema: {
        tags,
        summary: 'A plugin record',
        description: 'Any board caller; agents 403.',
        params: pluginParams,
        response: {
          200: pluginResponse.describe('The plugin'),
          ...authenticated(),
          ...errors(FORBIDDEN_READ, NO_PLUGIN),
        },
      },
    },
    async (request) => presentPlugin(await getPlugin(contextOf(db, request), request.params.pluginId)),
  );

  app.delete(
    '/api/plugins/:pluginId',
    {
      schema: {
        tags,
        summary: 'Uninstall a plugin',
        description: `Removes the record, every company's enablement, the stored files no other plugin shares and this server's cache of them, in one transaction. ${OWNER_ONLY}`,
        params: pluginParams,
        response: {
          200: z.object({ ok: z.literal(true), id: z.string() }).describe('The plugin is gone'),
          ...authenticated(),
          ...errors(FORBIDDEN_WRITE, NO_PLUGIN),
        },
      },
    },
    async (request) => {
      await uninstallPlugin(contextOf(db, request), pluginDeps, request.params.pluginId);
      await workers.stopPlugin(request.params.pluginId);
      return { ok: true as const, id: request.params.pluginId };
    },
  );

  for (const [verb, status] of [
    ['enable', 'ready'],
    ['disable', 'disabled'],
  ] as const)
    app.post(
      `/api/plugins/:pluginId/${verb}`,
      {
        schema: {
          tags,
          summary: verb === 'enable' ? 'Make a plugin available on the instance' : 'Disable a plugin on the instance',
          description: [
            verb === 'enable'
              ? 'Sets the status to `ready` (and clears `lastError`): companies may turn it on.'
              : 'Sets the status to `disabled`: it runs for no company, whatever their consent, until enabled again; consents are kept.',
            verb === 'disable' ? `Every worker of the plugin on this replica is stopped. ${OWNER_ONLY}` : OWNER_ONLY,
          ].join(' '),
          params: pluginParams,
          response: {
            200: pluginResponse.describe('The plugin with its new status'),
            ...authenticated(),
            ...errors(FORBIDDEN_WRITE, NO_PLUGIN),
          },
        },
      },
      async (request) => {
        const plugin = await setPluginStatus(contextOf(db, request), request.params.pluginId, status);
        if (status === 'disabled') await workers.stopPlugin(plugin.id);
        return presentPlugin(plugin);
      },
    );

  app.post(
    '/api/plugins/:pluginId/upgrade',
    {
      schema: {
        tags,
        summary: 'Upgrade a plugin',
        description: [
          'From the source in the body (the install body), or, with an empty body, the recorded source fetched again (the local path copied again; the npm package at the recorded version or range).',
          SOURCE,
          'The package must be the same plugin (manifest `id`). All or nothing: on any failure (422) the previous version stays in place with its status.',
          'A company whose consent does not cover the new capabilities goes to `upgrade_pending`: the plugin does not run for it until its board enables it again with the new list.',
          OWNER_ONLY,
        ].join(' '),
        params: pluginParams,
        body: upgradeBody.nullish(),
        response: {
          200: pluginResponse.describe('The plugin as upgraded'),
          ...authenticated(),
          ...errors(FORBIDDEN_WRITE, NO_PLUGIN, [
            422,
            'the source could not be fetched or validated, or is another plugin',
          ]),
        },
      },
    },
    async (request) => {
      const plugin = await upgradePlugin(
        contextOf(db, request),
        pluginDeps,
        request.params.pluginId,
        request.body ?? {},
      );
      // The old version's workers stop; the next call starts the new one.
      await workers.stopPlugin(plugin.id);
      return presentPlugin(plugin);
    },
  );

  app.get(
    '/api/companies/:companyId/plugins',
    {
      schema: {
        tags,
        summary: "A company's plugins",
        description:
          "Every installed plugin with this company's status (`enabled`, `disabled`, `upgrade_pending`) and the capabilities it consented to. Board users of the company; agents 403.",
        params: companyParams,
        response: {
          200: z.array(companyPluginResponse).describe("Every installed plugin, with this company's status"),
          ...authenticated(),
          ...errors([403, "an agent caller, or the company is not one of the caller's"], [404, 'no such company']),
        },
      },
    },
    async (request) =>
      (await listCompanyPlugins(contextOf(db, request), request.params.companyId)).map((p) =>
        presentCompanyPlugin(p.plugin, p.enablement, presentWebhooks(deps, request, p.plugin.id, p.webhooks)),
      ),
  );

  app.post(
    '/api/companies/:companyId/plugins/:pluginId/enable',
    {
      schema: {
        tags,
        summary: 'Turn a plugin on for a company',
        description:
          "Consent is explicit: `capabilities` must equal the manifest's list as a set (422 names what is missing or not declared, also in `details`). Enables the plugin for this company (again after an upgrade: `upgrade_pending` becomes `enabled`) and records `plugin.enabled` in its activity. Each declared webhook gets an endpoint of this company (`webhooks`); the secret of a new signed endpoint is in this answer only (rotate for a new one). 409 while the plugin is disabled on the instance. Board users of the company; agents 403.",
        params: companyPluginParams,
        body: consentBody,
        response: {
          200: companyPluginResponse.describe('The plugin as this company now has it'),
          ...authenticated(),
          ...COMPANY_ERRORS(),
          ...errors(
            [409, 'the plugin is disabled on the instance'],
            [422, "the capabilities differ from the manifest's (`details.missing`, `details.extra`)"],
          ),
        },
      },
    },
    async (request) => {
      const { companyId, pluginId } = request.params;
      const result = await enableCompanyPlugin(
        contextOf(db, request),
        companyId,
        pluginId,
        request.body.capabilities,
        deps.config.masterKey,
      );
      return presentCompanyPlugin(
        result.plugin,
        result.enablement,
        presentWebhooks(deps, request, pluginId, result.webhooks),
      );
    },
  );

  app.post(
    '/api/companies/:companyId/plugins/:pluginId/disable',
    {
      schema: {
        tags,
        summary: 'Turn a plugin off for a company',
        description:
          'The plugin stops running for this company and its consent is withdrawn (enabling again consents again); records `plugin.disabled` in its activity. Board users of the company; agents 403.',
        params: companyPluginParams,
        response: {
          200: companyPluginResponse.describe('The plugin as this company now has it'),
          ...authenticated(),
          ...COMPANY_ERRORS(),
        },
      },
    },
    async (request) => {
      const { companyId, pluginId } = request.params;
      const result = await disableCompanyPlugin(contextOf(db, request), companyId, pluginId);
      await workers.stopWorker(pluginId, companyId);
      return presentCompanyPlugin(result.plugin, result.enablement, []);
    },
  );

  app.get(
    '/api/plugins/:pluginId/health',
    {
      schema: {
        tags,
        summary: "A plugin's workers on this replica",
        description:
          'Per company that enabled the plugin (or still has a worker here), among those the caller may see: the worker’s `status`, `pid`, `uptimeMs`, `restarts`, `sandbox` and `lastError` on the replica that answers, with the worker’s own `health` answer while it runs. Starts no worker. Any board caller; agents 403.',
        params: pluginParams,
        response: {
          200: z.array(workerHealthResponse).describe('One entry per company, by company id'),
          ...authenticated(),
          ...errors(FORBIDDEN_READ, NO_PLUGIN),
        },
      },
    },
    async (request) => pluginHealth(contextOf(db, request), workers, request.params.pluginId),
  );

  app.get(
    '/api/plugins/:pluginId/logs',
    {
      schema: {
        tags,
        summary: "A plugin's recent worker logs on this replica",
        description:
          'The last lines (at most 500 per company, each cut at 4,096 characters) of what the plugin’s workers on the answering replica wrote to stderr or sent as `log` calls, with the host’s own notes (start, exit, restart, stop), oldest first, for the companies the caller may see. Any board caller; agents 403.',
        params: pluginParams,
        response: {
          200: z.array(workerLogResponse).describe('Log lines, oldest first'),
          ...authenticated(),
          ...errors(FORBIDDEN_READ, NO_PLUGIN),
        },
      },
    },
    async (request) => pluginLogs(contextOf(db, request), workers, request.params.pluginId),
  );
}
