// Instance-level routes: health, OpenAPI document, browser login, board keys, cli-auth.
import { z } from 'zod';
import { isDatabaseReachable } from '../../db/client.ts';
import { VERSION } from '../../paths.ts';
import type { App, AppDeps } from '../../http/deps.ts';
import { authenticated, errors } from '../../http/openapi.ts';
import { contextOf } from '../../http/request.ts';
import { SESSION_COOKIE } from '../../http/auth-plugin.ts';
import { unauthorized } from '../../core/errors.ts';
import { consumeLoginToken, endSession } from '../auth/service.ts';
import { createOwnBoardKey, DOCTOR_CHECK_MS, ownBoardKeys, revokeOwnBoardKey, runDoctor, whoAmI } from './service.ts';
import {
  boardKeyResponse,
  cliAuthResponse,
  createdBoardKeyResponse,
  healthResponse,
  presentBoardKey,
  type CliAuthResponse,
  type HealthResponse,
} from './present.ts';

const BOARD_ONLY = 'Board callers only (a board key, the browser session or local_trusted); agents get 403.';
const boardOnly = () => errors([403, 'the caller is an agent: board callers only']);

// A redirect has no body: a `null` schema documents the status without content (@fastify/swagger
// omits content for type null); the headers meta becomes the response's documented headers.
const redirectResponse = z.null().meta({
  description:
    'Session opened, redirecting to the board; or, for a browser (`Accept: text/html`) with a bad link, redirecting to the sign-in page',
  headers: {
    location: { type: 'string', description: '`/` (signed in) or `/sign-in?reason=link-invalid`' },
    'set-cookie': {
      type: 'string',
      description: '`boardroom_session=...; HttpOnly; SameSite=Lax; Max-Age=2592000; Path=/`',
    },
  },
});

// A JSON body is needed (`{}` for the default name): Fastify hands a bodiless POST to the schema as null.
const createBoardKeyBody = z
  .object({
    name: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .default('board key')
      .describe('a label to recognise the key by (default `board key`)'),
  })
  .meta({ examples: [{ name: 'laptop' }] });

const doctorResponse = z
  .object({
    ok: z.boolean().describe('every check passed'),
    checks: z.array(
      z.object({
        name: z.string().describe('`node`, `data dir` or `database`'),
        ok: z.boolean(),
        detail: z.string().describe('what was found, in the words `boardroom doctor` prints'),
      }),
    ),
  })
  .describe('The checks, in the order `boardroom doctor` prints them');

export function registerSystemRoutes(app: App, deps: AppDeps): void {
  const { db, pool } = deps.database;

  app.get(
    '/api/health',
    {
      config: { public: true },
      schema: {
        tags: ['system'],
        security: [],
        summary: 'Check server health',
        description:
          'Public (no credential needed). Answers 200 when the database answers within 3 s, otherwise 503 with the same shape (`status: "unavailable"`, `database.reachable: false`), for load balancers and monitors. `database.embedded` tells how the embedded database fared (restarts, last exit and restart, state); null with DATABASE_URL.',
        response: {
          200: healthResponse.describe('The server and its database are up'),
          503: healthResponse.describe('The database did not answer within 3 s'),
        },
      },
    },
    async (_request, reply) => {
      const databaseReachable = await isDatabaseReachable(pool);
      const body: HealthResponse = {
        status: databaseReachable ? 'ok' : 'unavailable',
        database: { reachable: databaseReachable, embedded: deps.embeddedDatabase?.() ?? null },
        version: VERSION,
        deploymentMode: deps.config.deploymentMode,
        authReady: true,
        features: { companyDeletion: true },
      };
      return reply.status(databaseReachable ? 200 : 503).send(body);
    },
  );

  app.get(
    '/api/instance/doctor',
    {
      schema: {
        tags: ['system'],
        summary: 'Run the doctor checks in the running server',
        description: [
          `${BOARD_ONLY} The checks of \`boardroom doctor\` that apply to a running server, by the same functions the CLI runs: \`node\` (version), \`data dir\` (exists and writable) and \`database\` (answers a query, with its version).`,
          `Each check is bounded to ${DOCTOR_CHECK_MS / 1000} s; one that takes longer is reported as failed, never as an error of the route. The CLI's \`config\` and \`port\` checks are about starting a server and hold for a running one; the local CLI runtimes' checks are each adapter's \`environment\` in GET /api/adapters.`,
        ].join(' '),
        response: { 200: doctorResponse, ...authenticated(), ...boardOnly() },
      },
    },
    async (request) => {
      return runDoctor(contextOf(db, request), {
        dataDir: deps.config.dataDir,
        externalDatabase: !!deps.config.databaseUrl,
        query: (sql) => pool.query<{ v: string }>(sql),
      });
    },
  );

  app.get('/api/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());

  // The one-time login URL printed at start: trades its token for an HttpOnly session cookie.
  app.get(
    '/api/auth/login',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        security: [],
        summary: 'Open a browser session with the one-time login link',
        description: [
          'Public: the link the server prints (or writes to `<data dir>/login-url`) at every start. Each link works once and expires after 24 hours.',
          'Trades the token for the `boardroom_session` cookie (HttpOnly, SameSite=Lax, 30 days) and redirects (302) to the board at `/`.',
          'A link that is unknown, used or expired answers 401; a browser (`Accept: text/html`) is redirected to the sign-in page instead, which says so.',
        ].join(' '),
        querystring: z.object({ token: z.string().min(1).max(200).describe('the token of the login link') }),
        response: {
          302: redirectResponse,
          ...errors([400, 'no `token` in the query'], [401, 'the login link is unknown, already used or expired']),
        },
      },
    },
    async (request, reply) => {
      const session = await consumeLoginToken(db, request.query.token);
      if (!session) {
        if (request.headers.accept?.includes('text/html')) return reply.redirect('/sign-in?reason=link-invalid');
        throw unauthorized('login link is invalid, used or expired');
      }
      reply.setCookie(SESSION_COOKIE, session, {
        httpOnly: true,
        sameSite: 'lax',
        path: '/',
        secure: false,
        maxAge: 30 * 24 * 3600,
      });
      return reply.redirect('/');
    },
  );

  app.post(
    '/api/auth/logout',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        security: [],
        summary: 'Sign the browser out',
        description:
          'Ends the browser session of the `boardroom_session` cookie (it stops working at once, on every replica) and clears the cookie. Public and idempotent: without a session it only clears the cookie. Board keys are not affected.',
        response: {
          204: z.null().describe('Signed out'),
          ...errors([400, 'a body that is not valid JSON (none is needed)']),
        },
      },
    },
    async (request, reply) => {
      const token = request.headers.cookie ? app.parseCookie(request.headers.cookie)[SESSION_COOKIE] : undefined;
      if (token) await endSession(db, token);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/cli-auth/me',
    {
      schema: {
        tags: ['auth'],
        summary: 'Show who this board credential is',
        description: `The board user behind the credential, the companies they are a member of, the board key used and how the caller authenticated. ${BOARD_ONLY}`,
        response: { 200: cliAuthResponse, ...authenticated(), ...boardOnly() },
      },
    },
    async (request) => {
      const out: CliAuthResponse = await whoAmI(contextOf(db, request));
      return out;
    },
  );

  app.get(
    '/api/board-keys',
    {
      schema: {
        tags: ['auth'],
        summary: 'List your board keys',
        description: `The calling user's own board keys, oldest first (at most 500), revoked ones included; never the tokens. ${BOARD_ONLY}`,
        response: {
          200: z.array(boardKeyResponse).describe("The caller's board keys, oldest first"),
          ...authenticated(),
          ...boardOnly(),
        },
      },
    },
    async (request) => {
      return (await ownBoardKeys(contextOf(db, request))).map(presentBoardKey);
    },
  );

  app.post(
    '/api/board-keys',
    {
      schema: {
        tags: ['auth'],
        summary: 'Create a board key',
        description: `A new board API key for the calling user. The token (\`svc_board_...\`) is in this answer only; the server keeps its SHA-256 hash. Use it as \`Authorization: Bearer <token>\`. Send \`{}\` for the default name. ${BOARD_ONLY}`,
        body: createBoardKeyBody,
        response: { 201: createdBoardKeyResponse, ...authenticated(), ...boardOnly() },
      },
    },
    async (request, reply) => {
      const { key, token } = await createOwnBoardKey(contextOf(db, request), request.body.name);
      return reply.status(201).send({ ...presentBoardKey(key), token });
    },
  );

  app.delete(
    '/api/board-keys/:keyId',
    {
      schema: {
        tags: ['auth'],
        summary: 'Revoke a board key',
        description: `Marks one of the caller's keys revoked (the record stays); it stops authenticating at once. Revoking again keeps the first \`revokedAt\`. ${BOARD_ONLY}`,
        params: z.object({ keyId: z.uuid().describe('board key UUID (`id` from GET /api/board-keys)') }),
        response: {
          200: boardKeyResponse.describe('The revoked key'),
          ...authenticated(),
          ...errors(
            [403, 'the caller is an agent: board callers only'],
            [404, "no such key among the caller's own (another user's key is 404)"],
          ),
        },
      },
    },
    async (request) => {
      return presentBoardKey(await revokeOwnBoardKey(contextOf(db, request), request.params.keyId));
    },
  );
}
