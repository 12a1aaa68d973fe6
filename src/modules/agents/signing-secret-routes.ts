// POST /api/agents/{agentId}/signing-secret: (re)generates the key an `http` adapter receiver
// verifies X-Service-Signature with. Board only; the secret is in this response and nowhere else.
import { z } from 'zod';
import type { App, AppDeps } from '../../http/deps.ts';
import { authenticated, errors, timestampOut, uuidOut } from '../../http/openapi.ts';
import { contextOf } from '../../http/request.ts';
import { agentParams } from './schemas.ts';
import { rotateSigningSecret, SIGNING_SECRET_PREFIX } from './signing-secret.ts';

const signingSecretResponse = z
  .object({
    agentId: uuidOut(),
    secret: z
      .string()
      .describe(
        `the signing secret (\`${SIGNING_SECRET_PREFIX}...\`): shown only in this response, stored encrypted, never returned again`,
      ),
    createdAt: timestampOut(),
  })
  .describe('The new signing secret, shown once');

export function registerSigningSecretRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;

  app.post(
    '/api/agents/:agentId/signing-secret',
    {
      schema: {
        tags: ['agents'],
        summary: "Generate (or rotate) an agent's signing secret",
        description: [
          'Board only (agents 403). Generates the secret the `http` adapter signs each run request with:',
          '`X-Service-Signature: sha256=<hex HMAC-SHA256 of the raw request body>`.',
          'The secret is in this response only; the server keeps it encrypted and never shows it again.',
          'Calling again replaces it: the old secret stops being used at once (the next run is signed with the new one).',
          'An `http` agent without a signing secret cannot run: its runs fail before anything is sent.',
          'A terminated agent gets none (409). Recorded as `agent.signing_secret_rotated` (without the secret).',
        ].join(' '),
        params: agentParams,
        response: {
          201: signingSecretResponse,
          ...authenticated(),
          ...errors(
            [403, 'board access required, or the agent belongs to another company'],
            [404, 'no such agent'],
            [409, 'the agent is terminated'],
          ),
        },
      },
    },
    async (request, reply) => {
      const issued = await rotateSigningSecret(contextOf(db, request), deps.config.masterKey, request.params.agentId);
      return reply.status(201).header('cache-control', 'no-store').send(issued);
    },
  );
}
