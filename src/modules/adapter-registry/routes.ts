// SPEC "Adapters (instance-level, board scope)": the registry of runtime adapters. Listing is for
// any board caller; changing it runs foreign code inside the server (an install imports the package),
// so every mutation is the instance owner's alone. Agents get 403 everywhere.
import { z } from 'zod';
import type { App } from '../../http/deps.ts';
import { authenticated, errors } from '../../http/openapi.ts';
import { actorOf } from '../../http/request.ts';
import { binaryContentResponse } from '../attachments/present.ts';
import { adapterResponse, presentAdapter } from './present.ts';
import { configBody, installBody, overrideBody, typeParams } from './schemas.ts';
import type { AdapterManager } from './service.ts';

const tags = ['adapters'];
const FORBIDDEN_READ: [403, string] = [403, 'an agent caller (board only)'];
const FORBIDDEN_WRITE: [403, string] = [403, 'an agent caller, or a board user who is not the instance owner'];
const NO_TYPE: [404, string] = [404, 'no adapter of this type (neither built in nor installed)'];
const OWNER_ONLY =
  'Board only (agents 403); only the instance owner may change the registry (403 otherwise), since an adapter package runs inside the server.';

export function registerAdapterRoutes(app: App, adapters: AdapterManager): void {
  app.get(
    '/api/adapters',
    {
      schema: {
        tags,
        summary: 'List adapters',
        description:
          'Built-in adapters first, then installed external packages, each by type: label, models, source (package name or local path, version), status (enabled, disabled, pinned version, overridden), the redacted instance config and the result of its `testEnvironment()` run with that config (5 s each, all at once; a check that throws or hangs is reported as failed). An installed package that failed to load is listed with `loaded: false` and its `loadError`. Any board caller; agents 403.',
        response: {
          200: z.array(adapterResponse).describe('Built-ins first, then external adapters, each by type'),
          ...authenticated(),
          ...errors(FORBIDDEN_READ),
        },
      },
    },
    async (request) => {
      return (await adapters.list(actorOf(request))).map(presentAdapter);
    },
  );

  app.post(
    '/api/adapters/install',
    {
      schema: {
        tags,
        summary: 'Install an external adapter',
        description: [
          'From an absolute local path (the directory is copied, at most 50 MiB and 10,000 files) or an npm package (`npm install --ignore-scripts <name>@<version>`, which needs the npm registry reachable from the server).',
          'The package is staged under the data directory, its entry imported and `createServerAdapter()` checked against the adapter contract (type, execute, testEnvironment, models, agentConfigurationDoc); only then is it moved to `<dataDir>/adapters/<type>/`, recorded and registered. Any failure answers 422 with the reason and leaves nothing behind.',
          `A built-in type cannot be installed over, nor an installed one installed again (409; use reinstall or delete). ${OWNER_ONLY}`,
        ].join(' '),
        body: installBody,
        response: {
          201: adapterResponse.describe('The installed adapter, registered'),
          ...authenticated(),
          ...errors(
            FORBIDDEN_WRITE,
            [409, 'the type is built in, or already installed'],
            [422, 'the package could not be fetched, imported or validated (see `error`)'],
          ),
        },
      },
    },
    async (request, reply) => {
      return reply.status(201).send(presentAdapter(await adapters.install(actorOf(request), request.body)));
    },
  );

  app.patch(
    '/api/adapters/:type',
    {
      schema: {
        tags,
        summary: "Set an adapter type's instance config",
        description: `Replaces the instance config of a built-in or installed type; the list runs \`testEnvironment()\` with it. ${OWNER_ONLY}`,
        params: typeParams,
        body: configBody,
        response: {
          200: adapterResponse.describe('The adapter with its new settings'),
          ...authenticated(),
          ...errors(FORBIDDEN_WRITE, NO_TYPE),
        },
      },
    },
    async (request) => {
      return presentAdapter(await adapters.setConfig(actorOf(request), request.params.type, request.body.config));
    },
  );

  app.patch(
    '/api/adapters/:type/override',
    {
      schema: {
        tags,
        summary: "Set an adapter type's override block",
        description: `Fields given are changed, others kept. \`disabled: true\` makes every run of an agent with this adapter type fail at once with \`adapter type <type> is disabled\` (built-ins too); \`pinnedVersion\` is what reinstall fetches, and it refuses another version. ${OWNER_ONLY}`,
        params: typeParams,
        body: overrideBody,
        response: {
          200: adapterResponse.describe('The adapter with its new settings'),
          ...authenticated(),
          ...errors(FORBIDDEN_WRITE, NO_TYPE),
        },
      },
    },
    async (request) => {
      return presentAdapter(await adapters.setOverride(actorOf(request), request.params.type, request.body));
    },
  );

  app.delete(
    '/api/adapters/:type',
    {
      schema: {
        tags,
        summary: 'Delete an external adapter',
        description: `Unregisters the type, removes its files and its record (config and override included). Runs of agents of that type then fail with \`adapter type <type> is not installed on this server\`. A built-in type cannot be deleted (409). ${OWNER_ONLY}`,
        params: typeParams,
        response: {
          200: z.object({ ok: z.literal(true), type: z.string() }).describe('The adapter is gone'),
          ...authenticated(),
          ...errors(FORBIDDEN_WRITE, NO_TYPE, [409, 'the type is built in']),
        },
      },
    },
    async (request) => {
      await adapters.remove(actorOf(request), request.params.type);
      return { ok: true as const, type: request.params.type };
    },
  );

  app.post(
    '/api/adapters/:type/reload',
    {
      schema: {
        tags,
        summary: 'Reload an external adapter',
        description: `Imports the package entry again from its install directory (a fresh module URL, so the file is evaluated again; files it imports stay cached until restart), checks it and replaces the registration. A failure (422) keeps the previous registration. Built-ins 409. ${OWNER_ONLY}`,
        params: typeParams,
        response: {
          200: adapterResponse.describe('The adapter as reloaded'),
          ...authenticated(),
          ...errors(
            FORBIDDEN_WRITE,
            NO_TYPE,
            [409, 'the type is built in'],
            [422, 'the package no longer imports or validates'],
          ),
        },
      },
    },
    async (request) => {
      return presentAdapter(await adapters.reload(actorOf(request), request.params.type));
    },
  );

  app.post(
    '/api/adapters/:type/reinstall',
    {
      schema: {
        tags,
        summary: 'Reinstall an external adapter',
        description: `Fetches the recorded source again (the local path is copied again; an npm package is installed at the pinned version, else the recorded one), validates it like an install and swaps it in; on failure (422) the previous install stays. The package must still create the same type. Built-ins 409. ${OWNER_ONLY}`,
        params: typeParams,
        response: {
          200: adapterResponse.describe('The adapter as reinstalled'),
          ...authenticated(),
          ...errors(
            FORBIDDEN_WRITE,
            NO_TYPE,
            [409, 'the type is built in'],
            [422, 'the source could not be fetched or validated, another type, or not the pinned version'],
          ),
        },
      },
    },
    async (request) => {
      return presentAdapter(await adapters.reinstall(actorOf(request), request.params.type));
    },
  );

  app.get(
    '/api/adapters/:type/config-schema',
    {
      schema: {
        tags,
        summary: "An adapter type's config JSON Schema",
        description:
          'The JSON Schema of the adapter\'s `adapterConfig`, for a settings form: a built-in\'s is derived from the zod schema it parses its config with (each field typed, described, with its default); an installed package\'s is its `configSchema` export, `{ "type": "object" }` when it exports none. Any board caller; agents 403.',
        params: typeParams,
        response: {
          200: z.record(z.string(), z.unknown()).describe('a JSON Schema'),
          ...authenticated(),
          ...errors(FORBIDDEN_READ, NO_TYPE),
        },
      },
    },
    async (request) => {
      return adapters.configSchema(actorOf(request), request.params.type);
    },
  );

  app.get(
    '/api/adapters/:type/ui-parser.js',
    {
      schema: {
        tags,
        summary: "An adapter's browser-side output parser",
        description:
          "The script named by the package's `adapterUiParser` field, else its `./ui-parser` export, as `application/javascript` (at most 1 MiB). 404 when the type has none (built-ins have none). Any board caller; agents 403.",
        params: typeParams,
        response: {
          200: binaryContentResponse('the parser script', ['application/javascript']),
          ...authenticated(),
          ...errors(FORBIDDEN_READ, [404, 'no such adapter type, or it has no UI parser']),
        },
      },
    },
    async (request, reply) => {
      const script = await adapters.uiParser(actorOf(request), request.params.type);
      return reply
        .header('content-type', 'application/javascript; charset=utf-8')
        .header('x-content-type-options', 'nosniff')
        .send(script);
    },
  );
}
