// Secret use cases. Each mutation is one transaction that also writes its activity entry; values are
// sealed before they reach the database and never appear in activity details.
import { randomUUID } from 'node:crypto';
import { and, desc, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { secrets, secretVersions } from '../../db/schema/index.ts';
import type { Ctx } from '../../core/context.ts';
import { conflict, notFound } from '../../core/errors.ts';
import { recordActivity } from '../activity/record.ts';
import { sealSecret } from './crypto.ts';
import type { Secret } from './present.ts';
import {
  assertExternalRef,
  DEFAULT_SECRET_PROVIDER,
  requireProvider,
  SECRET_PROVIDERS,
  type SecretProvider,
} from './providers.ts';
import type { CreateSecret, PatchSecret, RotateSecret } from './schemas.ts';
import { oneRow } from '../../db/rows.ts';
import { secretFor, secretsCompanyFor } from './policy.ts';

export interface SecretCtx extends Ctx {
  masterKey: Buffer;
}

/** Where secret values can be kept on this instance (the board's, like every secret route). */
export async function secretProviders(ctx: Ctx, companyId: string): Promise<readonly SecretProvider[]> {
  await secretsCompanyFor(ctx, 'secret.read', companyId);
  return SECRET_PROVIDERS;
}

/** The company's secrets, metadata only, newest first. */
export async function listSecrets(ctx: Ctx, companyId: string, limit: number): Promise<Secret[]> {
  const company = await secretsCompanyFor(ctx, 'secret.read', companyId);
  return ctx.db
    .select()
    .from(secrets)
    .where(eq(secrets.companyId, company.id))
    .orderBy(desc(secrets.createdAt), desc(secrets.id))
    .limit(limit);
}

export async function findSecret(db: DbOrTx, secretId: string): Promise<Secret | null> {
  const [secret] = await db.select().from(secrets).where(eq(secrets.id, secretId));
  return secret ?? null;
}

// The unique constraint is the backstop for a race; this check gives the usual case a clear message.
async function assertNameFree(tx: DbOrTx, companyId: string, name: string, exceptId?: string): Promise<void> {
  const [taken] = await tx
    .select({ id: secrets.id })
    .from(secrets)
    .where(
      and(eq(secrets.companyId, companyId), eq(secrets.name, name), exceptId ? ne(secrets.id, exceptId) : undefined),
    );
  if (taken) throw conflict(`a secret named ${name} already exists in this company`, { secretId: taken.id });
}

export async function createSecret(ctx: SecretCtx, companyRef: string, input: CreateSecret): Promise<Secret> {
  const { id: companyId } = await secretsCompanyFor(ctx, 'secret.create', companyRef);
  const provider = requireProvider(input.provider ?? DEFAULT_SECRET_PROVIDER);
  assertExternalRef(provider, input.externalRef);
  const id = randomUUID();
  const sealed = sealSecret(ctx.masterKey, { companyId, secretId: id, version: 1 }, input.value);
  return ctx.db.transaction(async (tx) => {
    await assertNameFree(tx, companyId, input.name);
    const secret = oneRow(
      await tx
        .insert(secrets)
        .values({
          id,
          companyId,
          name: input.name,
          provider: provider.id,
          externalRef: input.externalRef ?? null,
          latestVersion: 1,
          description: input.description ?? null,
          createdByUserId: ctx.actor.kind === 'board' ? ctx.actor.userId : null,
          createdByAgentId: ctx.actor.kind === 'agent' ? ctx.actor.agentId : null,
        })
        .returning(),
      'secret',
    );
    await tx.insert(secretVersions).values({ companyId, secretId: id, version: 1, ...sealed });
    await recordActivity(tx, ctx.actor, {
      companyId,
      action: 'secret.created',
      entityType: 'secret',
      entityId: id,
      details: { name: input.name, provider: provider.id, version: 1 },
    });
    return secret;
  });
}

export async function updateSecret(ctx: SecretCtx, secretId: string, patch: PatchSecret): Promise<Secret> {
  const secret = await secretFor(ctx, 'secret.update', () => findSecret(ctx.db, secretId));
  const externalRef = patch.externalRef === undefined ? secret.externalRef : patch.externalRef;
  assertExternalRef(requireProvider(secret.provider), externalRef);
  return ctx.db.transaction(async (tx) => {
    if (patch.name !== undefined && patch.name !== secret.name)
      await assertNameFree(tx, secret.companyId, patch.name, secret.id);
    const [updated] = await tx
      .update(secrets)
      .set({
        ...(patch.name !== undefined && { name: patch.name }),
        ...(patch.description !== undefined && { description: patch.description }),
        ...(patch.externalRef !== undefined && { externalRef: patch.externalRef }),
        updatedAt: sql`now()`,
      })
      .where(eq(secrets.id, secret.id))
      .returning();
    if (!updated) throw notFound('secret');
    await recordActivity(tx, ctx.actor, {
      companyId: secret.companyId,
      action: 'secret.updated',
      entityType: 'secret',
      entityId: secret.id,
      details: { changes: patch },
    });
    return updated;
  });
}

/** A new immutable version; bumping latest_version first locks the row, so concurrent rotations get distinct versions. */
export async function rotateSecret(ctx: SecretCtx, secretId: string, input: RotateSecret): Promise<Secret> {
  const secret = await secretFor(ctx, 'secret.rotate', () => findSecret(ctx.db, secretId));
  const externalRef = input.externalRef === undefined ? secret.externalRef : input.externalRef;
  assertExternalRef(requireProvider(secret.provider), externalRef);
  return ctx.db.transaction(async (tx) => {
    const [rotated] = await tx
      .update(secrets)
      .set({ latestVersion: sql`${secrets.latestVersion} + 1`, externalRef, updatedAt: sql`now()` })
      .where(eq(secrets.id, secret.id))
      .returning();
    if (!rotated) throw notFound('secret');
    const version = rotated.latestVersion;
    const sealed = sealSecret(
      ctx.masterKey,
      { companyId: secret.companyId, secretId: secret.id, version },
      input.value,
    );
    await tx.insert(secretVersions).values({ companyId: secret.companyId, secretId: secret.id, version, ...sealed });
    await recordActivity(tx, ctx.actor, {
      companyId: secret.companyId,
      action: 'secret.rotated',
      entityType: 'secret',
      entityId: secret.id,
      details: { name: secret.name, version },
    });
    return rotated;
  });
}

/** Hard delete; the versions go with it (foreign key cascade), so later resolution of references fails. */
export async function deleteSecret(ctx: SecretCtx, secretId: string): Promise<Secret> {
  const secret = await secretFor(ctx, 'secret.delete', () => findSecret(ctx.db, secretId));
  await ctx.db.transaction(async (tx) => {
    await tx.delete(secrets).where(eq(secrets.id, secret.id));
    await recordActivity(tx, ctx.actor, {
      companyId: secret.companyId,
      action: 'secret.deleted',
      entityType: 'secret',
      entityId: secret.id,
      details: { name: secret.name, latestVersion: secret.latestVersion },
    });
  });
  return secret;
}
