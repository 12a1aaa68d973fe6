// SPEC "Plugins": a plugin's local folders for one company (folders.ts says what they are and who
// may mount one).
import { z } from 'zod';
import type { App, AppDeps } from '../../http/deps.ts';
import { authenticated, errors } from '../../http/openapi.ts';
import { contextOf } from '../../http/request.ts';
import { listLocalFolders, localFolderStatus, putLocalFolder, validateLocalFolder } from './folders.ts';
import type { PluginWorkers } from './worker/host.ts';

const tags = ['plugins'];
const companyPlugin = z.object({
  pluginId: z.uuid().describe('plugin UUID'),
  companyId: z.uuid().describe('company UUID'),
});
const folderParams = companyPlugin.extend({
  folderKey: z.string().max(64).describe("the folder's key in the manifest's `localFolders`"),
});
const pathField = z.string().trim().min(1).max(4096).describe('an absolute path on the server');

const folderResponse = z.object({
  key: z.string(),
  description: z.string(),
  path: z.string().nullable().describe('the mounted server path; null: not mounted'),
});
const checkResponse = z.object({
  path: z.string().nullable().describe('the path as it would be mounted (links resolved); null when it does not exist'),
  ok: z.boolean(),
  problems: z.array(z.string()).describe('why it would be refused, in words'),
});

const READ_ERRORS = () =>
  errors(
    [403, "an agent caller, or the company is not one of the caller's"],
    [404, 'no such company or plugin, or the plugin declares no such folder'],
  );
const OWNER_ERRORS = () =>
  errors(
    [403, 'not the instance owner: a local folder exposes the server’s disk'],
    [404, 'no such company or plugin, or the plugin declares no such folder'],
  );
const WHO_READS = 'Board users of the company; agents 403.';
const WHO_MOUNTS =
  'The instance owner only (403 otherwise): mounting exposes the server’s disk to someone else’s code.';

export function registerPluginFolderRoutes(app: App, deps: AppDeps, workers: PluginWorkers): void {
  const { db } = deps.database;
  const folderDeps = { dataDir: deps.config.dataDir };
  const base = '/api/plugins/:pluginId/companies/:companyId/local-folders';

  app.get(
    base,
    {
      schema: {
        tags,
        summary: "A plugin's local folders for a company",
        description: `Every folder the manifest declares (\`localFolders\`), with the server path mounted for this company or null. ${WHO_READS}`,
        params: companyPlugin,
        response: {
          200: z.array(folderResponse).describe('The declared folders'),
          ...authenticated(),
          ...READ_ERRORS(),
        },
      },
    },
    async (request) => listLocalFolders(contextOf(db, request), request.params.pluginId, request.params.companyId),
  );

  app.get(
    `${base}/:folderKey/status`,
    {
      schema: {
        tags,
        summary: 'Whether a mounted folder is still usable',
        description: `The folder with \`check\`: its mounted path checked now as a PUT would check it (it may have been removed or made unreadable since); null when nothing is mounted. ${WHO_READS}`,
        params: folderParams,
        response: {
          200: folderResponse.extend({ check: checkResponse.nullable() }).describe('The folder, checked now'),
          ...authenticated(),
          ...READ_ERRORS(),
        },
      },
    },
    async (request) => {
      const { pluginId, companyId, folderKey } = request.params;
      return localFolderStatus(contextOf(db, request), folderDeps, pluginId, companyId, folderKey);
    },
  );

  app.post(
    `${base}/:folderKey/validate`,
    {
      schema: {
        tags,
        summary: 'Check a path before mounting it',
        description: `What a PUT of this path would do, without doing it: the resolved path and, when it would be refused, why (not absolute, missing, not a folder, unreadable, the filesystem root or a system folder, holding or inside the server's data directory). ${WHO_MOUNTS}`,
        params: folderParams,
        body: z.object({ path: pathField }).strict(),
        response: { 200: checkResponse.describe('What a PUT would do'), ...authenticated(), ...OWNER_ERRORS() },
      },
    },
    async (request) => {
      const { pluginId, companyId, folderKey } = request.params;
      return validateLocalFolder(contextOf(db, request), folderDeps, pluginId, companyId, folderKey, request.body.path);
    },
  );

  app.put(
    `${base}/:folderKey`,
    {
      schema: {
        tags,
        summary: 'Mount (or unmount) a local folder',
        description: `Mounts the folder read-only for this company's worker (\`path: null\` unmounts), records \`plugin.folder_mounted\` or \`plugin.folder_unmounted\` in the company's activity, and restarts the company's workers on every replica so the next call sees the change. 422 with \`details.problems\` when the path is refused (see validate). ${WHO_MOUNTS}`,
        params: folderParams,
        body: z.object({ path: pathField.nullable() }).strict(),
        response: {
          200: folderResponse.describe('The folder as now mounted'),
          ...authenticated(),
          ...OWNER_ERRORS(),
          ...errors([422, 'the path cannot be mounted (`details.problems`)']),
        },
      },
    },
    async (request) => {
      const { pluginId, companyId, folderKey } = request.params;
      const folder = await putLocalFolder(
        contextOf(db, request),
        folderDeps,
        pluginId,
        companyId,
        folderKey,
        request.body.path,
      );
      await workers.stopWorker(pluginId, companyId);
      return folder;
    },
  );
}
