// POST /skills/import: a `source` string resolved to packages (a local SKILL.md, a folder with one,
// a folder with many, or a direct URL to a SKILL.md), then stored in one transaction with the
// activity entry `company.skills_imported`. Code-host (`owner/repo`, repository URLs) and catalog
// forms are refused with 422: they need a code host client this build does not have.
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { inTransaction, type Ctx } from '../../core/context.ts';
import { conflict, unprocessable } from '../../core/errors.ts';
import { recordActivity } from '../activity/record.ts';
import { buildPackage, fileFromBytes, findSkillFolders, MAX_SKILL_FILE_BYTES, readSkillFolder, shortHash, type SkillPackage, type SourceKind } from './package.ts';
import { slugify } from '../../lib/ids.ts';
import { storePackage, type Skill } from './service.ts';

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
}

export interface ImportResult {
  imported: { skill: Skill; status: 'created' | 'updated' | 'unchanged' }[];
  warnings: string[];
  source: ResolvedSource;
}

interface Resolved {
  source: ResolvedSource;
  packages: { pkg: SkillPackage; defaultKey: (slug: string) => string }[];
  warnings: string[];
}

export async function importSkills(ctx: Ctx, companyId: string, rawSource: string, opts: { urlTimeoutMs?: number } = {}): Promise<ImportResult> {
  const source = rawSource.trim();
  const resolved = /^https?:\/\//i.test(source) ? await resolveUrl(source, opts.urlTimeoutMs ?? URL_TIMEOUT_MS) : await resolveLocal(source);
  return inTransaction(ctx, async (tx) => {
    const imported: ImportResult['imported'] = [];
    const warnings = [...resolved.warnings];
    for (const { pkg, defaultKey } of resolved.packages) {
      const outcome = await storePackage(tx, companyId, pkg, { sourceKind: resolved.source.kind, sourceLocator: resolved.source.locator, defaultKey });
      if (outcome.status === 'conflict') warnings.push(`skipped ${pkg.slug}: ${outcome.reason}`);
      else imported.push(outcome);
    }
    if (imported.length === 0) throw conflict('nothing was imported', { warnings });
    await recordActivity(tx, ctx.actor, {
      companyId,
      action: 'company.skills_imported',
      entityType: 'company',
      entityId: companyId,
      details: { source: resolved.source, skills: imported.map((i) => ({ id: i.skill.id, key: i.skill.key, status: i.status })), warnings },
    });
    return { imported, warnings, source: resolved.source };
  });
}

async function resolveLocal(source: string): Promise<Resolved> {
  if (!path.isAbsolute(source)) {
    throw unprocessable('unsupported source: give an absolute local path (a SKILL.md, a folder with one or with many) or an http(s) URL of a SKILL.md; code-host (owner/repo) and catalog forms are not supported by this server');
  }
  const abs = path.resolve(source);
  const info = await lstat(abs).catch(() => null);
  if (!info) throw unprocessable(`no such file or folder: ${abs}`);
  const localKey = (dir: string) => (slug: string) => `local/${shortHash(dir)}/${slug}`;
  const source_ = { kind: 'local_path' as const, locator: abs, path: abs };
  if (info.isFile()) {
    if (path.basename(abs) !== 'SKILL.md') throw unprocessable('a local file to import must be named SKILL.md');
    const dir = path.dirname(abs);
    return { source: source_, packages: [{ pkg: await readSkillFolder(dir), defaultKey: localKey(dir) }], warnings: [] };
  }
  if (!info.isDirectory()) throw unprocessable('the local path is neither a SKILL.md nor a folder');
  const folders = await findSkillFolders(abs, MAX_IMPORTED_SKILLS + 1);
  if (folders.length === 0) throw unprocessable(`no SKILL.md found under ${abs}`);
  const warnings = folders.length > MAX_IMPORTED_SKILLS ? [`more than ${MAX_IMPORTED_SKILLS} skills found: only the first ${MAX_IMPORTED_SKILLS} were imported`] : [];
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
    throw unprocessable('only a direct URL to a SKILL.md file is supported; code-host repository URLs and catalog-site URLs are not supported by this server');
  }
  const bytes = await download(url, timeoutMs);
  // The folder name in the URL is the slug's last fallback, as a local folder name is.
  const folder = decodeURIComponent(url.pathname.split('/').slice(-2, -1)[0] ?? '') || url.hostname;
  const pkg = buildPackage([fileFromBytes('SKILL.md', bytes)], slugify(folder, 'skill'));
  const host = url.host.toLowerCase();
  return { source: { kind: 'url', locator: url.toString(), host }, packages: [{ pkg, defaultKey: (slug) => `url/${host}/${shortHash(url.toString())}/${slug}` }], warnings: [] };
}

/** GET with a deadline and a byte cap: a slow or huge answer is a 422 with the reason, never a hang. */
async function download(url: URL, timeoutMs: number): Promise<Buffer> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const res = await fetch(url, { signal: controller.signal, redirect: 'follow' });
    if (!res.ok) throw unprocessable(`download failed: HTTP ${res.status}`);
    const declared = Number(res.headers.get('content-length') ?? '0');
    if (declared > MAX_URL_BYTES) throw unprocessable(`download larger than ${MAX_URL_BYTES} bytes`);
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of res.body ?? []) {
      total += (chunk as Uint8Array).length;
      if (total > MAX_URL_BYTES) {
        controller.abort();
        throw unprocessable(`download larger than ${MAX_URL_BYTES} bytes`);
      }
      chunks.push(Buffer.from(chunk as Uint8Array));
    }
    return Buffer.concat(chunks);
  } catch (err) {
    if (err instanceof Error && 'status' in err) throw err;
    throw unprocessable(controller.signal.aborted ? `download timed out after ${timeoutMs} ms` : `download failed: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    clearTimeout(timer);
  }
}
