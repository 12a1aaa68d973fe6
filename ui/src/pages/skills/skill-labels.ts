// Words and small reads shared by the skills library and the skill page.
import type { Skill } from '../../queries/skills';

export const SOURCE_LABELS: Record<Skill['sourceKind'], string> = {
  service_bundled: 'Bundled',
  codehost: 'GitHub',
  catalog: 'Catalog',
  url: 'URL',
  local_path: 'Local folder',
  project_scan: 'Project workspace',
  managed_local: 'Managed here',
};

export const TRUST_LABELS: Record<Skill['trustLevel'], string> = {
  markdown_only: 'Markdown only',
  assets: 'Has assets',
  scripts_executables: 'Has scripts',
};

export const trustBadge = (trust: Skill['trustLevel']) =>
  trust === 'scripts_executables' ? 'badge-warning' : trust === 'assets' ? 'badge-accent' : '';

/** The commit a code-host or catalog skill is pinned to (metadata.sources[0].commit), if any. */
export function pinnedCommit(skill: Pick<Skill, 'metadata'>): string | null {
  const sources = skill.metadata?.sources;
  const commit = Array.isArray(sources) ? (sources[0] as { commit?: unknown } | undefined)?.commit : undefined;
  return typeof commit === 'string' ? commit : null;
}

export const shortCommit = (commit: string) => commit.slice(0, 7);

/** Skills pinned to a commit, the only ones update-status can answer for. */
export const isTracked = (sourceKind: string) => sourceKind === 'codehost' || sourceKind === 'catalog';
