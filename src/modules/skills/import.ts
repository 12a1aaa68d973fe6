// POST /skills/import: a `source` string resolved to packages (a code-host or catalog form, see
// codehost.ts; a local SKILL.md, a folder with one, a folder with many; or a direct URL to a
// SKILL.md), then stored in one transaction with the activity entry `company.skills_imported` and
// the local telemetry event `skill_imported`. All network and disk reads happen before BEGIN.
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { inTransaction, type Ctx } from '../../core/context.ts';
import { conflict, unprocessable } from '../../core/errors.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Actor } from '../../core/actor.ts';
import type { CodeHostConfig } from '../../core/config.ts';
import { recordActivity } from '../activity/record.ts';
import { recordTelemetry } from '../telemetry/record.ts';
import { CodeHostClient, parseCodeHostSource, pinnedPackage, type CodeHostLocator } from './codehost.ts';
import { download } from './download.ts';
import {
  buildPackage,
  fileFromBytes,
  findSkillFolders,
  MAX_SKILL_FILE_BYTES,
  readSkillFolder,
  shortHash,
  type SkillPackage,
  type SourceKind,
} from './package.ts';
import { slugify } from '../../lib/ids.ts';
import { storePackage, type Skill } from './service.ts';
import { assertMayManageSkills } from './policy.ts';

/** A folder with many skills imports at most this many at once. */
export const MAX_IMPORTED_SKILLS = 100;
/** A direct URL download: bounded in time and size (a SKILL.md is one text file). */
export const URL_TIMEOUT_MS = 10_000;
export const MAX_URL_BYTES = MAX_SKILL_FILE_BYTES;

export interface ResolvedSource {
  kind: SourceKind;
  locator: string;
  /** A direct URL's host; a local path's absolute form. */
  host?: string;
  path?: string;
  /** Code-host and catalog forms: the repository, the ref followed and the commit read. */
  repo?: string;
  trackingRef?: string;
  commit?: string;
}

export interface ImportResult {
  imported: { skill: Skill; status: 'created' | 'updated' | 'unchanged' }[];
  warnings: string[];
  source: ResolvedSource;
}

export interface Resolved {
  source: ResolvedSource;
  packages: { pkg: SkillPackage; defaultKey: (slug: string) => string }[];
  warnings: string[];
}

export interface ImportOptions {
  codeHost: CodeHostConfig;
  urlTimeoutMs?: number;
}

export async function importSkills(
  ctx: Ctx,
  companyId: string,
  rawSource: string,
  opts: ImportOptions,
): Promise<ImportResult> {
  await assertMayManageSkills(ctx, 'skill.import', companyId);
  const source = rawSource.trim();
  const codeHost = parseCodeHostSource(source, opts.codeHost);
  const resolved = codeHost
    ? await resolveCodeHost(new CodeHostClient(opts.codeHost), codeHost.kind, codeHost.locator, source)
    : /^https?:\/\//i.test(source)
      ? await resolveUrl(source, opts.urlTimeoutMs ?? URL_TIMEOUT_MS)
      : await resolveLocal(source);
  return inTransaction(ctx, async (tx) => {
    const { imported, warnings } = await storeResolved(tx, ctx.actor, companyId, resolved);
    if (imported.length === 0) throw conflict('nothing was imported', { warnings });
    return { imported, warnings, source: resolved.source };
  });
}

/** Stores what a source resolved to, with its activity entry and telemetry event (one transaction, the caller's). */
export async function storeResolved(
  tx: DbOrTx,
  actor: Actor,
  companyId: string,
  resolved: Resolved,
  action = 'company.skills_imported',
): Promise<Omit<ImportResult, 'source'>> {
  const imported: ImportResult['imported'] = [];
  const warnings = [...resolved.warnings];
  for (const { pkg, defaultKey } of resolved.packages) {
    const outcome = await storePackage(tx, companyId, pkg, {
      sourceKind: resolved.source.kind,
      sourceLocator: resolved.source.locator,
      defaultKey,
    });
    if (outcome.status === 'conflict') warnings.push(`skipped ${pkg.slug}: ${outcome.reason}`);
    else imported.push(outcome);
  }
  if (imported.length === 0) return { imported, warnings };
  const skills = imported.map((i) => ({ id: i.skill.id, key: i.skill.key, status: i.status }));
  await recordActivity(tx, actor, {
    companyId,
    action,
    entityType: 'company',
    entityId: companyId,
    details: { source: resolved.source, skills, warnings },
  });
  await recordTelemetry(tx, companyId, 'skill_imported', {
    sourceKind: resolved.source.kind,
    action,
    count: imported.length,
    skills: skills.map(({ key, status }) => ({ key, status })),
    ...(resolved.source.commit && { commit: resolved.source.commit }),
  });
  return { imported, warnings };
}

/** A code-host or catalog locator read at the current commit of its ref; keys are `<owner>/<repo>/<slug>`. */
export async function resolveCodeHost(
  client: CodeHostClient,
  kind: 'codehost' | 'catalog',
  loc: CodeHostLocator,
  locator: string,
): Promise<Resolved & { source: { commit: string } }> {
  const { skills, commit, trackingRef, warnings } = await client.fetchSkills(loc, MAX_IMPORTED_SKILLS);
  const repo = `${loc.owner}/${loc.repo}`;
  return {
    source: { kind, locator, repo, trackingRef, commit },
    packages: skills.map((s) => ({
      pkg: pinnedPackage(s, kind, locator),
      defaultKey: (slug: string) => `${repo}/${slug}`,
    })),
    warnings,
  };
}

async function resolveLocal(source: string): Promise<Resolved> {
  if (!path.isAbsolute(source)) {
    throw unprocessable(
      'unsupported source: give owner/repo[/skill], a repository, tree or blob URL, a catalog URL or install command, an http(s) URL of a SKILL.md, or an absolute local path',
    );
  }
  const abs = path.resolve(source);
  const info = await lstat(abs).catch(() => null);
  if (!info) throw unprocessable(`no such file or folder: ${abs}`);
  const localKey = (dir: string) => (slug: string) => `local/${shortHash(dir)}/${slug}`;
  const source_ = { kind: 'local_path' as const, locator: abs, path: abs };
  if (info.isFile()) {
    if (path.basename(abs) !== 'SKILL.md') throw unprocessable('a local file to import must be named SKILL.md');
    const dir = path.dirname(abs);
    return {
      source: source_,
      packages: [{ pkg: await readSkillFolder(dir), defaultKey: localKey(dir) }],
      warnings: [],
    };
  }
  if (!info.isDirectory()) throw unprocessable('the local path is neither a SKILL.md nor a folder');
  const folders = await findSkillFolders(abs, MAX_IMPORTED_SKILLS + 1);
  if (folders.length === 0) throw unprocessable(`no SKILL.md found under ${abs}`);
  const warnings =
    folders.length > MAX_IMPORTED_SKILLS
      ? [`more than ${MAX_IMPORTED_SKILLS} skills found: only the first ${MAX_IMPORTED_SKILLS} were imported`]
      : [];
  const packages: Resolved['packages'] = [];
  for (const dir of folders.slice(0, MAX_IMPORTED_SKILLS)) {
    try {
      packages.push({ pkg: await readSkillFolder(dir), defaultKey: localKey(dir) });
    } catch (err) {
      // One bad skill in a folder of many is reported, not fatal; a single skill's error is the answer.
      if (folders.length === 1) throw err;
      warnings.push(`skipped ${path.relative(abs, dir) || '.'}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return { source: source_, packages, warnings };
}

async function resolveUrl(source: string, timeoutMs: number): Promise<Resolved> {
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    throw unprocessable('the source is not a valid URL');
  }
  const fileName = decodeURIComponent(url.pathname.split('/').pop() ?? '');
  if (fileName.toLowerCase() !== 'skill.md') {
    throw unprocessable(
      'an http(s) URL must be a code-host repository, tree or blob URL, a catalog URL, or a direct URL to a SKILL.md file',
    );
  }
  const bytes = await download(url, { timeoutMs, maxBytes: MAX_URL_BYTES });
  // The folder name in the URL is the slug's last fallback, as a local folder name is.
  const folder = decodeURIComponent(url.pathname.split('/').slice(-2, -1)[0] ?? '') || url.hostname;
  const pkg = buildPackage([fileFromBytes('SKILL.md', bytes)], slugify(folder, 'skill'));
  const host = url.host.toLowerCase();
  return {
    source: { kind: 'url', locator: url.toString(), host },
    packages: [{ pkg, defaultKey: (slug) => `url/${host}/${shortHash(url.toString())}/${slug}` }],
    warnings: [],
  };
}
