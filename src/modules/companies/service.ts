// Company use cases. Each mutation is one transaction that also writes its activity entry.
import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { agents, assets, companies, companyMemberships } from '../../db/schema/index.ts';
import type { Ctx } from '../../core/context.ts';
import type { Company } from '../../core/access.ts';
import { notFound, unprocessable } from '../../core/errors.ts';
import { recordActivity } from '../activity/record.ts';
import { syncMonthlyBudgetPolicy } from '../budgets/budget-policies.ts';
import { type Asset, oneRow } from '../../db/rows.ts';
import { storeAsset, type UploadedFile } from '../assets/service.ts';
import type { Storage } from '../../storage/storage.ts';
import { BRANDING_FIELDS, type CreateCompany, type PatchCompany } from './schemas.ts';
import type { BoardActor } from '../../core/actor.ts';
import {
  assertMayCreateCompany,
  assertMayOnCompany,
  assertMayPatchCompany,
  boardUserListing,
  companyForBoard,
} from './policy.ts';

/** "Acme Robotics" -> ACM: the first three letters or digits, starting with a letter. */
export function prefixBase(name: string): string {
  const letters = name.toUpperCase().replace(/[^A-Z0-9]/g, '');
  return (/^[A-Z]/.test(letters) ? letters : `C${letters}`).slice(0, 3).padEnd(3, 'X');
}

/**
 * The base itself when free, else the base with the lowest number above those taken (ACM2, ACM3,
 * ...). Runs under the create's advisory lock, so two creates never pick the same prefix.
 */
async function pickIssuePrefix(tx: DbOrTx, name: string): Promise<string> {
  const base = prefixBase(name);
  const [row] = await tx
    .select({
      baseTaken: sql<boolean>`bool_or(${companies.issuePrefix} = ${base})`,
      highest: sql<number | null>`max(substring(${companies.issuePrefix} from ${base.length + 1}::int)::bigint)
        filter (where ${companies.issuePrefix} ~ ${`^${base}[0-9]+$`})`,
    })
    .from(companies)
    .where(sql`${companies.issuePrefix} like ${`${base}%`}`);
  if (!row?.baseTaken) return base;
  return `${base}${Math.max(Number(row.highest ?? 1), 1) + 1}`;
}

export async function createCompany(ctx: Ctx, input: CreateCompany): Promise<Company> {
  await assertMayCreateCompany(ctx);
  return ctx.db.transaction(async (tx) => {
    // Serialise prefix choice so two concurrent creates with similar names never pick the same one.
    await tx.execute(sql`select pg_advisory_xact_lock(7310451023)`);
    const company = oneRow(
      await tx
        .insert(companies)
        .values({
          name: input.name,
          description: input.description ?? null,
          issuePrefix: await pickIssuePrefix(tx, input.name),
          requireBoardApprovalForNewAgents: input.requireBoardApprovalForNewAgents ?? false,
          brandColor: input.brandColor ?? null,
        })
        .returning(),
      'company',
    );
    if (ctx.actor.kind === 'board') {
      await tx.insert(companyMemberships).values({ companyId: company.id, userId: ctx.actor.userId, role: 'owner' });
    }
    if (input.budgetMonthlyCents)
      await syncMonthlyBudgetPolicy(tx, ctx.actor, {
        companyId: company.id,
        scopeType: 'company',
        scopeId: company.id,
        amountCents: input.budgetMonthlyCents,
      });
    await recordActivity(tx, ctx.actor, {
      companyId: company.id,
      action: 'company.created',
      entityType: 'company',
      entityId: company.id,
      details: { name: company.name },
    });
    return company;
  });
}

export async function listCompanies(ctx: Ctx, includeArchived: boolean): Promise<Company[]> {
  const actor = await boardUserListing(ctx, 'company.list');
  return companiesOf({ db: ctx.db, actor }, includeArchived);
}

/** The companies a board user belongs to (all of them for the instance owner), newest first. */
async function companiesOf(ctx: Ctx<BoardActor>, includeArchived: boolean): Promise<Company[]> {
  const visible = includeArchived ? undefined : ne(companies.status, 'archived');
  if (ctx.actor.isInstanceOwner)
    return ctx.db.select().from(companies).where(visible).orderBy(desc(companies.createdAt)).limit(1000);
  return ctx.db
    .select({ company: companies })
    .from(companies)
    .innerJoin(
      companyMemberships,
      and(eq(companyMemberships.companyId, companies.id), eq(companyMemberships.userId, ctx.actor.userId)),
    )
    .where(visible)
    .orderBy(desc(companies.createdAt))
    .limit(1000)
    .then((rows) => rows.map((r) => r.company));
}

async function assertLogoAsset(tx: DbOrTx, companyId: string, assetId: string): Promise<void> {
  const [asset] = await tx.select({ companyId: assets.companyId }).from(assets).where(eq(assets.id, assetId));
  if (!asset) throw unprocessable('logoAssetId does not reference an asset');
  if (asset.companyId !== companyId) throw unprocessable('logoAssetId belongs to another company');
}

/** PATCH: every field for the board, branding fields only for the company's CEO agent. */
export async function updateCompany(ctx: Ctx, company: Company, patch: PatchCompany): Promise<Company> {
  await assertMayPatchCompany(ctx, company.id, Object.keys(patch));
  return changeCompany(ctx, company, patch, 'company.updated');
}

type Branding = Pick<PatchCompany, (typeof BRANDING_FIELDS)[number]>;

/** PATCH /branding: the board or the company's CEO agent; fields other than branding are not taken. */
export async function updateBranding(ctx: Ctx, company: Company, patch: Branding): Promise<Company> {
  await assertMayOnCompany(ctx, 'company.brand', company.id);
  const branding = Object.fromEntries(BRANDING_FIELDS.filter((f) => f in patch).map((f) => [f, patch[f]]));
  return changeCompany(ctx, company, branding, 'company.branding_updated');
}

export async function archiveCompany(ctx: Ctx, companyId: string): Promise<Company> {
  const company = await companyForBoard(ctx, 'company.archive', companyId);
  return changeCompany(ctx, company, { status: 'archived' }, 'company.archived');
}

async function changeCompany(ctx: Ctx, company: Company, patch: PatchCompany, action: string): Promise<Company> {
  return ctx.db.transaction(async (tx) => {
    if (patch.logoAssetId) await assertLogoAsset(tx, company.id, patch.logoAssetId);
    const [updated] = await tx
      .update(companies)
      .set({
        ...(patch.name !== undefined && { name: patch.name }),
        ...(patch.description !== undefined && { description: patch.description }),
        ...(patch.brandColor !== undefined && { brandColor: patch.brandColor }),
        ...(patch.logoAssetId !== undefined && { logoAssetId: patch.logoAssetId }),
        ...(patch.status !== undefined && { status: patch.status }),
        ...(patch.requireBoardApprovalForNewAgents !== undefined && {
          requireBoardApprovalForNewAgents: patch.requireBoardApprovalForNewAgents,
        }),
        updatedAt: sql`now()`,
      })
      .where(eq(companies.id, company.id))
      .returning();
    if (!updated) throw notFound('company'); // deleted since it was read
    // Replacing or clearing the logo removes the previous logo asset.
    if (patch.logoAssetId !== undefined && company.logoAssetId && company.logoAssetId !== patch.logoAssetId) {
      await tx.delete(assets).where(and(eq(assets.id, company.logoAssetId), eq(assets.kind, 'logo')));
    }
    if (patch.budgetMonthlyCents !== undefined)
      await syncMonthlyBudgetPolicy(tx, ctx.actor, {
        companyId: company.id,
        scopeType: 'company',
        scopeId: company.id,
        amountCents: patch.budgetMonthlyCents,
      });
    await recordActivity(tx, ctx.actor, {
      companyId: company.id,
      action,
      entityType: 'company',
      entityId: company.id,
      details: { changes: patch },
    });
    return updated;
  });
}

/** Stores a logo as an asset of the company; attaching it is a separate PATCH (SPEC "Companies"). */
export async function uploadLogo(ctx: Ctx, storage: Storage, company: Company, file: UploadedFile): Promise<Asset> {
  await assertMayOnCompany(ctx, 'company.uploadLogo', company.id);
  return ctx.db.transaction(async (tx) => {
    const asset = await storeAsset(tx, storage, ctx.actor, { companyId: company.id, kind: 'logo', file });
    await recordActivity(tx, ctx.actor, {
      companyId: company.id,
      action: 'company.logo_uploaded',
      entityType: 'asset',
      entityId: asset.id,
      details: { contentType: asset.contentType, byteSize: asset.byteSize },
    });
    return asset;
  });
}

/** Removes the company and everything it owns (every company-scoped table cascades from companies). */
export async function deleteCompany(ctx: Ctx, companyId: string): Promise<Company> {
  const company = await companyForBoard(ctx, 'company.delete', companyId);
  await ctx.db.transaction(async (tx) => {
    // The one sanctioned delete of activity entries: see src/db/sql/activity-append-only.sql.
    await tx.execute(sql`select set_config('boardroom.deleting_company', ${company.id}, true)`);
    const [deleted] = await tx.delete(companies).where(eq(companies.id, company.id)).returning({ id: companies.id });
    if (!deleted) throw notFound('company');
  });
  return company;
}

/** The company's monthly budget: its calendar-month billed_cents policy (0 switches it off), evaluated at once. */
export async function setCompanyBudget(ctx: Ctx, companyId: string, budgetMonthlyCents: number): Promise<Company> {
  const company = await companyForBoard(ctx, 'company.setBudget', companyId);
  await ctx.db.transaction((tx) =>
    syncMonthlyBudgetPolicy(tx, ctx.actor, {
      companyId: company.id,
      scopeType: 'company',
      scopeId: company.id,
      amountCents: budgetMonthlyCents,
    }),
  );
  return company;
}

/** agentCount (non-terminated) per company; issueCount comes from the issue counter. */
export async function companyStats(ctx: Ctx): Promise<Record<string, { agentCount: number; issueCount: number }>> {
  const actor = await boardUserListing(ctx, 'company.stats');
  const list = await companiesOf({ db: ctx.db, actor }, true);
  if (list.length === 0) return {};
  const ids = list.map((c) => c.id);
  const agentCounts = await ctx.db
    .select({ companyId: agents.companyId, n: sql<number>`count(*)::int` })
    .from(agents)
    .where(and(inArray(agents.companyId, ids), ne(agents.status, 'terminated')))
    .groupBy(agents.companyId);
  const byCompany = new Map(agentCounts.map((r) => [r.companyId, r.n]));
  return Object.fromEntries(
    list.map((c) => [c.id, { agentCount: byCompany.get(c.id) ?? 0, issueCount: c.issueCounter - 1 }]),
  );
}
