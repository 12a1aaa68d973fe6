// Secret responses show metadata only; the value and its ciphertext never leave the service.
import { z } from 'zod';
import type { secrets } from '../../db/schema/index.ts';
import { timestampOut, uuidOut } from '../../http/openapi.ts';
import type { SecretProvider } from './providers.ts';
import { MAX_REFERENCES_PER_SECRET, type SecretReferences } from './references.ts';

export type Secret = typeof secrets.$inferSelect;

/** Secret metadata (SPEC section 2, Secret): never the value. The presenter is typed by it. */
export const secretResponse = z
  .object({
    id: uuidOut(),
    companyId: uuidOut(),
    name: z.string().describe('unique in the company'),
    provider: z
      .string()
      .describe(
        'where the value is kept (`local_encrypted`: AES-256-GCM in the database); see GET .../secret-providers',
      ),
    externalRef: z.string().nullable().describe('reference into an external store, for providers that need one'),
    latestVersion: z
      .number()
      .int()
      .describe(
        'the newest version: 1 at creation, one more per rotation; references with `version: "latest"` resolve to it',
      ),
    description: z.string().nullable(),
    createdByAgentId: uuidOut().nullable(),
    createdByUserId: uuidOut().nullable(),
    createdAt: timestampOut(),
    updatedAt: timestampOut(),
  })
  .describe('The secret, metadata only (never the value)');

export type SecretResponse = z.output<typeof secretResponse>;

export function presentSecret(s: Secret): SecretResponse {
  return {
    id: s.id,
    companyId: s.companyId,
    name: s.name,
    provider: s.provider,
    externalRef: s.externalRef,
    latestVersion: s.latestVersion,
    description: s.description,
    createdByAgentId: s.createdByAgentId,
    createdByUserId: s.createdByUserId,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}

export const secretListItemResponse = secretResponse
  .extend({
    references: z
      .object({
        count: z.number().int().describe('how many environment variables of live agents reference this secret'),
        agents: z
          .array(
            z.object({
              agentId: uuidOut(),
              agentName: z.string(),
              envKey: z.string().describe('the variable of `adapterConfig.env` bound to the secret'),
              version: z.union([z.literal('latest'), z.number().int()]).describe('`latest`, or the pinned version'),
            }),
          )
          .describe(`the first ${MAX_REFERENCES_PER_SECRET}, by agent name then variable`),
      })
      .describe(
        'where the secret is used: live (non-terminated) agents whose `adapterConfig.env` binds a variable to it',
      ),
  })
  .describe('The secret, metadata only (never the value), with where it is referenced');

export function presentSecretListItem(
  s: Secret,
  references: SecretReferences,
): z.output<typeof secretListItemResponse> {
  return { ...presentSecret(s), references };
}

export const secretProviderResponse = z
  .object({
    id: z.string().describe('the value for `provider` when creating a secret'),
    label: z.string(),
    requiresExternalRef: z.boolean().describe('secrets of this provider need `externalRef`'),
  })
  .describe('A secret provider this instance offers');

export function presentSecretProvider(p: SecretProvider): z.output<typeof secretProviderResponse> {
  return { id: p.id, label: p.label, requiresExternalRef: p.requiresExternalRef };
}

export const deletedSecretResponse = z
  .object({ ok: z.literal(true), id: uuidOut().describe('the deleted secret') })
  .describe('The secret and all its versions were deleted');
