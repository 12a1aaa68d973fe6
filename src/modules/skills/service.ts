// Company skills (SPEC "Skills"): storing packages as one record per (company, canonical key),
// the bundled skills, managed skills and their files. Reading a folder or downloading a URL happens
// before the transaction (no I/O between BEGIN and COMMIT); storing happens in one.
import { and, asc, eq, sql } from 'drizzle-orm';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { DbOrTx } from '../../db/client.ts';
import { agents, agentSkills, companySkillFiles, companySkills } from '../../db/schema/index.ts';
import { requireCompanyAccess } from '../../core/access.ts';
import type { Actor } from '../../core/actor.ts';
import { inTransaction, type Ctx } from '../../core/context.ts';
import { conflict, forbidden, notFound, unprocessable } from '../../core/errors.ts';
import { recordActivity } from '../activity/record.ts';
import { BUNDLED_SKILLS_DIR } from '../../paths.ts';
import {
  buildPackage,
  classify,
  fileFromBytes,
  MAX_SKILL_BYTES,
  MAX_SKILL_FILE_BYTES,
  MAX_SKILL_FILES,
  type SkillFile,
  type SkillPackage,
  type SourceKind,
} from './package.ts';
import { assertMayManageSkills } from './policy.ts';

export type Skill = typeof companySkills.$inferSelect;

/** Bundled keys: `<bundled_owner>/<bundled_repo>/<slug>` (SPEC), this server's own namespace. */
export const BUNDLED_OWNER = 'boardroom';
export const BUNDLED_REPO = 'skills';
/** The bundled skills shipped in src/skills/bundled/, one folder each. */
export const BUNDLED_SLUGS = ['boardroom-api'] as const;
/** A company's skills are listed whole: far more than any company keeps, bounded all the same. */
export const MAX_LISTED_SKILLS = 1000;

/** Bundled and editable: SPEC says bundled skills cannot be edited or deleted. */
export const isEditable = (skill: Pick<Skill, 'sourceKind'>) => skill.sourceKind !== 'service_bundled';

let bundledCache: Promise<SkillPackage[]> | null = null;

/** The bundled packages, read once per process: they follow the server release, not the data. */
export function bundledPackages(): Promise<SkillPackage[]> {
  bundledCache ??= Promise.all(
    BUNDLED_SLUGS.map(async (slug) => {
      const bytes = await readFile(path.join(BUNDLED_SKILLS_DIR, slug, 'SKILL.md'));
      return buildPackage([fileFromBytes('SKILL.md', bytes)], slug);
    }),
  );
  return bundledCache;
}

export interface Placement {
  sourceKind: SourceKind;
  sourceLocator: string | null;
  /** The key when the frontmatter does not override it. */
  defaultKey: (slug: string) => string;
  /** Never take over a key held by another source kind (scan-projects is non-destructive). */
  exclusive?: boolean;
}

export type StoreOutcome =
  | { status: 'created' | 'updated' | 'unchanged'; skill: Skill }
  | { status: 'conflict'; key: string; reason: string };

/**
 * Upserts one package under its canonical key. A bundled record is never overwritten by another
 * source (an imported SKILL.md naming a bundled key must not replace the server's own skill), and a
 * managed skill people edit here is not replaced by an import either: both are conflicts, reported.
 */
export async function storePackage(
  tx: DbOrTx,
  companyId: string,
  pkg: SkillPackage,
  placement: Placement,
): Promise<StoreOutcome> {
  const key =
    placement.sourceKind === 'service_bundled'
      ? placement.defaultKey(pkg.slug)
      : (pkg.keyOverride ?? placement.defaultKey(pkg.slug));
  // Two callers storing the same new key at once (two list calls re-importing the bundled skills)
  // would both miss the row and one would fail on the unique index: they take turns instead.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`company_skill:${companyId}:${key}`}, 0))`);
  const [existing] = await tx
    .select()
    .from(companySkills)
    .where(and(eq(companySkills.companyId, companyId), eq(companySkills.key, key)))
    .for('update');
  const protectedKind =
    existing &&
    (existing.sourceKind === 'service_bundled' ||
      existing.sourceKind === 'managed_local' ||
      placement.sourceKind === 'service_bundled' ||
      placement.exclusive);
  if (existing && existing.sourceKind !== placement.sourceKind && protectedKind) {
    return { status: 'conflict', key, reason: `${key} is already a ${existing.sourceKind} skill` };
  }
  if (existing?.contentHash === pkg.contentHash && existing.sourceLocator === placement.sourceLocator)
    return { status: 'unchanged', skill: existing };
  const fields = {
    slug: pkg.slug,
    name: pkg.name,
    description: pkg.description,
    required: pkg.required,
    sourceKind: placement.sourceKind,
    sourceLocator: placement.sourceLocator,
    trustLevel: pkg.trustLevel,
    metadata: pkg.metadata,
    contentHash: pkg.contentHash,
  };
  let skill: Skill;
  if (existing) {
    [skill] = (await tx
      .update(companySkills)
      .set({ ...fields, updatedAt: sql`now()` })
      .where(eq(companySkills.id, existing.id))
      .returning()) as [Skill];
    await tx.delete(companySkillFiles).where(eq(companySkillFiles.skillId, existing.id));
  } else {
    [skill] = (await tx
      .insert(companySkills)
      .values({ companyId, key, ...fields })
      .returning()) as [Skill];
  }
  await insertFiles(tx, skill, pkg.files);
  return { status: existing ? 'updated' : 'created', skill };
}

async function insertFiles(tx: DbOrTx, skill: Skill, files: SkillFile[]): Promise<void> {
  if (files.length === 0) return;
  await tx.insert(companySkillFiles).values(
    files.map((f) => ({
      skillId: skill.id,
      companyId: skill.companyId,
      path: f.path,
      kind: f.kind,
      encoding: f.encoding,
      content: f.content,
      size: f.size,
    })),
  );
}

/**
 * SPEC: bundled skills are re-imported on every list call. The content hash makes the common case
 * one locking read per bundled skill and no write.
 */
export async function ensureBundled(db: DbOrTx, companyId: string): Promise<void> {
  const packages = await bundledPackages();
  await db.transaction(async (tx) => {
    for (const pkg of packages) {
      await storePackage(tx, companyId, pkg, {
        sourceKind: 'service_bundled',
        sourceLocator: `bundled:${pkg.slug}`,
        defaultKey: (slug) => `${BUNDLED_OWNER}/${BUNDLED_REPO}/${slug}`,
      });
    }
  });
}

export async function listSkills(db: DbOrTx, companyId: string): Promise<Skill[]> {
  await ensureBundled(db, companyId);
  return db
    .select()
    .from(companySkills)
    .where(eq(companySkills.companyId, companyId))
    .orderBy(asc(companySkills.name), asc(companySkills.id))
    .limit(MAX_LISTED_SKILLS);
}

/**
 * A skill named under a company path: the company boundary first (404 missing, 403 outside the
 * caller's companies), then the skill within that company only (404), so a company path of the
 * caller's own never reaches another company's skill.
 */
export async function requireSkill(db: DbOrTx, actor: Actor, companyId: string, skillId: string): Promise<Skill> {
  const company = await requireCompanyAccess(db, actor, companyId);
  const [skill] = await db
    .select()
    .from(companySkills)
    .where(and(eq(companySkills.id, skillId), eq(companySkills.companyId, company.id)));
  if (!skill) throw notFound('skill');
  return skill;
}

export interface SkillDetail {
  skill: Skill;
  files: { path: string; kind: string; size: number; encoding: string }[];
  usage: { id: string; name: string; status: string }[];
}

export async function skillDetail(db: DbOrTx, skill: Skill): Promise<SkillDetail> {
  const files = await db
    .select({
      path: companySkillFiles.path,
      kind: companySkillFiles.kind,
      size: companySkillFiles.size,
      encoding: companySkillFiles.encoding,
    })
    .from(companySkillFiles)
    .where(eq(companySkillFiles.skillId, skill.id))
    .orderBy(asc(companySkillFiles.path));
  const usage = await db
    .select({ id: agents.id, name: agents.name, status: agents.status })
    .from(agentSkills)
    .innerJoin(agents, eq(agents.id, agentSkills.agentId))
    .where(eq(agentSkills.skillId, skill.id))
    .orderBy(asc(agents.name));
  return { skill, files, usage };
}

export async function readSkillFile(db: DbOrTx, skill: Skill, filePath: string) {
  const [file] = await db
    .select()
    .from(companySkillFiles)
    .where(and(eq(companySkillFiles.skillId, skill.id), eq(companySkillFiles.path, filePath)));
  if (!file) throw notFound('skill file');
  return file;
}

/** The SKILL.md of a new managed skill: frontmatter from the create fields and a heading. */
function managedSkillMd(name: string, slug: string | undefined, description: string | undefined): string {
  const quote = (s: string) => JSON.stringify(s);
  return [
    '---',
    `name: ${quote(name)}`,
    ...(slug ? [`slug: ${slug}`] : []),
    ...(description ? [`description: ${quote(description)}`] : []),
    '---',
    '',
    `# ${name}`,
    '',
    '',
  ].join('\n');
}

export async function createManagedSkill(
  ctx: Ctx,
  companyId: string,
  input: { name: string; slug?: string | undefined; description?: string | undefined },
): Promise<Skill> {
  await assertMayManageSkills(ctx, 'skill.create', companyId);
  const pkg = buildPackage(
    [fileFromBytes('SKILL.md', Buffer.from(managedSkillMd(input.name, input.slug, input.description)))],
    input.name,
  );
  return inTransaction(ctx, async (tx) => {
    const outcome = await storePackage(tx, companyId, pkg, {
      sourceKind: 'managed_local',
      sourceLocator: null,
      defaultKey: (slug) => `company/${companyId}/${slug}`,
    });
    if (outcome.status !== 'created')
      throw conflict(`a skill with key company/${companyId}/${pkg.slug} already exists`);
    await recordActivity(tx, ctx.actor, {
      companyId,
      action: 'company.skill_created',
      entityType: 'skill',
      entityId: outcome.skill.id,
      details: { key: outcome.skill.key },
    });
    return outcome.skill;
  });
}

/**
 * Writes one file of an editable skill (a new path adds it). A new SKILL.md is parsed again: name,
 * description, required and metadata follow it; the slug and key stay (they are the skill's identity,
 * and agents reference it by them).
 */
export async function updateSkillFile(ctx: Ctx, skill: Skill, filePath: string, content: string): Promise<Skill> {
  await assertMayManageSkills(ctx, 'skill.updateFile', skill.companyId);
  if (!isEditable(skill)) throw forbidden('bundled skills cannot be edited');
  return inTransaction(ctx, async (tx) => {
    const current = await tx.select().from(companySkillFiles).where(eq(companySkillFiles.skillId, skill.id));
    const file = fileFromBytes(filePath, Buffer.from(content, 'utf8'));
    if (file.size > MAX_SKILL_FILE_BYTES)
      throw unprocessable(`a skill file holds at most ${MAX_SKILL_FILE_BYTES} bytes`);
    const files: SkillFile[] = current
      .filter((f) => f.path !== filePath)
      .map((f) => ({
        path: f.path,
        kind: classify(f.path),
        encoding: f.encoding as SkillFile['encoding'],
        content: f.content,
        size: f.size,
      }));
    files.push(file);
    if (files.length > MAX_SKILL_FILES) throw unprocessable(`a skill holds at most ${MAX_SKILL_FILES} files`);
    if (files.reduce((n, f) => n + f.size, 0) > MAX_SKILL_BYTES)
      throw unprocessable(`a skill holds at most ${MAX_SKILL_BYTES} bytes`);
    const pkg = buildPackage(files, skill.slug);
    await tx
      .insert(companySkillFiles)
      .values({
        skillId: skill.id,
        companyId: skill.companyId,
        path: file.path,
        kind: file.kind,
        encoding: file.encoding,
        content: file.content,
        size: file.size,
      })
      .onConflictDoUpdate({
        target: [companySkillFiles.skillId, companySkillFiles.path],
        set: { kind: file.kind, encoding: file.encoding, content: file.content, size: file.size },
      });
    const [updated] = await tx
      .update(companySkills)
      .set({
        name: pkg.name,
        description: pkg.description,
        required: pkg.required,
        metadata: pkg.metadata,
        trustLevel: pkg.trustLevel,
        contentHash: pkg.contentHash,
        updatedAt: sql`now()`,
      })
      .where(eq(companySkills.id, skill.id))
      .returning();
    if (!updated) throw notFound('skill'); // deleted since it was read
    await recordActivity(tx, ctx.actor, {
      companyId: skill.companyId,
      action: 'company.skill_file_updated',
      entityType: 'skill',
      entityId: skill.id,
      details: { key: skill.key, path: filePath, size: file.size },
    });
    return updated;
  });
}

export async function deleteSkill(ctx: Ctx, skill: Skill): Promise<void> {
  await assertMayManageSkills(ctx, 'skill.delete', skill.companyId);
  if (!isEditable(skill)) throw forbidden('bundled skills cannot be deleted');
  await inTransaction(ctx, async (tx) => {
    await tx.delete(companySkills).where(eq(companySkills.id, skill.id));
    await recordActivity(tx, ctx.actor, {
      companyId: skill.companyId,
      action: 'company.skill_deleted',
      entityType: 'skill',
      entityId: skill.id,
      details: { key: skill.key },
    });
  });
}
