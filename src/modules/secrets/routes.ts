import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { App, AppDeps } from '../../http/deps.ts';
import { authenticated, errors } from '../../http/openapi.ts';
import { contextOf } from '../../http/request.ts';
import {
  deletedSecretResponse,
  presentSecret,
  presentSecretListItem,
  presentSecretProvider,
  secretListItemResponse,
  secretProviderResponse,
  secretResponse,
} from './present.ts';
import { MAX_REFERENCES_PER_SECRET, secretReferences } from './references.ts';
import { DEFAULT_SECRET_PROVIDER } from './providers.ts';
import { createSecretBody, listSecretsQuery, patchSecretBody, rotateSecretBody } from './schemas.ts';
import { createSecret, deleteSecret, listSecrets, rotateSecret, secretProviders, updateSecret } from './service.ts';
import { entryOf } from '../../lib/maps.ts';

const companyParams = z.object({ companyId: z.uuid().describe('company UUID') });
const secretParams = z.object({ secretId: z.uuid().describe('secret UUID') });
const tags = ['secrets'];

const BOARD_ONLY =
  'Board only: agents get 403 (they receive secret values only through references resolved into their runtime environment).';
const COMPANY_ERRORS = () =>
  errors([403, "the caller is an agent, or the company is not one of the caller's"], [404, 'no such company']);
const SECRET_ERRORS = () =>
  errors([403, 'the caller is an agent, or the secret belongs to another company'], [404, 'no such secret']);
const NAME_TAKEN = 'another secret of the company has this name (`details.secretId` names it)';
const PROVIDER_RULES = 'unknown `provider`, or the provider requires `externalRef` and none is set';

const createBody = createSecretBody.meta({
  examples: [
    { name: 'OPENAI_API_KEY', value: 'sk-live-0123456789abcdef', description: 'API key for the engineering agents' },
  ],
});
const patchBody = patchSecretBody.meta({
  examples: [{ description: 'API key for the engineering agents (rotated monthly)' }],
});
const rotateBody = rotateSecretBody.meta({ examples: [{ value: 'sk-live-fedcba9876543210' }] });

/** Every secret route is board-only (SPEC "Secrets"): agents get 403 before anything is looked up. */
export function registerSecretRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;
  const ctx = (request: FastifyRequest) => ({ ...contextOf(db, request), masterKey: deps.config.masterKey });

  app.get(
    '/api/companies/:companyId/secret-providers',
    {
      schema: {
        tags,
        summary: 'List secret providers',
        description: `Where secret values can be kept on this instance, with whether each needs \`externalRef\`. Today only \`${DEFAULT_SECRET_PROVIDER}\` (AES-256-GCM in the database). ${BOARD_ONLY}`,
        params: companyParams,
        response: {
          200: z.array(secretProviderResponse).describe('The providers'),
          ...authenticated(),
          ...COMPANY_ERRORS(),
        },
      },
    },
    async (request) => {
      return (await secretProviders(contextOf(db, request), request.params.companyId)).map(presentSecretProvider);
    },
  );

  app.get(
    '/api/companies/:companyId/secrets',
    {
      schema: {
        tags,
        summary: "List a company's secrets",
        description: [
          'Metadata only, never values; newest first, up to `limit` (default and maximum 1000).',
          'Each secret says where it is referenced: the live agents whose `adapterConfig.env` binds a variable to it (`references.count`, and the first',
          `${MAX_REFERENCES_PER_SECRET} as agent and variable). ${BOARD_ONLY}`,
        ].join(' '),
        params: companyParams,
        querystring: listSecretsQuery,
        response: {
          200: z.array(secretListItemResponse).describe('The secrets, newest first, without values'),
          ...authenticated(),
          ...COMPANY_ERRORS(),
        },
      },
    },
    async (request) => {
      const { companyId } = request.params;
      const list = await listSecrets(contextOf(db, request), companyId, request.query.limit);
      const references = await secretReferences(
        db,
        companyId,
        list.map((s) => s.id),
      );
      return list.map((s) => presentSecretListItem(s, entryOf(references, s.id, 'secret references')));
    },
  );

  app.post(
    '/api/companies/:companyId/secrets',
    {
      schema: {
        tags,
        summary: 'Create a secret',
        description: [
          'Stores the value encrypted as version 1 (`latestVersion` 1) and answers the metadata; the value is never returned, logged or written to the activity log.',
          'Agents use it through a secret reference in `adapterConfig.env` or a project `env`: `{ "type": "secret_ref", "secretId": "<id>", "version": "latest" }` (or a pinned version number).',
          `\`name\` must be unique in the company (409). ${BOARD_ONLY}`,
        ].join(' '),
        params: companyParams,
        body: createBody,
        response: {
          201: secretResponse.describe('The secret, created (metadata only)'),
          ...authenticated(),
          ...COMPANY_ERRORS(),
          ...errors([409, NAME_TAKEN], [422, PROVIDER_RULES]),
        },
      },
    },
    async (request, reply) => {
      return reply
        .status(201)
        .send(presentSecret(await createSecret(ctx(request), request.params.companyId, request.body)));
    },
  );

  app.patch(
    '/api/secrets/:secretId',
    {
      schema: {
        tags,
        summary: "Update a secret's metadata",
        description: `Renames it or changes its description or \`externalRef\`; omitted fields stay unchanged. The value and version do not change (rotate for a new value). A new name must be free in the company (409). ${BOARD_ONLY}`,
        params: secretParams,
        body: patchBody,
        response: {
          200: secretResponse.describe('The secret, updated (metadata only)'),
          ...authenticated(),
          ...SECRET_ERRORS(),
          ...errors([409, NAME_TAKEN], [422, 'the provider requires `externalRef` and it would be cleared']),
        },
      },
    },
    async (request) => {
      return presentSecret(await updateSecret(ctx(request), request.params.secretId, request.body));
    },
  );

  app.post(
    '/api/secrets/:secretId/rotate',
    {
      schema: {
        tags,
        summary: 'Rotate a secret',
        description: `Stores \`value\` as a new immutable version and advances \`latestVersion\`; the secret id stays. References to \`latest\` pick up the new value on their next resolution; references pinned to a version keep theirs. ${BOARD_ONLY}`,
        params: secretParams,
        body: rotateBody,
        response: {
          200: secretResponse.describe('The secret, with its new latestVersion (metadata only)'),
          ...authenticated(),
          ...SECRET_ERRORS(),
          ...errors([422, 'the provider requires `externalRef` and none is set']),
        },
      },
    },
    async (request) => {
      return presentSecret(await rotateSecret(ctx(request), request.params.secretId, request.body));
    },
  );

  app.delete(
    '/api/secrets/:secretId',
    {
      schema: {
        tags,
        summary: 'Delete a secret',
        description: `Hard delete of the secret and all its versions. References to it stay in configurations but fail when resolved at run time. ${BOARD_ONLY}`,
        params: secretParams,
        response: { 200: deletedSecretResponse, ...authenticated(), ...SECRET_ERRORS() },
      },
    },
    async (request) => {
      const secret = await deleteSecret(ctx(request), request.params.secretId);
      return { ok: true as const, id: secret.id };
    },
  );
}
