// buildApp(deps): the whole HTTP API on a given database. Used by `boardroom run` and by tests.
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { randomUUID } from 'node:crypto';
import { installAuth } from '../http/auth-plugin.ts';
import { resolveBearer, resolveSession } from '../modules/auth/resolve.ts';
import type { App, AppDeps } from '../http/deps.ts';
import { installBudgetStopSettling } from './budget-stop-answers.ts';
import { installErrorHandler } from './errors.ts';
import { installInputGuard } from './input-guard.ts';
import { installOriginGuard } from './origin-guard.ts';
import { pluginConfigOf } from '../modules/plugins/config.ts';
import { registerPluginFrames } from './plugin-frames.ts';
import { installRouteContract } from './route-contract.ts';
import { createLogger, OneLineRequestLog } from './logger.ts';
import { VERSION } from '../paths.ts';
import { openApiTransform } from './openapi-transform.ts';
import { registerRoutes } from './routes.ts';
import { installBoardUi } from './board-ui.ts';
import { createAdapterRegistry } from '../adapters/registry.ts';
import { createAdapterManager } from '../modules/adapter-registry/service.ts';
import { permissionsMarkdown } from '../core/permissions.ts';
import { createPluginHostApi } from '../engine/plugins/host-api.ts';

const API_DESCRIPTION = [
  'Control plane for companies whose workers are AI agents.',
  '',
  'Authenticate with **Authorize**: paste a board key (`svc_board_...`, from `boardroom board-key create` or `POST /api/board-keys`)',
  'or an agent key. Agents send `X-Service-Run-Id: <run uuid>` on checkout, release and issue updates.',
  'Errors are `{ error, details? }`; 400 lists the failing paths in `details`.',
  '',
  '## Who may do what',
  '',
  'Every operation asks the one permission table (src/core/permission-table.ts) in its use case: per action and kind of caller, who may take it (docs/security.md explains the conditions).',
  '',
  permissionsMarkdown(),
].join('\n');

export async function buildApp(deps: AppDeps): Promise<App> {
  const app: App = Fastify({
    ...(deps.logger === false
      ? { logger: false }
      : { loggerInstance: typeof deps.logger === 'object' ? deps.logger : createLogger(deps.config.logLevel) }),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,100}$/.test(given) ? given : randomUUID();
    },
    // One line per request, written when it ends, not fastify's two.
    logController: new OneLineRequestLog(),
    bodyLimit: 2 * 1024 * 1024,
    // Route paths like /api/issues/ABC-1 are case-sensitive identifiers; trailing slashes are tolerated.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 300 },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Callback style: no promise per request for a one-line hook.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
  installErrorHandler(app);
  installBudgetStopSettling(app, deps.database.db);
  installRouteContract(app);
  installInputGuard(app);
  installOriginGuard(app);
  // No parsing hook: only authentication reads a cookie, and parses one only when it is sent.
  await app.register(cookie, { hook: false });
  await app.register(multipart, {
    limits: { fileSize: deps.config.maxUploadBytes, files: 1, fields: 20 },
    throwFileSizeLimit: true,
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Boardroom API', version: VERSION, description: API_DESCRIPTION },
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'A board key (`svc_board_...`), an agent key (`svc_agent_...`) or an agent run JWT',
          },
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: 'boardroom_session',
            description: 'The browser session set by the one-time login link',
          },
        },
      },
      security: [{ bearer: [] }, { session: [] }],
    },
    transform: openApiTransform,
  });
  // The interactive docs are public; the hook must exist before the plugin adds its routes.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/docs')) route.config = { ...(route.config as object), public: true };
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { deepLinking: true } });
  const resolvers = {
    bearer: (token: string) => resolveBearer(deps.database.db, deps.config.jwtSecret, token),
    session: (token: string) => resolveSession(deps.database.db, token),
  };
  installAuth(app, { config: deps.config, localBoardUserId: deps.localBoardUserId, resolvers });
  const adapters = createAdapterManager({
    db: deps.database.db,
    registry: deps.adapters ?? createAdapterRegistry(),
    dataDir: deps.config.dataDir,
    logger: app.log,
  });
  // Installed packages are registered again before the first request (and the engine's first run).
  await adapters.loadInstalled();
  // secrets.use substitutes the secrets the company's plugin config references.
  const pluginHostApi = createPluginHostApi({
    config: deps.config,
    configOf: (pluginId, companyId) => pluginConfigOf(deps.database.db, pluginId, companyId),
    lookup: deps.pluginNetLookup,
  });
  await registerRoutes(app, deps, { adapters, pluginHostApi });
  registerPluginFrames(app, deps);
  await installBoardUi(app);
  return app;
}
