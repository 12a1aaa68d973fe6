// Runtime resolution of secret references for the engine: the plaintext exists only in the returned
// value that the engine injects into an agent's environment.
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { secrets, secretVersions } from '../../db/schema/index.ts';
import { DomainError } from '../../core/errors.ts';
import { openSecret } from './crypto.ts';
import { DEFAULT_SECRET_PROVIDER } from './providers.ts';
import { secretRefSchema, type SecretRef } from './refs.ts';

/** A reference that cannot be resolved; 422 if it ever surfaces through a route. */
export class SecretResolutionError extends DomainError {
  constructor(message: string, details?: unknown) {
    super('unprocessable', message, details);
  }
}

/**
 * The plaintext of `ref` in `companyId`: 'latest' (or no version) follows rotations, an integer stays
 * pinned. A secret of another company, a deleted secret or a version that does not exist fails.
 */
export async function resolveSecretValue(
  db: DbOrTx,
  masterKey: Buffer,
  companyId: string,
  ref: Pick<SecretRef, 'secretId' | 'version'>,
): Promise<string> {
  const pinned = typeof ref.version === 'number' ? ref.version : null;
  const [row] = await db
    .select({
      provider: secrets.provider,
      latestVersion: secrets.latestVersion,
      version: secretVersions.version,
      iv: secretVersions.iv,
      authTag: secretVersions.authTag,
      ciphertext: secretVersions.ciphertext,
    })
    .from(secrets)
    .leftJoin(
      secretVersions,
      and(
        eq(secretVersions.secretId, secrets.id),
        eq(secretVersions.version, sql`coalesce(${pinned}::int, ${secrets.latestVersion})`),
      ),
    )
    .where(and(eq(secrets.id, ref.secretId), eq(secrets.companyId, companyId)));
  if (!row)
    throw new SecretResolutionError(
      `secret ${ref.secretId} does not exist in this company (deleted or owned by another company)`,
      { secretId: ref.secretId },
    );
  if (row.provider !== DEFAULT_SECRET_PROVIDER)
    throw new SecretResolutionError(`secret provider ${row.provider} cannot be resolved here`, {
      secretId: ref.secretId,
    });
  if (row.version === null || row.iv === null || row.authTag === null || row.ciphertext === null) {
    throw new SecretResolutionError(`secret ${ref.secretId} has no version ${pinned ?? row.latestVersion}`, {
      secretId: ref.secretId,
      latestVersion: row.latestVersion,
    });
  }
  try {
    return openSecret(
      masterKey,
      { companyId, secretId: ref.secretId, version: row.version },
      { iv: row.iv, authTag: row.authTag, ciphertext: row.ciphertext },
    );
  } catch {
    throw new SecretResolutionError(
      `secret ${ref.secretId} version ${row.version} failed authentication (wrong master key or altered data)`,
      { secretId: ref.secretId },
    );
  }
}

/**
 * Env bindings (agent adapterConfig.env, project env) as plain strings. A binding is a string,
 * `{ type: 'plain', value }` or a secret reference; anything else is refused rather than guessed.
 */
export async function resolveEnvBindings(
  db: DbOrTx,
  masterKey: Buffer,
  companyId: string,
  env: Record<string, unknown>,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [name, binding] of Object.entries(env)) {
    if (typeof binding === 'string') out[name] = binding;
    else if (isPlain(binding)) out[name] = binding.value;
    else {
      const ref = secretRefSchema.safeParse(binding);
      if (!ref.success)
        throw new SecretResolutionError(`env binding ${name} is neither a value nor a secret reference`);
      out[name] = await resolveSecretValue(db, masterKey, companyId, ref.data);
    }
  }
  return out;
}

function isPlain(v: unknown): v is { type: 'plain'; value: string } {
  return (
    !!v &&
    typeof v === 'object' &&
    (v as { type?: unknown }).type === 'plain' &&
    typeof (v as { value?: unknown }).value === 'string'
  );
}
