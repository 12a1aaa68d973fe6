// The company bundle (issue 20, docs/portability.md): a company as a tree of text files, readable and
// diffable in git. Pure: `renderBundle` turns a CompanyModel into files, `parseBundle` turns files
// back into a model. What the database holds and how a model reaches it is export.ts and import.ts.
//
// Layout under the root:
//   COMPANY.md                           frontmatter schema/name/slug/brandColor/budget; body: description
//   agents/<slug>/AGENTS.md              frontmatter: the agent's settings; body: its capabilities
//   projects/<slug>/PROJECT.md           frontmatter: goals, lead, workspaces, env; body: description
//   goals/<slug>/GOAL.md                 frontmatter: level, status, parent, owner; body: description
//   tasks/<slug>/TASK.md                 an issue (frontmatter: status, priority, refs) or, with
//                                        `recurring: true`, a routine; documents under documents/<key>.md
//   skills/<slug>/SKILL.md (+ its files)
//   images/logo.<ext>, blobs/<sha256>    bytes (base64 in the JSON form)
//   README.md                            generated, never read back
//   .boardroom.yaml                      schema version, env inputs, routine triggers, attachments, skill keys
import { stringify } from 'yaml';
import { badRequest, DomainError, unprocessable } from '../../core/errors.ts';
import { redact, REDACTED } from '../../lib/redact.ts';
import { FrontmatterError, splitFrontmatter, type Frontmatter } from '../skills/frontmatter.ts';

export const BUNDLE_SCHEMA = 'agentcompanies/v1';
const SCHEMA_PATTERN = /^agentcompanies\/v(\d+)$/;
const SUPPORTED_SCHEMA_VERSION = 1;

/** Bounds of one bundle (docs/portability.md). Beyond them: 413. */
export const BUNDLE_LIMITS = {
  maxFiles: 5000,
  /** Bytes of one file, decoded. */
  maxFileBytes: 10 * 1024 * 1024,
  /** Bytes of all files, decoded. */
  maxTotalBytes: 25 * 1024 * 1024,
  maxPathChars: 512,
} as const;
/** The JSON body of an import carries the bytes base64-encoded (4/3) plus the JSON around them. */
export const BUNDLE_BODY_LIMIT = Math.ceil((BUNDLE_LIMITS.maxTotalBytes * 4) / 3) + 4 * 1024 * 1024;

export type BundleFile = string | { encoding: 'base64'; data: string; contentType?: string | undefined };
export type BundleFiles = Record<string, BundleFile>;

export type EnvValue = string | { type: 'plain'; value: string } | { type: 'secret_ref'; secretId: string; version?: 'latest' | number };

/** A value the bundle declares but does not carry: supplied at import as `secretValues[key]`. */
export interface EnvInput {
  key: string;
  kind: 'secret';
  requirement: 'required' | 'optional';
  /** Where it is used: `agents/<slug>` or `projects/<slug>` and the env name. */
  usedBy: { path: string; env: string }[];
}

export interface SystemDependent {
  path: string;
  field: string;
  value: string;
}

export interface BlobModel {
  sha256: string;
  contentType: string;
  /** base64 */
  data: string;
}

export interface AgentModel {
  slug: string;
  name: string;
  role: string;
  title: string | null;
  capabilities: string | null;
  reportsTo: string | null;
  adapterType: string;
  adapterConfig: Record<string, unknown>;
  runtimeConfig: Record<string, unknown>;
  permissions: { canCreateAgents: boolean; canAssignTasks: boolean };
  budgetMonthlyCents: number;
  skills: string[];
}

export interface WorkspaceModel {
  name: string;
  sourceType: string;
  cwd: string | null;
  repoUrl: string | null;
  repoRef: string | null;
  defaultRef: string | null;
  isPrimary: boolean;
  setupCommand: string | null;
  cleanupCommand: string | null;
}

export interface ProjectModel {
  slug: string;
  name: string;
  description: string | null;
  status: string;
  color: string;
  targetDate: string | null;
  lead: string | null;
  goals: string[];
  env: Record<string, unknown> | null;
  workspaces: WorkspaceModel[];
}

export interface GoalModel {
  slug: string;
  title: string;
  description: string | null;
  level: string;
  status: string;
  parent: string | null;
  owner: string | null;
}

export interface DocumentModel {
  key: string;
  title: string | null;
  format: string;
  body: string;
}

export interface AttachmentModel {
  sha256: string;
  contentType: string;
  name: string | null;
}

export interface IssueModel {
  slug: string;
  title: string;
  description: string | null;
  status: string;
  priority: string;
  project: string | null;
  goal: string | null;
  parent: string | null;
  assignee: string | null;
  billingCode: string | null;
  documents: DocumentModel[];
  attachments: AttachmentModel[];
}

export interface TriggerModel {
  kind: 'schedule' | 'webhook' | 'api';
  label: string | null;
  cronExpression: string | null;
  timezone: string | null;
  signingMode: string | null;
  replayWindowSec: number | null;
}

export interface RoutineModel {
  slug: string;
  title: string;
  description: string | null;
  assignee: string | null;
  project: string | null;
  goal: string | null;
  priority: string;
  concurrencyPolicy: string;
  catchUpPolicy: string;
  variables: unknown[];
  triggers: TriggerModel[];
}

export interface SkillFileModel {
  path: string;
  encoding: 'utf8' | 'base64';
  content: string;
}

export interface SkillModel {
  slug: string;
  key: string;
  sourceKind: string;
  files: SkillFileModel[];
}

export interface CompanyInfo {
  name: string;
  slug: string;
  description: string | null;
  brandColor: string | null;
  budgetMonthlyCents: number;
  requireBoardApprovalForNewAgents: boolean;
}

export interface CompanyModel {
  company: CompanyInfo | null;
  agents: AgentModel[];
  projects: ProjectModel[];
  goals: GoalModel[];
  issues: IssueModel[];
  routines: RoutineModel[];
  skills: SkillModel[];
  logo: BlobModel | null;
  blobs: BlobModel[];
  envInputs: EnvInput[];
}

export interface Manifest {
  schema: string;
  company: { name: string; slug: string } | null;
  counts: Record<'agents' | 'projects' | 'goals' | 'issues' | 'routines' | 'skills' | 'blobs', number>;
  envInputs: EnvInput[];
  systemDependent: SystemDependent[];
}

export interface RenderedBundle {
  rootPath: string;
  files: BundleFiles;
  manifest: Manifest;
  warnings: string[];
}

/** Beyond a bundle limit (413), with the path that broke it when there is one. */
export const tooLarge = (message: string, details?: unknown) => new DomainError('payload_too_large', message, details);

// --- secrets and machine-specific values -------------------------------------------------------

const SENSITIVE_KEY = /token|secret|passw(or)?d|pwd|cookie|credential|private|api[-_]?key|access[-_]?key|(^|_)key($|_)|auth|connection|conn[-_]?str|dsn|database[-_]?url|_url$/i;
/** A URL with a password in it is a connection string whatever its key says. */
const CREDENTIAL_URL = /^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@/i;

export const looksSensitive = (key: string, value: string) => SENSITIVE_KEY.test(key) || CREDENTIAL_URL.test(value);

/** An absolute path (POSIX, Windows drive, UNC or home-relative): exists only on the machine that wrote it. */
export const isMachinePath = (value: string) => /^(\/|~\/|[A-Za-z]:[\\/]|\\\\)/.test(value);

/** An env value in the bundle that the importer must supply: `{ input: "<key>" }`. */
interface InputMarker {
  input: string;
}

/**
 * The exported form of an env map: secret references and sensitive-looking plain values become
 * declared inputs (no value); the rest is kept as written.
 */
export function exportEnv(
  env: Record<string, unknown> | null | undefined,
  owner: string,
  secretNames: Map<string, string>,
  inputs: Map<string, EnvInput>,
  warnings: string[],
  /** Every plain value is an input: for a caller who may not read configurations. */
  hidePlainValues = false,
): Record<string, unknown> | null {
  if (!env || typeof env !== 'object') return null;
  const out: Record<string, unknown> = {};
  const declare = (key: string, envName: string) => {
    const input = inputs.get(key) ?? { key, kind: 'secret' as const, requirement: 'required' as const, usedBy: [] };
    input.usedBy.push({ path: owner, env: envName });
    inputs.set(key, input);
    out[envName] = { input: key } satisfies InputMarker;
  };
  for (const [name, value] of Object.entries(env)) {
    if (value && typeof value === 'object' && (value as { type?: unknown }).type === 'secret_ref') {
      const secretId = String((value as { secretId?: unknown }).secretId);
      declare(secretNames.get(secretId) ?? name, name);
      continue;
    }
    const plain = typeof value === 'string' ? value : value && typeof value === 'object' && (value as { type?: unknown }).type === 'plain' ? String((value as { value?: unknown }).value) : null;
    if (plain !== null && (hidePlainValues || looksSensitive(name, plain))) {
      declare(name, name);
      warnings.push(`${owner}: env ${name} ${hidePlainValues ? 'is not readable by the caller' : 'looks sensitive'}; its plain value was left out and declared as input ${name}`);
      continue;
    }
    out[name] = value;
  }
  return out;
}

/**
 * An adapter configuration without its env (handled by exportEnv) and without what the project's
 * redaction (lib/redact.ts) hides: values under credential-like keys, our own credentials, and
 * secret references outside env (ids of this instance, meaningless elsewhere). Each removal is
 * named in a warning.
 */
export function exportConfig(config: Record<string, unknown>, owner: string, warnings: string[]): Record<string, unknown> {
  const walk = (original: unknown, shown: unknown, at: string): unknown => {
    if (!original || typeof original !== 'object' || Array.isArray(original)) return original;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(original as Record<string, unknown>)) {
      const view = (shown as Record<string, unknown>)[key];
      const path = at ? `${at}.${key}` : key;
      if (view === REDACTED || (value && typeof value === 'object' && (value as { type?: unknown }).type === 'secret_ref')) {
        warnings.push(`${owner}: adapterConfig.${path} looks like a credential; left out`);
        continue;
      }
      out[key] = walk(value, view, path);
    }
    return out;
  };
  return walk(config, redact(config), '') as Record<string, unknown>;
}

/** Whether an env map of the bundle names an input (for reading it back). */
const inputOf = (value: unknown): string | null =>
  value && typeof value === 'object' && !Array.isArray(value) && typeof (value as InputMarker).input === 'string' && Object.keys(value).length === 1 ? (value as InputMarker).input : null;

/**
 * The imported form of an env map: inputs become references to the secret supplied for them (by
 * `secretIds`, input key to secret id) or are dropped when none was supplied.
 */
export function importEnv(env: Record<string, unknown> | null, secretIds: Map<string, string>): Record<string, EnvValue> | null {
  if (!env) return null;
  const out: Record<string, EnvValue> = {};
  for (const [name, value] of Object.entries(env)) {
    const input = inputOf(value);
    if (input !== null) {
      const secretId = secretIds.get(input);
      if (secretId) out[name] = { type: 'secret_ref', secretId, version: 'latest' };
      continue;
    }
    out[name] = value as EnvValue;
  }
  return out;
}

/** Machine-specific values of an agent's adapter config: its command and working directory when absolute. */
function flagSystemDependent(path: string, fields: Record<string, unknown>, out: SystemDependent[]): void {
  for (const [field, value] of Object.entries(fields)) {
    if (typeof value === 'string' && isMachinePath(value)) out.push({ path, field, value });
  }
}

// --- rendering -----------------------------------------------------------------------------------

const markdown = (frontmatter: Record<string, unknown>, body: string | null) => {
  const clean = Object.fromEntries(Object.entries(frontmatter).filter(([, v]) => v !== undefined));
  return `---\n${stringify(clean, { lineWidth: 0 })}---\n\n${body ?? ''}${body && !body.endsWith('\n') ? '\n' : ''}`;
};

const LOGO_EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/jpg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif', 'image/svg+xml': 'svg' };
const blob = (b: BlobModel): BundleFile => ({ encoding: 'base64', data: b.data, contentType: b.contentType });

/** A model as bundle files. `systemDependent` collects values flagged by the caller (workspace paths). */
export function renderBundle(model: CompanyModel, opts: { warnings?: string[]; systemDependent?: SystemDependent[] } = {}): RenderedBundle {
  const files: BundleFiles = {};
  const warnings = [...(opts.warnings ?? [])];
  const systemDependent = [...(opts.systemDependent ?? [])];
  const rootPath = model.company?.slug ?? 'company';
  const c = model.company;
  if (c) {
    files['COMPANY.md'] = markdown(
      {
        schema: BUNDLE_SCHEMA,
        name: c.name,
        slug: c.slug,
        brandColor: c.brandColor ?? undefined,
        budgetMonthlyCents: c.budgetMonthlyCents || undefined,
        requireBoardApprovalForNewAgents: c.requireBoardApprovalForNewAgents || undefined,
        logo: model.logo ? `images/logo.${LOGO_EXTENSIONS[model.logo.contentType] ?? 'bin'}` : undefined,
      },
      c.description,
    );
  }
  if (model.logo) files[`images/logo.${LOGO_EXTENSIONS[model.logo.contentType] ?? 'bin'}`] = blob(model.logo);
  for (const a of model.agents) {
    const path = `agents/${a.slug}/AGENTS.md`;
    flagSystemDependent(path, { 'adapterConfig.command': a.adapterConfig.command, 'adapterConfig.cwd': a.adapterConfig.cwd }, systemDependent);
    files[path] = markdown(
      {
        name: a.name,
        slug: a.slug,
        role: a.role,
        title: a.title ?? undefined,
        reportsTo: a.reportsTo ?? undefined,
        adapter: { type: a.adapterType, config: a.adapterConfig },
        runtimeConfig: a.runtimeConfig,
        permissions: a.permissions,
        budgetMonthlyCents: a.budgetMonthlyCents || undefined,
        skills: a.skills.length > 0 ? a.skills : undefined,
      },
      // The agent's capabilities are what it is told it is for: the natural body of its file.
      a.capabilities,
    );
  }
  for (const p of model.projects) {
    const path = `projects/${p.slug}/PROJECT.md`;
    p.workspaces.forEach((w, i) => flagSystemDependent(path, { [`workspaces[${i}].setupCommand`]: w.setupCommand, [`workspaces[${i}].cleanupCommand`]: w.cleanupCommand }, systemDependent));
    files[path] = markdown(
      {
        name: p.name,
        slug: p.slug,
        status: p.status,
        color: p.color,
        targetDate: p.targetDate ?? undefined,
        lead: p.lead ?? undefined,
        goals: p.goals.length > 0 ? p.goals : undefined,
        env: p.env ?? undefined,
        workspaces: p.workspaces.length > 0 ? p.workspaces : undefined,
      },
      p.description,
    );
  }
  for (const g of model.goals) {
    files[`goals/${g.slug}/GOAL.md`] = markdown({ title: g.title, slug: g.slug, level: g.level, status: g.status, parent: g.parent ?? undefined, owner: g.owner ?? undefined }, g.description);
  }
  for (const i of model.issues) {
    files[`tasks/${i.slug}/TASK.md`] = markdown(
      {
        title: i.title,
        slug: i.slug,
        status: i.status,
        priority: i.priority,
        project: i.project ?? undefined,
        goal: i.goal ?? undefined,
        parent: i.parent ?? undefined,
        assignee: i.assignee ?? undefined,
        billingCode: i.billingCode ?? undefined,
      },
      i.description,
    );
    for (const d of i.documents) files[`tasks/${i.slug}/documents/${d.key}.md`] = markdown({ key: d.key, title: d.title ?? undefined, format: d.format }, d.body);
  }
  for (const r of model.routines) {
    files[`tasks/${r.slug}/TASK.md`] = markdown(
      {
        title: r.title,
        slug: r.slug,
        recurring: true,
        assignee: r.assignee ?? undefined,
        project: r.project ?? undefined,
        goal: r.goal ?? undefined,
        priority: r.priority,
        concurrencyPolicy: r.concurrencyPolicy,
        catchUpPolicy: r.catchUpPolicy,
        variables: r.variables.length > 0 ? r.variables : undefined,
      },
      r.description,
    );
  }
  for (const s of model.skills) {
    for (const f of s.files) files[`skills/${s.slug}/${f.path}`] = f.encoding === 'utf8' ? f.content : { encoding: 'base64', data: f.content };
  }
  for (const b of model.blobs) files[`blobs/${b.sha256}`] = blob(b);
  files['.boardroom.yaml'] = stringify(
    {
      schema: BUNDLE_SCHEMA,
      inputs: model.envInputs,
      routines: Object.fromEntries(model.routines.map((r) => [r.slug, { triggers: r.triggers }])),
      attachments: Object.fromEntries(model.issues.filter((i) => i.attachments.length > 0).map((i) => [i.slug, i.attachments])),
      skills: Object.fromEntries(model.skills.map((s) => [s.slug, { key: s.key, sourceKind: s.sourceKind }])),
      systemDependent,
    },
    { lineWidth: 0 },
  );
  files['README.md'] = readmeOf(model);
  if (model.envInputs.length > 0) warnings.push(`${model.envInputs.length} env value(s) left out as inputs: ${model.envInputs.map((i) => i.key).join(', ')}`);
  if (systemDependent.length > 0) warnings.push(`${systemDependent.length} value(s) are paths or commands of this machine (manifest.systemDependent)`);
  const manifest: Manifest = {
    schema: BUNDLE_SCHEMA,
    company: c ? { name: c.name, slug: c.slug } : null,
    counts: {
      agents: model.agents.length,
      projects: model.projects.length,
      goals: model.goals.length,
      issues: model.issues.length,
      routines: model.routines.length,
      skills: model.skills.length,
      blobs: model.blobs.length,
    },
    envInputs: model.envInputs,
    systemDependent,
  };
  return { rootPath, files, manifest, warnings };
}

/** The generated README: what the company is, its org chart as a nested list, its projects. */
function readmeOf(model: CompanyModel): string {
  const lines = [`# ${model.company?.name ?? 'Company bundle'}`, ''];
  if (model.company?.description) lines.push(model.company.description, '');
  lines.push(`A company bundle (\`${BUNDLE_SCHEMA}\`) exported from Boardroom. Import it with \`boardroom company import <folder>\`; agents and routines arrive paused.`, '');
  if (model.agents.length > 0) {
    lines.push('## Org chart', '');
    const slugs = new Set(model.agents.map((a) => a.slug));
    const walk = (manager: string | null, depth: number) => {
      for (const a of model.agents.filter((x) => (x.reportsTo && slugs.has(x.reportsTo) ? x.reportsTo : null) === manager)) {
        lines.push(`${'  '.repeat(depth)}- **${a.name}** (${a.title ?? a.role}, \`${a.adapterType}\`): [agents/${a.slug}](agents/${a.slug}/AGENTS.md)`);
        if (depth < 20) walk(a.slug, depth + 1);
      }
    };
    walk(null, 0);
    lines.push('');
  }
  if (model.projects.length > 0) {
    lines.push('## Projects', '');
    for (const p of model.projects) lines.push(`- **${p.name}** (${p.status}): [projects/${p.slug}](projects/${p.slug}/PROJECT.md)`);
    lines.push('');
  }
  const counts = [`${model.goals.length} goals`, `${model.issues.length} tasks`, `${model.routines.length} routines`, `${model.skills.length} skills`];
  lines.push('## Contents', '', counts.join(', ') + '.', '');
  if (model.envInputs.length > 0) {
    lines.push('## Inputs to supply', '', ...model.envInputs.map((i) => `- \`${i.key}\` (${i.kind}, ${i.requirement}): ${i.usedBy.map((u) => `${u.path} ${u.env}`).join(', ')}`), '');
  }
  return lines.join('\n');
}

// --- parsing ---------------------------------------------------------------------------------------

/** A path inside the bundle: relative, `/`-separated, no `..`/`.`/empty segment, no backslash. */
export function assertSafePath(p: string): void {
  const bad = p.length === 0 || p.length > BUNDLE_LIMITS.maxPathChars || p.startsWith('/') || /^[A-Za-z]:/.test(p) || p.includes('\\') || p.includes('\0');
  if (bad || p.split('/').some((seg) => seg === '' || seg === '.' || seg === '..')) {
    throw badRequest(`bundle path ${JSON.stringify(p.slice(0, 200))} is not a relative path inside the bundle (no "..", no absolute paths, no NUL)`, { path: p.slice(0, 200) });
  }
}

/** Decoded bytes of a file (base64 decoded, text as UTF-8). */
export const fileBytes = (f: BundleFile) => (typeof f === 'string' ? Buffer.from(f, 'utf8') : Buffer.from(f.data, 'base64'));

/** Paths, file count and sizes: 400 for a bad path, 413 beyond the limits. Checked before anything is parsed. */
export function assertBundleBounds(files: BundleFiles): void {
  const paths = Object.keys(files);
  if (paths.length > BUNDLE_LIMITS.maxFiles) throw tooLarge(`the bundle has ${paths.length} files; at most ${BUNDLE_LIMITS.maxFiles} are accepted`);
  let total = 0;
  for (const p of paths) {
    assertSafePath(p);
    const f = files[p]!;
    // The decoded size without decoding: 3 bytes per 4 characters, less the padding.
    const size = typeof f === 'string' ? Buffer.byteLength(f, 'utf8') : Math.floor((f.data.length * 3) / 4) - (f.data.endsWith('==') ? 2 : f.data.endsWith('=') ? 1 : 0);
    if (size > BUNDLE_LIMITS.maxFileBytes) throw tooLarge(`bundle file ${p} is ${size} bytes; a file may have at most ${BUNDLE_LIMITS.maxFileBytes}`, { path: p });
    total += size;
  }
  if (total > BUNDLE_LIMITS.maxTotalBytes) throw tooLarge(`the bundle is ${total} bytes; at most ${BUNDLE_LIMITS.maxTotalBytes} are accepted`);
}

/** 422 for a schema this build does not know; a bundle without one is taken as v1 (hand-written folders). */
export function assertSchema(schema: unknown, where: string): void {
  if (schema === undefined || schema === null) return;
  const match = typeof schema === 'string' ? SCHEMA_PATTERN.exec(schema) : null;
  if (!match) throw unprocessable(`${where}: unknown bundle schema ${JSON.stringify(schema)}; this server reads ${BUNDLE_SCHEMA}`, { schema });
  if (Number(match[1]) > SUPPORTED_SCHEMA_VERSION) {
    throw unprocessable(`${where}: bundle schema ${schema} is newer than this server reads (${BUNDLE_SCHEMA}); upgrade Boardroom to import it`, { schema });
  }
}

const text = (f: BundleFile | undefined) => (f === undefined ? undefined : typeof f === 'string' ? f : Buffer.from(f.data, 'base64').toString('utf8'));
const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : v === null || v === undefined ? null : String(v));
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const strings = (v: unknown): string[] => list(v).filter((x): x is string => typeof x === 'string');

/** Parsed markdown of the bundle: frontmatter problems are 422 naming the file. */
function doc(path: string, f: BundleFile): { fm: Frontmatter; body: string } {
  try {
    const { frontmatter, body } = splitFrontmatter(text(f)!);
    return { fm: frontmatter, body: body.replace(/^\n/, '') };
  } catch (err) {
    if (err instanceof FrontmatterError) throw unprocessable(`${path}: ${err.message}`, { path });
    throw err;
  }
}

function yamlFile(path: string, f: BundleFile | undefined): Frontmatter {
  if (f === undefined) return {};
  try {
    return splitFrontmatter(`---\n${text(f)}\n---\n`).frontmatter;
  } catch (err) {
    if (err instanceof FrontmatterError) throw unprocessable(`${path}: ${err.message}`, { path });
    throw err;
  }
}

const bodyOrNull = (body: string) => (body.trim().length > 0 ? body.replace(/\n$/, '') : null);

/**
 * Files back into a model. Bounds and paths first (400/413), then the schema (422), then each
 * known file; files the layout does not know are ignored with a warning.
 */
export function parseBundle(files: BundleFiles): { model: CompanyModel; warnings: string[] } {
  assertBundleBounds(files);
  const meta = yamlFile('.boardroom.yaml', files['.boardroom.yaml']);
  assertSchema(meta.schema, '.boardroom.yaml');
  const warnings: string[] = [];
  const model: CompanyModel = { company: null, agents: [], projects: [], goals: [], issues: [], routines: [], skills: [], logo: null, blobs: [], envInputs: [] };
  const companyFile = files['COMPANY.md'];
  if (companyFile !== undefined) {
    const { fm, body } = doc('COMPANY.md', companyFile);
    assertSchema(fm.schema, 'COMPANY.md');
    const name = str(fm.name) ?? 'Imported company';
    model.company = {
      name,
      slug: str(fm.slug) ?? name.toLowerCase(),
      description: bodyOrNull(body),
      brandColor: str(fm.brandColor),
      budgetMonthlyCents: num(fm.budgetMonthlyCents),
      requireBoardApprovalForNewAgents: fm.requireBoardApprovalForNewAgents === true,
    };
    const logoPath = str(fm.logo);
    const logo = logoPath ? files[logoPath] : undefined;
    if (logo && typeof logo !== 'string') model.logo = { sha256: '', contentType: logo.contentType ?? 'application/octet-stream', data: logo.data };
  }
  const triggers = obj(meta.routines);
  const attachments = obj(meta.attachments);
  const skillMeta = obj(meta.skills);
  const skillFiles = new Map<string, SkillFileModel[]>();
  // Code-point order, not the locale's: the same bundle reads the same way on every machine.
  for (const [path, f] of Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const parts = path.split('/');
    const [top, slug, leaf] = parts;
    if (top === 'agents' && parts.length === 3 && leaf === 'AGENTS.md') {
      const { fm, body } = doc(path, f);
      const adapter = obj(fm.adapter);
      const permissions = obj(fm.permissions);
      model.agents.push({
        slug: slug!,
        name: str(fm.name) ?? slug!,
        role: str(fm.role) ?? 'general',
        title: str(fm.title),
        capabilities: bodyOrNull(body),
        reportsTo: str(fm.reportsTo),
        adapterType: str(adapter.type) ?? '',
        adapterConfig: obj(adapter.config),
        runtimeConfig: obj(fm.runtimeConfig),
        permissions: { canCreateAgents: permissions.canCreateAgents === true, canAssignTasks: permissions.canAssignTasks === true },
        budgetMonthlyCents: num(fm.budgetMonthlyCents),
        skills: strings(fm.skills),
      });
    } else if (top === 'projects' && parts.length === 3 && leaf === 'PROJECT.md') {
      const { fm, body } = doc(path, f);
      model.projects.push({
        slug: slug!,
        name: str(fm.name) ?? slug!,
        description: bodyOrNull(body),
        status: str(fm.status) ?? 'backlog',
        color: str(fm.color) ?? '#6366f1',
        targetDate: str(fm.targetDate),
        lead: str(fm.lead),
        goals: strings(fm.goals),
        env: fm.env && typeof fm.env === 'object' ? obj(fm.env) : null,
        workspaces: list(fm.workspaces).map((w) => {
          const ws = obj(w);
          return {
            name: str(ws.name) ?? 'workspace',
            sourceType: str(ws.sourceType) ?? 'local_path',
            cwd: str(ws.cwd),
            repoUrl: str(ws.repoUrl),
            repoRef: str(ws.repoRef),
            defaultRef: str(ws.defaultRef),
            isPrimary: ws.isPrimary === true,
            setupCommand: str(ws.setupCommand),
            cleanupCommand: str(ws.cleanupCommand),
          };
        }),
      });
    } else if (top === 'goals' && parts.length === 3 && leaf === 'GOAL.md') {
      const { fm, body } = doc(path, f);
      model.goals.push({ slug: slug!, title: str(fm.title) ?? slug!, description: bodyOrNull(body), level: str(fm.level) ?? 'task', status: str(fm.status) ?? 'planned', parent: str(fm.parent), owner: str(fm.owner) });
    } else if (top === 'tasks' && parts.length === 3 && leaf === 'TASK.md') {
      const { fm, body } = doc(path, f);
      if (fm.recurring === true) {
        model.routines.push({
          slug: slug!,
          title: str(fm.title) ?? slug!,
          description: bodyOrNull(body),
          assignee: str(fm.assignee),
          project: str(fm.project),
          goal: str(fm.goal),
          priority: str(fm.priority) ?? 'medium',
          concurrencyPolicy: str(fm.concurrencyPolicy) ?? 'coalesce_if_active',
          catchUpPolicy: str(fm.catchUpPolicy) ?? 'skip_missed',
          variables: list(fm.variables),
          triggers: list(obj(triggers[slug!]).triggers).map((t) => {
            const tr = obj(t);
            const kind = tr.kind === 'webhook' || tr.kind === 'api' ? tr.kind : 'schedule';
            return { kind, label: str(tr.label), cronExpression: str(tr.cronExpression), timezone: str(tr.timezone), signingMode: str(tr.signingMode), replayWindowSec: typeof tr.replayWindowSec === 'number' ? tr.replayWindowSec : null };
          }),
        });
      } else {
        model.issues.push({
          slug: slug!,
          title: str(fm.title) ?? slug!,
          description: bodyOrNull(body),
          status: str(fm.status) ?? 'backlog',
          priority: str(fm.priority) ?? 'medium',
          project: str(fm.project),
          goal: str(fm.goal),
          parent: str(fm.parent),
          assignee: str(fm.assignee),
          billingCode: str(fm.billingCode),
          documents: [],
          attachments: list(attachments[slug!]).map((a) => {
            const at = obj(a);
            return { sha256: str(at.sha256) ?? '', contentType: str(at.contentType) ?? 'application/octet-stream', name: str(at.name) };
          }),
        });
      }
    } else if (top === 'tasks' && parts.length === 4 && parts[2] === 'documents' && parts[3]!.endsWith('.md')) {
      continue; // joined to their task below, once every task is known
    } else if (top === 'skills' && parts.length >= 3) {
      const filesOf = skillFiles.get(slug!) ?? [];
      filesOf.push({ path: parts.slice(2).join('/'), encoding: typeof f === 'string' ? 'utf8' : 'base64', content: typeof f === 'string' ? f : f.data });
      skillFiles.set(slug!, filesOf);
    } else if (top === 'blobs' && parts.length === 2) {
      if (typeof f === 'string') throw unprocessable(`${path}: a blob must be base64 ({ encoding: "base64", data })`, { path });
      model.blobs.push({ sha256: slug!, contentType: f.contentType ?? 'application/octet-stream', data: f.data });
    } else if (path !== 'README.md' && path !== '.boardroom.yaml' && path !== 'COMPANY.md' && top !== 'images') {
      warnings.push(`${path}: not part of the bundle layout; ignored`);
    }
  }
  const issuesBySlug = new Map(model.issues.map((i) => [i.slug, i]));
  for (const [path, f] of Object.entries(files)) {
    const parts = path.split('/');
    if (parts[0] !== 'tasks' || parts.length !== 4 || parts[2] !== 'documents' || !parts[3]!.endsWith('.md')) continue;
    const issue = issuesBySlug.get(parts[1]!);
    if (!issue) {
      warnings.push(`${path}: no task ${parts[1]} to hold it; ignored`);
      continue;
    }
    const { fm, body } = doc(path, f);
    issue.documents.push({ key: str(fm.key) ?? parts[3]!.slice(0, -3), title: str(fm.title), format: str(fm.format) ?? 'markdown', body });
  }
  for (const [slug, skillFilesOf] of skillFiles) {
    const m = obj(skillMeta[slug]);
    model.skills.push({ slug, key: str(m.key) ?? slug, sourceKind: str(m.sourceKind) ?? 'managed_local', files: skillFilesOf });
  }
  model.envInputs = list(meta.inputs).map((i) => {
    const input = obj(i);
    return {
      key: str(input.key) ?? '',
      kind: 'secret' as const,
      requirement: input.requirement === 'optional' ? ('optional' as const) : ('required' as const),
      usedBy: list(input.usedBy).map((u) => ({ path: str(obj(u).path) ?? '', env: str(obj(u).env) ?? '' })),
    };
  }).filter((i) => i.key.length > 0);
  return { model, warnings };
}
