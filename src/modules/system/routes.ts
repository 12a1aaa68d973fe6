// Instance-level routes: health, OpenAPI document, browser login, board keys, cli-auth.
import { z } from 'zod';
import { isDatabaseReachable } from '../../db/client.ts';
import { VERSION } from '../../paths.ts';
import type { App, AppDeps } from '../../server/deps.ts';
import { requireBoard } from '../../core/access.ts';
import { actorOf } from '../../server/request.ts';
import { SESSION_COOKIE } from '../../server/auth-plugin.ts';
import { notFound, unauthorized } from '../../core/errors.ts';
import { companyIdsOfUser, consumeLoginToken, createBoardKey, listBoardKeys, revokeBoardKey } from '../auth/service.ts';
import { presentBoardKey } from './present.ts';


export function registerSystemRoutes(app: App, deps: AppDeps): void {
  const { db, pool } = deps.database;

  app.get('/api/health', { config: { public: true }, schema: { tags: ['system'] } }, async (_request, reply) => {
    const databaseReachable = await isDatabaseReachable(pool);
    return reply.status(databaseReachable ? 200 : 503).send({
      status: databaseReachable ? 'ok' : 'unavailable',
      database: { reachable: databaseReachable },
      version: VERSION,
      deploymentMode: deps.config.deploymentMode,
      authReady: true,
      features: { companyDeletion: true },
    });
  });

  // The board UI will live here; until then the interactive API docs are the front door.
  app.get('/', { config: { public: true }, schema: { hide: true } }, async (_request, reply) => reply.redirect('/api/docs'));

  app.get('/api/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());

  // The one-time login URL printed at start: trades its token for an HttpOnly session cookie.
  app.get(
    '/api/auth/login',
    { config: { public: true }, schema: { tags: ['auth'], querystring: z.object({ token: z.string().min(1).max(200) }) } },
    async (request, reply) => {
      const session = await consumeLoginToken(db, request.query.token);
      if (!session) throw unauthorized('login link is invalid, used or expired');
      reply.setCookie(SESSION_COOKIE, session, { httpOnly: true, sameSite: 'lax', path: '/', secure: false, maxAge: 30 * 24 * 3600 });
      return reply.redirect('/api/docs');
    },
  );

  app.get('/api/cli-auth/me', { schema: { tags: ['auth'] } }, async (request) => {
    const actor = requireBoard(actorOf(request));
    return {
      user: { id: actor.userId, isInstanceOwner: actor.isInstanceOwner },
      companyIds: await companyIdsOfUser(db, actor.userId),
      keyId: actor.keyId ?? null,
      via: actor.via,
    };
  });

  app.get('/api/board-keys', { schema: { tags: ['auth'] } }, async (request) => {
    const actor = requireBoard(actorOf(request));
    return (await listBoardKeys(db, actor.userId)).map(presentBoardKey);
  });

  app.post(
    '/api/board-keys',
    { schema: { tags: ['auth'], body: z.object({ name: z.string().trim().min(1).max(200).default('board key') }).default({ name: 'board key' }) } },
    async (request, reply) => {
      const actor = requireBoard(actorOf(request));
      const { key, token } = await createBoardKey(db, actor.userId, request.body.name);
      return reply.status(201).send({ ...presentBoardKey(key), token });
    },
  );

  app.delete('/api/board-keys/:keyId', { schema: { tags: ['auth'], params: z.object({ keyId: z.uuid() }) } }, async (request) => {
    const actor = requireBoard(actorOf(request));
    const key = await revokeBoardKey(db, actor.userId, request.params.keyId);
    if (!key) throw notFound('board key');
    return presentBoardKey(key);
  });
}
