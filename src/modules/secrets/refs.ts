// Secret references inside env bindings (agent adapterConfig.env, project env):
// { type: 'secret_ref', secretId, version?: 'latest' | positive integer }.
import { and, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { secrets } from '../../db/schema/index.ts';
import { unprocessable } from '../../core/errors.ts';

export const secretRefSchema = z.object({
  type: z.literal('secret_ref'),
  secretId: z.uuid(),
  version: z.union([z.literal('latest'), z.number().int().positive()]).optional(),
});
export type SecretRef = z.infer<typeof secretRefSchema>;

/** Collects secret references anywhere inside a value (env bindings may nest). */
export function findSecretRefs(value: unknown, out: SecretRef[] = [], depth = 0): SecretRef[] {
  if (depth > 8 || !value || typeof value !== 'object') return out;
  if ((value as { type?: unknown }).type === 'secret_ref') {
    const parsed = secretRefSchema.safeParse(value);
    if (!parsed.success)
      throw unprocessable('malformed secret reference', { issues: parsed.error.issues.map((i) => i.message) });
    out.push(parsed.data);
    return out;
  }
  for (const v of Object.values(value)) findSecretRefs(v, out, depth + 1);
  return out;
}

/** Normalises omitted versions to 'latest' (returns a copy). */
export function normalizeSecretRefs<T>(value: T): T {
  if (!value || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => normalizeSecretRefs(v)) as T;
  const obj = value as Record<string, unknown>;
  if (obj.type === 'secret_ref')
    return { type: 'secret_ref', secretId: obj.secretId, version: obj.version ?? 'latest' } as T;
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, normalizeSecretRefs(v)])) as T;
}

/** Every referenced secret must exist in `companyId`; otherwise 422. */
export async function assertSecretRefsInCompany(db: DbOrTx, companyId: string, value: unknown): Promise<void> {
  const refs = findSecretRefs(value);
  if (refs.length === 0) return;
  const ids = [...new Set(refs.map((r) => r.secretId))];
  const found = await db
    .select({ id: secrets.id })
    .from(secrets)
    .where(and(eq(secrets.companyId, companyId), inArray(secrets.id, ids)));
  const foundIds = new Set(found.map((f) => f.id));
  const missing = ids.filter((id) => !foundIds.has(id));
  if (missing.length > 0)
    throw unprocessable('secret references must name secrets of the same company', { secretIds: missing });
}
