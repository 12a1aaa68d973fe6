// What a skill is before it is stored: its files, classified (SPEC "Company skill": inventory and
// trust level), its parsed SKILL.md, and the slug and canonical key derived from them. Pure apart
// from reading a folder; the service decides where it goes.
import { createHash } from 'node:crypto';
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { unprocessable } from '../../core/errors.ts';
import { slugify } from '../../lib/ids.ts';
import { FrontmatterError, splitFrontmatter, type Frontmatter, type FrontmatterValue } from './frontmatter.ts';

/** Bounds of one skill (docs/skills.md): a skill is instructions plus a few helpers, not a repository. */
export const MAX_SKILL_FILES = 200;
export const MAX_SKILL_FILE_BYTES = 256 * 1024;
export const MAX_SKILL_BYTES = 4 * 1024 * 1024;
export const MAX_SKILL_PATH_CHARS = 512;
const MAX_WALK_DEPTH = 6;
const MAX_VISITED_FOLDERS = 5000;

export const FILE_KINDS = ['skill', 'reference', 'script', 'asset', 'other'] as const;
export type FileKind = (typeof FILE_KINDS)[number];
export const TRUST_LEVELS = ['markdown_only', 'assets', 'scripts_executables'] as const;
export type TrustLevel = (typeof TRUST_LEVELS)[number];
export const SOURCE_KINDS = [
  'service_bundled',
  'codehost',
  'catalog',
  'url',
  'local_path',
  'project_scan',
  'managed_local',
] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

export interface SkillFile {
  path: string;
  kind: FileKind;
  encoding: 'utf8' | 'base64';
  content: string;
  size: number;
}

export interface SkillPackage {
  slug: string;
  name: string;
  description: string | null;
  required: boolean;
  /** The frontmatter's key override (key, skillKey, metadata.skillKey/canonicalKey, metadata.*.skillKey/key). */
  keyOverride: string | null;
  metadata: Record<string, unknown> | null;
  files: SkillFile[];
  trustLevel: TrustLevel;
  contentHash: string;
}

const SCRIPT_EXTENSIONS = new Set([
  '.sh',
  '.bash',
  '.zsh',
  '.py',
  '.js',
  '.mjs',
  '.cjs',
  '.ts',
  '.rb',
  '.pl',
  '.ps1',
  '.bat',
  '.cmd',
  '.exe',
  '.bin',
]);
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const KEY = /^[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+){0,5}$/;

/** SPEC: references/ reference, scripts/ script, assets/ asset; SKILL.md itself; anything else other. */
export function classify(filePath: string): FileKind {
  if (filePath === 'SKILL.md') return 'skill';
  const top = filePath.split('/')[0];
  if (top === 'references') return 'reference';
  if (top === 'scripts') return 'script';
  if (top === 'assets') return 'asset';
  return 'other';
}

/**
 * The highest class present: markdown_only < assets < scripts_executables. A file outside the three
 * folders counts by what it is (a `.py` beside SKILL.md runs just as well as one under scripts/).
 */
export function trustLevelOf(files: Pick<SkillFile, 'path' | 'kind'>[]): TrustLevel {
  let level: TrustLevel = 'markdown_only';
  for (const f of files) {
    const ext = path.posix.extname(f.path).toLowerCase();
    if (f.kind === 'script' || SCRIPT_EXTENSIONS.has(ext)) return 'scripts_executables';
    if (f.kind === 'asset' || (f.kind === 'other' && ext !== '.md' && ext !== '.markdown' && ext !== '.txt'))
      level = 'assets';
  }
  return level;
}

/** A relative path inside a skill: no absolute paths, no `..`, no backslashes or NULs (400 at the edge). */
export function isSafeSkillPath(p: string): boolean {
  if (p.length === 0 || p.length > MAX_SKILL_PATH_CHARS || p.startsWith('/') || p.includes('\\') || p.includes('\0'))
    return false;
  return p.split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..');
}

export function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}

function hashFiles(files: SkillFile[]): string {
  const h = createHash('sha256');
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : 1)))
    h.update(`${f.path}\0${f.encoding}\0${f.content}\0`);
  return h.digest('hex');
}

const str = (v: FrontmatterValue | undefined): string | null =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
const obj = (v: FrontmatterValue | undefined): Record<string, FrontmatterValue> | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? v : null;

function keyOverrideOf(fm: Frontmatter): string | null {
  const meta = obj(fm.metadata);
  const nested = meta
    ? Object.values(meta)
        .map(obj)
        .find((o) => o && (str(o.skillKey) || str(o.key)))
    : null;
  const candidate =
    str(fm.key) ??
    str(fm.skillKey) ??
    (meta && (str(meta.skillKey) ?? str(meta.canonicalKey))) ??
    (nested && (str(nested.skillKey) ?? str(nested.key))) ??
    null;
  if (candidate !== null && !KEY.test(candidate))
    throw unprocessable(
      `skill key override "${candidate.slice(0, 100)}" is not a path of up to 6 segments of letters, digits, dot, dash or underscore`,
    );
  return candidate;
}

/** Builds a package from files already read; `fallbackName` is the folder (or URL file) name. */
export function buildPackage(files: SkillFile[], fallbackName: string): SkillPackage {
  const skillMd = files.find((f) => f.path === 'SKILL.md');
  if (!skillMd || skillMd.encoding !== 'utf8') throw unprocessable('a skill needs a SKILL.md text file at its root');
  let frontmatter: Frontmatter;
  try {
    frontmatter = splitFrontmatter(skillMd.content).frontmatter;
  } catch (err) {
    if (err instanceof FrontmatterError) throw unprocessable(`SKILL.md frontmatter: ${err.message}`);
    throw err;
  }
  const explicitSlug = str(frontmatter.slug);
  if (explicitSlug !== null && !SLUG.test(explicitSlug))
    throw unprocessable(`slug "${explicitSlug.slice(0, 100)}" is not kebab-case`);
  const name = str(frontmatter.name);
  const finalSlug = explicitSlug ?? slugify(name ?? '', slugify(fallbackName, ''));
  if (!finalSlug) throw unprocessable('the skill has no name, slug or usable folder name to derive a slug from');
  if (frontmatter.required !== undefined && typeof frontmatter.required !== 'boolean')
    throw unprocessable('frontmatter `required` must be true or false');
  return {
    slug: finalSlug,
    name: (name ?? finalSlug).slice(0, 200),
    description: str(frontmatter.description)?.slice(0, 2000) ?? null,
    required: frontmatter.required === true,
    keyOverride: keyOverrideOf(frontmatter),
    metadata: obj(frontmatter.metadata),
    files,
    trustLevel: trustLevelOf(files),
    contentHash: hashFiles(files),
  };
}

/** One file's stored form: text as is when it is valid UTF-8, else base64. */
export function fileFromBytes(relPath: string, bytes: Buffer): SkillFile {
  const text = bytes.toString('utf8');
  const isText = Buffer.from(text, 'utf8').equals(bytes) && !text.includes('\0');
  return {
    path: relPath,
    kind: classify(relPath),
    encoding: isText ? 'utf8' : 'base64',
    content: isText ? text : bytes.toString('base64'),
    size: bytes.length,
  };
}

/**
 * Reads one skill folder (SKILL.md at its root). `subfoldersOnly`: SKILL.md sits at a project root,
 * so only references/, scripts/ and assets/ are walked (SPEC), not the whole project. Symlinks are
 * skipped (an import must not reach outside the folder it names); hidden entries and node_modules too.
 */
export async function readSkillFolder(dir: string, opts: { subfoldersOnly?: boolean } = {}): Promise<SkillPackage> {
  const files: SkillFile[] = [];
  let total = 0;
  const add = async (abs: string, rel: string) => {
    const info = await lstat(abs);
    if (!info.isFile()) return;
    if (info.size > MAX_SKILL_FILE_BYTES) throw unprocessable(`${rel}: larger than ${MAX_SKILL_FILE_BYTES} bytes`);
    if (files.length >= MAX_SKILL_FILES) throw unprocessable(`more than ${MAX_SKILL_FILES} files in the skill`);
    total += info.size;
    if (total > MAX_SKILL_BYTES) throw unprocessable(`the skill is larger than ${MAX_SKILL_BYTES} bytes`);
    files.push(fileFromBytes(rel, await readFile(abs)));
  };
  const walk = async (absDir: string, relDir: string, depth: number): Promise<void> => {
    if (depth > MAX_WALK_DEPTH) return;
    const entries = (await readdir(absDir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const rel = relDir ? `${relDir}/${entry.name}` : entry.name;
      if (!isSafeSkillPath(rel)) continue;
      if (
        depth === 0 &&
        opts.subfoldersOnly &&
        !(entry.isDirectory() && ['references', 'scripts', 'assets'].includes(entry.name)) &&
        entry.name !== 'SKILL.md'
      )
        continue;
      if (entry.isDirectory()) await walk(path.join(absDir, entry.name), rel, depth + 1);
      else if (entry.isFile()) await add(path.join(absDir, entry.name), rel);
    }
  };
  await walk(dir, '', 0);
  return buildPackage(files, path.basename(dir));
}

/** Folders under `root` (itself included) that hold a SKILL.md, bounded in depth and count. */
export async function findSkillFolders(root: string, maxSkills: number): Promise<string[]> {
  const found: string[] = [];
  // A folder named by mistake (a home directory, `/`) must not turn into a walk of the whole disk.
  let budget = MAX_VISITED_FOLDERS;
  const visit = async (dir: string, depth: number): Promise<void> => {
    if (found.length >= maxSkills || depth > 4 || budget-- <= 0) return;
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    if (entries.some((e) => e.isFile() && e.name === 'SKILL.md')) {
      found.push(dir);
      return; // a skill's own subfolders are its references, not more skills
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules')
        await visit(path.join(dir, e.name), depth + 1);
    }
  };
  await visit(root, 0);
  return found;
}
