import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { App, AppDeps } from '../../server/deps.ts';
import { requireBoard, requireCompanyAccess, requireAccessible } from '../../core/access.ts';
import { actorOf } from '../../server/request.ts';
import { presentSecret } from './present.ts';
import { SECRET_PROVIDERS } from './providers.ts';
import { createSecretBody, listSecretsQuery, patchSecretBody, rotateSecretBody } from './schemas.ts';
import { createSecret, deleteSecret, findSecret, listSecrets, rotateSecret, updateSecret } from './service.ts';

const companyParams = z.object({ companyId: z.uuid() });
const secretParams = z.object({ secretId: z.uuid() });
const tags = ['secrets'];

/** Every secret route is board-only (SPEC "Secrets"): agents get 403 before anything is looked up. */
export function registerSecretRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;
  const ctx = (request: FastifyRequest) => ({ db, actor: actorOf(request), masterKey: deps.config.masterKey });

  const boardCompany = async (request: FastifyRequest, companyId: string) => {
    requireBoard(actorOf(request));
    return requireCompanyAccess(db, actorOf(request), companyId);
  };
  const boardSecret = async (request: FastifyRequest, secretId: string) => {
    const actor = requireBoard(actorOf(request));
    return requireAccessible(db, actor, await findSecret(db, secretId), 'secret');
  };

  app.get('/api/companies/:companyId/secret-providers', { schema: { tags, params: companyParams } }, async (request) => {
    await boardCompany(request, request.params.companyId);
    return SECRET_PROVIDERS;
  });

  app.get('/api/companies/:companyId/secrets', { schema: { tags, params: companyParams, querystring: listSecretsQuery } }, async (request) => {
    const company = await boardCompany(request, request.params.companyId);
    return (await listSecrets(db, company.id, request.query.limit)).map(presentSecret);
  });

  app.post('/api/companies/:companyId/secrets', { schema: { tags, params: companyParams, body: createSecretBody } }, async (request, reply) => {
    const company = await boardCompany(request, request.params.companyId);
    return reply.status(201).send(presentSecret(await createSecret(ctx(request), company.id, request.body)));
  });

  app.patch('/api/secrets/:secretId', { schema: { tags, params: secretParams, body: patchSecretBody } }, async (request) => {
    const secret = await boardSecret(request, request.params.secretId);
    return presentSecret(await updateSecret(ctx(request), secret, request.body));
  });

  app.post('/api/secrets/:secretId/rotate', { schema: { tags, params: secretParams, body: rotateSecretBody } }, async (request) => {
    const secret = await boardSecret(request, request.params.secretId);
    return presentSecret(await rotateSecret(ctx(request), secret, request.body));
  });

  app.delete('/api/secrets/:secretId', { schema: { tags, params: secretParams } }, async (request) => {
    const secret = await boardSecret(request, request.params.secretId);
    await deleteSecret(ctx(request), secret);
    return { ok: true, id: secret.id };
  });
}
