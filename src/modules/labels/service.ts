// Label use cases. Each mutation is one transaction that also writes its activity entry; deleting a
// label strips its id from every issue of the company in the same transaction.
import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { issues, labels } from '../../db/schema/index.ts';
import type { Ctx } from '../../core/context.ts';
import { conflict, notFound, unprocessable } from '../../core/errors.ts';
import { oneRow } from '../../db/rows.ts';
import { recordActivity } from '../activity/record.ts';
import { labelFor, labelsCompanyFor } from './policy.ts';
import type { Label } from './present.ts';
import { type CreateLabel, LABEL_COLORS, type LabelColor, MAX_LABELS_PER_COMPANY, type PatchLabel } from './schemas.ts';

/** The company's labels by name (case folded), all of them: a company holds at most MAX_LABELS_PER_COMPANY. */
export async function listLabels(ctx: Ctx, companyId: string): Promise<Label[]> {
  const company = await labelsCompanyFor(ctx, 'label.read', companyId);
  return ctx.db
    .select()
    .from(labels)
    .where(eq(labels.companyId, company.id))
    .orderBy(asc(sql`lower(${labels.name})`), asc(labels.id))
    .limit(MAX_LABELS_PER_COMPANY);
}

export async function findLabel(db: DbOrTx, labelId: string): Promise<Label | null> {
  const [label] = await db.select().from(labels).where(eq(labels.id, labelId));
  return label ?? null;
}

function colorOf(color: string): LabelColor {
  if ((LABEL_COLORS as readonly string[]).includes(color)) return color as LabelColor;
  throw unprocessable(`color must be one of ${LABEL_COLORS.join(', ')}`, { field: 'color', allowed: LABEL_COLORS });
}

// The unique index is the backstop for a race; this check gives the usual case a message naming the field.
async function assertNameFree(tx: DbOrTx, companyId: string, name: string, exceptId?: string): Promise<void> {
  const [taken] = await tx
    .select({ id: labels.id, name: labels.name })
    .from(labels)
    .where(
      and(
        eq(labels.companyId, companyId),
        eq(sql`lower(${labels.name})`, name.toLowerCase()),
        exceptId ? ne(labels.id, exceptId) : undefined,
      ),
    );
  if (taken)
    throw conflict(`name is taken: the company already has a label named "${taken.name}"`, {
      field: 'name',
      labelId: taken.id,
    });
}

// Creates in one company are serialised, so two of them cannot both pass the count at the limit.
async function lockCompanyLabels(tx: Tx, companyId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`labels:${companyId}`}, 0))`);
}

export async function createLabel(ctx: Ctx, companyId: string, input: CreateLabel): Promise<Label> {
  const company = await labelsCompanyFor(ctx, 'label.create', companyId);
  const color = colorOf(input.color ?? 'neutral');
  return ctx.db.transaction(async (tx) => {
    await lockCompanyLabels(tx, company.id);
    const [held] = await tx.select({ n: count() }).from(labels).where(eq(labels.companyId, company.id));
    if ((held?.n ?? 0) >= MAX_LABELS_PER_COMPANY)
      throw unprocessable(
        `a company has at most ${MAX_LABELS_PER_COMPANY} labels: delete one it no longer uses first`,
        { limit: MAX_LABELS_PER_COMPANY },
      );
    await assertNameFree(tx, company.id, input.name);
    const label = oneRow(
      await tx.insert(labels).values({ companyId: company.id, name: input.name, color }).returning(),
      'label',
    );
    await recordActivity(tx, ctx.actor, {
      companyId: company.id,
      action: 'label.created',
      entityType: 'label',
      entityId: label.id,
      details: { name: label.name, color: label.color },
    });
    return label;
  });
}

export async function updateLabel(ctx: Ctx, labelId: string, patch: PatchLabel): Promise<Label> {
  const label = await labelFor(ctx, 'label.update', () => findLabel(ctx.db, labelId));
  const color = patch.color === undefined ? undefined : colorOf(patch.color);
  return ctx.db.transaction(async (tx) => {
    if (patch.name !== undefined) await assertNameFree(tx, label.companyId, patch.name, label.id);
    const [updated] = await tx
      .update(labels)
      .set({
        ...(patch.name !== undefined && { name: patch.name }),
        ...(color !== undefined && { color }),
        updatedAt: sql`now()`,
      })
      .where(eq(labels.id, label.id))
      .returning();
    if (!updated) throw notFound('label'); // deleted since it was read
    await recordActivity(tx, ctx.actor, {
      companyId: label.companyId,
      action: 'label.updated',
      entityType: 'label',
      entityId: label.id,
      details: { name: updated.name, changes: { ...patch, ...(color !== undefined && { color }) } },
    });
    return updated;
  });
}

/**
 * Deletes the label and removes its id from every issue of the company. The label row goes first: its
 * lock waits for issue writes that named it (they share-lock it, core/label-access.ts) to commit, and
 * the strip that follows then sees their ids. Issues keep their `updatedAt` (their list order stays).
 */
export async function deleteLabel(ctx: Ctx, labelId: string): Promise<Label & { removedFromIssues: number }> {
  const label = await labelFor(ctx, 'label.delete', () => findLabel(ctx.db, labelId));
  return ctx.db.transaction(async (tx) => {
    const [deleted] = await tx.delete(labels).where(eq(labels.id, label.id)).returning();
    if (!deleted) throw notFound('label');
    const stripped = await tx
      .update(issues)
      .set({ labelIds: sql`${issues.labelIds} - ${label.id}::text` })
      .where(
        and(eq(issues.companyId, label.companyId), sql`${issues.labelIds} @> ${JSON.stringify([label.id])}::jsonb`),
      )
      .returning({ id: issues.id });
    await recordActivity(tx, ctx.actor, {
      companyId: label.companyId,
      action: 'label.deleted',
      entityType: 'label',
      entityId: label.id,
      details: { name: deleted.name, color: deleted.color, removedFromIssues: stripped.length },
    });
    return { ...deleted, removedFromIssues: stripped.length };
  });
}
