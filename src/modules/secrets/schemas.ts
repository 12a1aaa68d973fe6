import { z } from 'zod';

// Values are credentials and config blobs (PEM keys, JSON service accounts), not documents.
const MAX_VALUE_CHARS = 64 * 1024;

const name = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .describe('unique in the company, e.g. the environment variable it feeds');
const description = z.string().max(10_000).nullish().describe('what it is for (null clears it)');
const externalRef = z
  .string()
  .trim()
  .min(1)
  .max(2000)
  .nullish()
  .describe(
    'reference into an external store, for providers that require one (on rotate, omitted keeps the current one)',
  );
const value = z
  .string()
  .min(1)
  .max(MAX_VALUE_CHARS)
  .describe(
    'the secret value (at most 64 KiB); stored encrypted and never returned; on rotate it becomes the next version',
  );

export const createSecretBody = z.object({
  name,
  value,
  provider: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe('a provider id from GET .../secret-providers (default `local_encrypted`)'),
  description,
  externalRef,
});

export const patchSecretBody = z.object({ name: name.optional(), description, externalRef });

export const rotateSecretBody = z.object({ value, externalRef });

export const listSecretsQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(1000)
    .describe('newest secrets returned (default and maximum 1000)'),
});

export type CreateSecret = z.infer<typeof createSecretBody>;
export type PatchSecret = z.infer<typeof patchSecretBody>;
export type RotateSecret = z.infer<typeof rotateSecretBody>;
