// The HTTP side of the actor: the auth plugin resolves it onto the request; routes read it here and
// hand the domain a context ({ db, actor }) that carries nothing of HTTP.
import type { FastifyRequest } from 'fastify';
import type { Actor } from '../core/actor.ts';
import type { Ctx } from '../core/context.ts';
import { unauthorized } from '../core/errors.ts';
import type { DbOrTx } from '../db/client.ts';

export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw unauthorized();
  return request.actor;
}

export function contextOf(db: DbOrTx, request: FastifyRequest): Ctx {
  return { db, actor: actorOf(request) };
}
