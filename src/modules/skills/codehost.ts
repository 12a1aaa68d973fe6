// Skills from a code host (GitHub's REST API shape) and from the skills catalog site, which names
// code-host skills. Source forms (docs/skills.md):
//   owner/repo                                     every skill of the default branch
//   owner/repo/skill                               one skill, by folder name or slug
//   https://<host>/owner/repo                      as owner/repo
//   https://<host>/owner/repo/tree/<ref>/<path>    the skills at or under <path> of <ref> (one-segment ref)
//   https://<host>/owner/repo/blob/<ref>/<path>/SKILL.md   the one skill of that folder
//   <catalog>/owner/repo[/skill]                   catalog site URL (sourceKind catalog)
//   npx skills add <owner/repo | repository URL> [--skill <skill>]   the catalog's install command
// A ref resolves to a commit; the files are read from that commit, and the skill records the pin
// (metadata.sources[0]) so update-status and install-update can compare it with the ref's tip.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { unprocessable } from '../../core/errors.ts';
import type { CodeHostConfig } from '../../core/config.ts';
import { download } from './download.ts';
import {
  buildPackage,
  fileFromBytes,
  isSafeSkillPath,
  MAX_SKILL_BYTES,
  MAX_SKILL_FILE_BYTES,
  MAX_SKILL_FILES,
  type SkillPackage,
} from './package.ts';

/** Every call to the code host: bounded in time; API answers in bytes (a recursive tree is the big one). */
export const CODEHOST_TIMEOUT_MS = 10_000;
const MAX_API_BYTES = 8 * 1024 * 1024;
const NAME = /^[A-Za-z0-9_.-]{1,100}$/;
const SHA = /^[0-9a-f]{40}$/;

export interface CodeHostLocator {
  owner: string;
  repo: string;
  /** A branch, tag or commit; the default branch when absent. */
  ref?: string;
  /** A folder of the repository (tree URL) or a SKILL.md file (blob URL). */
  path?: string;
  file?: boolean;
  /** owner/repo/skill and --skill: one skill by folder name or slug. */
  skill?: string;
}

export interface ParsedCodeHostSource {
  kind: 'codehost' | 'catalog';
  locator: CodeHostLocator;
}

export interface SourcePin {
  kind: 'github-dir' | 'github-file';
  repo: string;
  path: string;
  commit: string;
  trackingRef: string;
  hostname: string;
}

export interface CodeHostSkill {
  pkg: SkillPackage;
  pin: SourcePin;
}

const names = (...parts: (string | undefined)[]) => parts.every((p) => p === undefined || NAME.test(p));

function shorthand(text: string): CodeHostLocator | null {
  const [owner, repo, skill, ...extra] = text.replace(/\.git$/, '').split('/');
  if (!owner || !repo || extra.length > 0 || !names(owner, repo, skill)) return null;
  if ([owner, repo, skill].some((p) => p === '.' || p === '..')) return null;
  return { owner, repo, ...(skill && { skill }) };
}

function repositoryUrl(url: URL): CodeHostLocator | null {
  if (!['github.com', 'www.github.com'].includes(url.hostname.toLowerCase())) return null;
  const [owner, rawRepo, mode, ref, ...rest] = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const repo = rawRepo?.replace(/\.git$/, '');
  if (!owner || !repo || !names(owner, repo)) return null;
  if (mode === undefined) return { owner, repo };
  if ((mode !== 'tree' && mode !== 'blob') || !ref)
    throw unprocessable(
      'a repository URL is https://<host>/owner/repo, or a /tree/<ref>/<path> or /blob/<ref>/<path>/SKILL.md URL',
    );
  const sub = rest.join('/');
  if (sub && !isSafeSkillPath(sub)) throw unprocessable('the path in the repository URL is not a plain relative path');
  if (mode === 'blob' && path.posix.basename(sub) !== 'SKILL.md')
    throw unprocessable('a /blob/ URL must name a SKILL.md file');
  return { owner, repo, ref, ...(sub && { path: sub }), ...(mode === 'blob' && { file: true }) };
}

function catalogUrl(url: URL, catalog: string): CodeHostLocator | null {
  const base = new URL(catalog);
  if (url.origin !== base.origin) return null;
  const rel = url.pathname.slice(base.pathname.replace(/\/$/, '').length).replace(/^\/+|\/+$/g, '');
  const found = shorthand(decodeURIComponent(rel));
  if (!found) throw unprocessable('a catalog URL is <catalog>/owner/repo or <catalog>/owner/repo/skill');
  return found;
}

/** `npx [-y] skills[@v] add <repo> [--skill <name>]`: the catalog's install command. */
function installCommand(text: string): CodeHostLocator | null {
  const words = text.split(/\s+/);
  let i = words[0] === 'npx' ? 1 : 0;
  while (words[i]?.startsWith('-')) i++;
  if (!/^skills(@\S+)?$/.test(words[i] ?? '') || words[i + 1] !== 'add') return null;
  const args = words.slice(i + 2)[Symbol.iterator]();
  let target: string | undefined;
  let skill: string | undefined;
  for (const a of args) {
    // The flag's value is the next word.
    if (a === '--skill' || a === '-s') skill = args.next().value;
    else if (a.startsWith('--skill=')) skill = a.slice('--skill='.length);
    else if (!a.startsWith('-') && target === undefined) target = a;
  }
  const repo =
    target === undefined ? null : /^https?:\/\//i.test(target) ? repositoryUrl(safeUrl(target)) : shorthand(target);
  if (!repo || (skill !== undefined && !NAME.test(skill)))
    throw unprocessable('the install command names no repository (`npx skills add <owner/repo> [--skill <skill>]`)');
  return { ...repo, ...(skill && { skill }) };
}

function safeUrl(text: string): URL {
  try {
    return new URL(text);
  } catch {
    throw unprocessable('the source is not a valid URL');
  }
}

/** The code-host or catalog reading of a source; null when it is none of those forms. */
export function parseCodeHostSource(source: string, config: CodeHostConfig): ParsedCodeHostSource | null {
  if (/^(npx\s|skills(@\S+)?\s)/.test(source)) {
    const locator = installCommand(source);
    return locator && { kind: 'catalog', locator };
  }
  if (/^https?:\/\//i.test(source)) {
    const url = safeUrl(source);
    const fromCatalog = catalogUrl(url, config.catalogUrl);
    if (fromCatalog) return { kind: 'catalog', locator: fromCatalog };
    const locator = repositoryUrl(url);
    return locator && { kind: 'codehost', locator };
  }
  if (source.startsWith('/')) return null;
  const locator = shorthand(source);
  return locator && { kind: 'codehost', locator };
}

interface TreeEntry {
  path: string;
  type: string;
  size?: number;
}

export class CodeHostClient {
  constructor(private readonly config: CodeHostConfig) {}

  private async api(route: string): Promise<unknown> {
    const headers: Record<string, string> = { accept: 'application/vnd.github+json', 'user-agent': 'boardroom' };
    if (this.config.token) headers.authorization = `Bearer ${this.config.token}`;
    const bytes = await download(`${this.config.apiUrl}${route}`, {
      timeoutMs: CODEHOST_TIMEOUT_MS,
      maxBytes: MAX_API_BYTES,
      headers,
      label: 'code host',
    });
    try {
      return JSON.parse(bytes.toString('utf8'));
    } catch {
      throw unprocessable(`code host answered ${route.split('?')[0]} with something other than JSON`);
    }
  }

  private repoRoute(owner: string, repo: string): string {
    return `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
  }

  async defaultBranch(owner: string, repo: string): Promise<string> {
    const info = (await this.api(this.repoRoute(owner, repo))) as { default_branch?: unknown };
    if (typeof info?.default_branch !== 'string' || !info.default_branch)
      throw unprocessable('code host: the repository has no default branch');
    return info.default_branch;
  }

  /** The commit a branch, tag or sha names now. */
  async resolveCommit(owner: string, repo: string, ref: string): Promise<string> {
    const commit = (await this.api(`${this.repoRoute(owner, repo)}/commits/${encodeURIComponent(ref)}`)) as {
      sha?: unknown;
    };
    if (typeof commit?.sha !== 'string' || !SHA.test(commit.sha))
      throw unprocessable(`code host: ${ref} resolves to no commit`);
    return commit.sha;
  }

  private async tree(owner: string, repo: string, commit: string): Promise<{ blobs: TreeEntry[]; truncated: boolean }> {
    const tree = (await this.api(`${this.repoRoute(owner, repo)}/git/trees/${commit}?recursive=1`)) as {
      tree?: unknown;
      truncated?: unknown;
    };
    if (!Array.isArray(tree?.tree)) throw unprocessable('code host: the repository tree could not be read');
    return {
      blobs: (tree.tree as TreeEntry[]).filter((e) => e && typeof e.path === 'string' && e.type === 'blob'),
      truncated: tree.truncated === true,
    };
  }

  private raw(owner: string, repo: string, commit: string, filePath: string): Promise<Buffer> {
    const url = `${this.config.rawUrl}/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/${commit}/${filePath.split('/').map(encodeURIComponent).join('/')}`;
    return download(url, {
      timeoutMs: CODEHOST_TIMEOUT_MS,
      maxBytes: MAX_SKILL_FILE_BYTES,
      label: `code host file ${filePath}`,
      ...(this.config.token && { headers: { authorization: `Bearer ${this.config.token}` } }),
    });
  }

  /**
   * The skills a locator names, read at one commit. At most `maxSkills` (the rest are warned about).
   * Without a path: a SKILL.md at the root and every skill under `skills/`; when neither exists,
   * every skill in the repository.
   */
  async fetchSkills(
    loc: CodeHostLocator,
    maxSkills: number,
  ): Promise<{ skills: CodeHostSkill[]; commit: string; trackingRef: string; warnings: string[] }> {
    const trackingRef = loc.ref ?? (await this.defaultBranch(loc.owner, loc.repo));
    const commit = await this.resolveCommit(loc.owner, loc.repo, trackingRef);
    const { blobs, truncated } = await this.tree(loc.owner, loc.repo, commit);
    const skillDirs = blobs
      .filter((b) => path.posix.basename(b.path) === 'SKILL.md' && isSafeSkillPath(b.path))
      .map((b) => path.posix.dirname(b.path).replace(/^\.$/, ''));
    const under = (dir: string, base: string) => base === '' || dir === base || dir.startsWith(`${base}/`);
    let dirs: string[];
    const at = loc.path;
    // A /blob/ locator (file) always names its SKILL.md's path.
    if (loc.file && at !== undefined)
      dirs = [path.posix.dirname(at).replace(/^\.$/, '')].filter((d) => skillDirs.includes(d));
    else if (at !== undefined) dirs = skillDirs.filter((d) => under(d, at));
    else {
      dirs = skillDirs.filter((d) => d === '' || under(d, 'skills'));
      if (dirs.length === 0) dirs = skillDirs;
    }
    // A skill's own subfolders are its references, not more skills.
    // Shallowest first, each checked against the kept ones by its ancestors: linear in the tree, not quadratic.
    const kept = new Set<string>();
    for (const d of [...dirs].sort((x, y) => x.split('/').length - y.split('/').length)) {
      const parts = d.split('/');
      if (!parts.some((_, i) => i > 0 && kept.has(parts.slice(0, i).join('/')))) kept.add(d);
    }
    dirs = [...kept].sort();
    if (loc.skill !== undefined) {
      const byFolder = dirs.filter((d) => path.posix.basename(d) === loc.skill);
      if (byFolder.length > 0) dirs = byFolder.slice(0, 1);
    }
    if (dirs.length === 0)
      throw unprocessable(
        `no SKILL.md found in ${loc.owner}/${loc.repo}${loc.path ? `/${loc.path}` : ''} at ${trackingRef}`,
      );
    const warnings =
      dirs.length > maxSkills ? [`more than ${maxSkills} skills found: only the first ${maxSkills} were imported`] : [];
    // The host lists a very large repository only in part: say so rather than pretend it was all seen.
    if (truncated)
      warnings.push(
        'the code host listed the repository tree only in part: some skills or files may be missing; name a tree URL of the skills folder',
      );
    const skills: CodeHostSkill[] = [];
    for (const dir of dirs.slice(0, maxSkills)) {
      try {
        const pkg = await this.readSkill(loc, commit, dir, blobs);
        skills.push({
          pkg,
          pin: {
            kind: loc.file ? 'github-file' : 'github-dir',
            repo: `${loc.owner}/${loc.repo}`,
            path: loc.file ? `${dir ? `${dir}/` : ''}SKILL.md` : dir,
            commit,
            trackingRef,
            hostname: 'github.com',
          },
        });
      } catch (err) {
        if (dirs.length === 1) throw err;
        warnings.push(`skipped ${dir || '.'}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    const chosen =
      loc.skill === undefined
        ? skills
        : skills.filter((s) => s.pkg.slug === loc.skill || path.posix.basename(s.pin.path) === loc.skill);
    if (chosen.length === 0) throw unprocessable(`no skill ${loc.skill} in ${loc.owner}/${loc.repo} at ${trackingRef}`);
    return { skills: loc.skill !== undefined ? chosen.slice(0, 1) : chosen, commit, trackingRef, warnings };
  }

  /** One skill folder at a commit, bounded as a local folder is; the root skill takes only its three subfolders. */
  private async readSkill(
    loc: CodeHostLocator,
    commit: string,
    dir: string,
    blobs: TreeEntry[],
  ): Promise<SkillPackage> {
    const prefix = dir ? `${dir}/` : '';
    const entries = blobs
      .filter((b) => b.path.startsWith(prefix))
      .map((b) => ({ ...b, rel: b.path.slice(prefix.length) }))
      .filter(
        (b) => isSafeSkillPath(b.rel) && !b.rel.split('/').some((seg) => seg.startsWith('.') || seg === 'node_modules'),
      )
      .filter((b) => {
        const [top] = b.rel.split('/');
        return (
          dir !== '' || b.rel === 'SKILL.md' || (top !== undefined && ['references', 'scripts', 'assets'].includes(top))
        );
      });
    if (entries.length > MAX_SKILL_FILES) throw unprocessable(`more than ${MAX_SKILL_FILES} files in the skill`);
    let total = 0;
    for (const e of entries) {
      if ((e.size ?? 0) > MAX_SKILL_FILE_BYTES)
        throw unprocessable(`${e.rel}: larger than ${MAX_SKILL_FILE_BYTES} bytes`);
      total += e.size ?? 0;
    }
    if (total > MAX_SKILL_BYTES) throw unprocessable(`the skill is larger than ${MAX_SKILL_BYTES} bytes`);
    const files = [];
    let read = 0;
    for (const e of entries) {
      const bytes = await this.raw(loc.owner, loc.repo, commit, e.path);
      // The tree's sizes were checked; the bytes served are what count.
      read += bytes.length;
      if (read > MAX_SKILL_BYTES) throw unprocessable(`the skill is larger than ${MAX_SKILL_BYTES} bytes`);
      files.push(fileFromBytes(e.rel, bytes));
    }
    return buildPackage(files, path.posix.basename(dir) || loc.repo);
  }
}

/**
 * The package as stored: the pin joins the frontmatter metadata (sources[], sourceKind, and the
 * caller's original locator for catalog forms), and the content hash covers the commit, so moving
 * the pin is a change even when the files are the same.
 */
export function pinnedPackage(skill: CodeHostSkill, kind: 'codehost' | 'catalog', locator: string): SkillPackage {
  const metadata = {
    ...(skill.pkg.metadata ?? {}),
    sourceKind: kind,
    sources: [skill.pin],
    ...(kind === 'catalog' && { catalogLocator: locator }),
  };
  const contentHash = createHash('sha256').update(`${skill.pkg.contentHash}\0${skill.pin.commit}`).digest('hex');
  return { ...skill.pkg, metadata, contentHash };
}

/** The pin recorded on a code-host or catalog skill, or null (a local, URL or bundled skill has none). */
export function pinOf(metadata: Record<string, unknown> | null): SourcePin | null {
  const first = Array.isArray(metadata?.sources) ? (metadata.sources[0] as Partial<SourcePin> | undefined) : undefined;
  if (!first || (first.kind !== 'github-dir' && first.kind !== 'github-file')) return null;
  if (
    typeof first.repo !== 'string' ||
    typeof first.commit !== 'string' ||
    typeof first.trackingRef !== 'string' ||
    typeof first.path !== 'string'
  )
    return null;
  return first as SourcePin;
}
