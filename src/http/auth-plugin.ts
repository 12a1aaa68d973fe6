// Resolves request.actor (SPEC section 5) on every request to a route that is not marked
// `config: { public: true }`, and refuses it when there is none. Public routes get no actor.
// Checking a credential is the auth area's (modules/auth/resolve.ts), above this route kit: the
// assembly (server/app.ts) hands its resolvers in.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../core/actor.ts';
import type { Config } from '../core/config.ts';
import { DomainError, unauthorized } from '../core/errors.ts';

export const SESSION_COOKIE = 'boardroom_session';
export const RUN_ID_HEADER = 'x-service-run-id';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
    /**
     * The request's credential resolved again, now: a long-lived response (an event stream) asks this
     * periodically so a revoked key, an expired token or a locked-out agent ends it. null when the
     * credential no longer resolves; a database failure throws (the caller cannot tell).
     */
    reauthenticate(): Promise<Actor | null>;
  }
  interface FastifyContextConfig {
    public?: boolean;
  }
}

/** What a credential resolves to: null when it names nothing valid (unknown, revoked, expired, locked out). */
export interface CredentialResolvers {
  bearer(token: string): Promise<Actor | null>;
  session(token: string): Promise<Actor | null>;
}

export interface AuthDeps {
  config: Config;
  localBoardUserId: string | null;
  resolvers: CredentialResolvers;
}

export function installAuth(app: FastifyInstance, deps: AuthDeps): void {
  app.decorateRequest('actor', null);
  app.decorateRequest('reauthenticate', function (this: FastifyRequest) {
    return reauthenticate(this, deps);
  });
  // Callback style, so a public route (health probes) costs a property check: no promise, no lookup.
  // No public route reads the actor; those that take a credential (webhook fire) judge it themselves.
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.routeOptions.config?.public === true) return done();
    authenticate(request, deps).then(() => done(), done);
  });
}

// The cookie plugin does not parse on every request (see app.ts): only a request that sends one.
function sessionTokenOf(request: FastifyRequest): string | undefined {
  const cookieHeader = request.headers.cookie;
  return cookieHeader ? request.server.parseCookie(cookieHeader)[SESSION_COOKIE] : undefined;
}

async function authenticate(request: FastifyRequest, deps: AuthDeps): Promise<void> {
  const actor = await resolveActor(request.headers.authorization, sessionTokenOf(request), deps);
  const runId = request.headers[RUN_ID_HEADER];
  // An agent JWT's signed run_id claim is authoritative; the header only fills in where none is set.
  // (A plugin actor is never resolved from a request: it exists only inside host calls.)
  if (
    actor &&
    actor.kind !== 'plugin' &&
    !actor.runId &&
    typeof runId === 'string' &&
    runId.length > 0 &&
    runId.length <= 200
  )
    actor.runId = runId;
  request.actor = actor;
  if (!actor) throw unauthorized();
}

async function reauthenticate(request: FastifyRequest, deps: AuthDeps): Promise<Actor | null> {
  try {
    return await resolveActor(request.headers.authorization, sessionTokenOf(request), deps);
  } catch (err) {
    if (err instanceof DomainError && err.code === 'unauthorized') return null;
    throw err;
  }
}

async function resolveActor(
  authorization: string | undefined,
  sessionToken: string | undefined,
  deps: AuthDeps,
): Promise<Actor | null> {
  if (authorization !== undefined) {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
    const actor = token ? await deps.resolvers.bearer(token) : null;
    // A credential that was sent but is not valid never falls back to a cookie or the local board.
    if (!actor) throw unauthorized('invalid, revoked or expired credential');
    return actor;
  }
  if (sessionToken) {
    const actor = await deps.resolvers.session(sessionToken);
    if (actor) return actor;
  }
  if (deps.config.deploymentMode === 'local_trusted' && deps.localBoardUserId) {
    return { kind: 'board', userId: deps.localBoardUserId, isInstanceOwner: true, via: 'local_trusted' };
  }
  return null;
}
