// Bundle files back into a CompanyModel: bounds and paths first (400/413), the schema next (422),
// then each file the layout knows.
import { badRequest, unprocessable } from '../../core/errors.ts';
import { FrontmatterError, splitFrontmatter, type Frontmatter } from '../skills/frontmatter.ts';
import {
  BUNDLE_LIMITS,
  BUNDLE_SCHEMA,
  tooLarge,
  type BundleFile,
  type BundleFiles,
  type CompanyModel,
  type SkillFileModel,
} from './bundle.ts';

const SCHEMA_PATTERN = /^agentcompanies\/v(\d+)$/;
const SUPPORTED_SCHEMA_VERSION = 1;

/** A path inside the bundle: relative, `/`-separated, no `..`/`.`/empty segment, no backslash. */
export function assertSafePath(p: string): void {
  const bad =
    p.length === 0 ||
    p.length > BUNDLE_LIMITS.maxPathChars ||
    p.startsWith('/') ||
    /^[A-Za-z]:/.test(p) ||
    p.includes('\\') ||
    p.includes('\0');
  if (bad || p.split('/').some((seg) => seg === '' || seg === '.' || seg === '..')) {
    throw badRequest(
      `bundle path ${JSON.stringify(p.slice(0, 200))} is not a relative path inside the bundle (no "..", no absolute paths, no NUL)`,
      { path: p.slice(0, 200) },
    );
  }
}

/** Paths, file count and sizes: 400 for a bad path, 413 beyond the limits. Checked before anything is parsed. */
export function assertBundleBounds(files: BundleFiles): void {
  const entries = Object.entries(files);
  if (entries.length > BUNDLE_LIMITS.maxFiles)
    throw tooLarge(`the bundle has ${entries.length} files; at most ${BUNDLE_LIMITS.maxFiles} are accepted`);
  let total = 0;
  for (const [p, f] of entries) {
    assertSafePath(p);
    // The decoded size without decoding: 3 bytes per 4 characters, less the padding.
    const size =
      typeof f === 'string'
        ? Buffer.byteLength(f, 'utf8')
        : Math.floor((f.data.length * 3) / 4) - (f.data.endsWith('==') ? 2 : f.data.endsWith('=') ? 1 : 0);
    if (size > BUNDLE_LIMITS.maxFileBytes)
      throw tooLarge(`bundle file ${p} is ${size} bytes; a file may have at most ${BUNDLE_LIMITS.maxFileBytes}`, {
        path: p,
      });
    total += size;
  }
  if (total > BUNDLE_LIMITS.maxTotalBytes)
    throw tooLarge(`the bundle is ${total} bytes; at most ${BUNDLE_LIMITS.maxTotalBytes} are accepted`);
}

/** 422 for a schema this build does not know; a bundle without one is taken as v1 (hand-written folders). */
export function assertSchema(schema: unknown, where: string): void {
  if (schema === undefined || schema === null) return;
  const match = typeof schema === 'string' ? SCHEMA_PATTERN.exec(schema) : null;
  if (!match)
    throw unprocessable(
      `${where}: unknown bundle schema ${JSON.stringify(schema)}; this server reads ${BUNDLE_SCHEMA}`,
      { schema },
    );
  if (Number(match[1]) > SUPPORTED_SCHEMA_VERSION) {
    throw unprocessable(
      `${where}: bundle schema ${schema} is newer than this server reads (${BUNDLE_SCHEMA}); upgrade Boardroom to import it`,
      { schema },
    );
  }
}

const text = (f: BundleFile) => (typeof f === 'string' ? f : Buffer.from(f.data, 'base64').toString('utf8'));
const str = (v: unknown): string | null =>
  typeof v === 'string' && v.length > 0 ? v : v === null || v === undefined ? null : String(v);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const strings = (v: unknown): string[] => list(v).filter((x): x is string => typeof x === 'string');

/** Parsed markdown of the bundle: frontmatter problems are 422 naming the file. */
function doc(path: string, f: BundleFile): { fm: Frontmatter; body: string } {
  try {
    const { frontmatter, body } = splitFrontmatter(text(f));
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
  const model: CompanyModel = {
    company: null,
    agents: [],
    projects: [],
    goals: [],
    issues: [],
    routines: [],
    skills: [],
    logo: null,
    blobs: [],
    envInputs: [],
  };
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
    if (logo && typeof logo !== 'string')
      model.logo = { sha256: '', contentType: logo.contentType ?? 'application/octet-stream', data: logo.data };
  }
  const triggers = obj(meta.routines);
  const attachments = obj(meta.attachments);
  const skillMeta = obj(meta.skills);
  const skillFiles = new Map<string, SkillFileModel[]>();
  // Code-point order, not the locale's: the same bundle reads the same way on every machine.
  const ignore = (path: string) => warnings.push(`${path}: not part of the bundle layout; ignored`);
  for (const [path, f] of Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const parts = path.split('/');
    const [top, slug, leaf, documentName] = parts;
    if (slug === undefined) {
      // At the root: COMPANY.md was read above, README.md and .boardroom.yaml are the bundle's own.
      if (!['README.md', '.boardroom.yaml', 'COMPANY.md', 'images'].includes(path)) ignore(path);
      continue;
    }
    if (top === 'agents' && parts.length === 3 && leaf === 'AGENTS.md') {
      const { fm, body } = doc(path, f);
      const adapter = obj(fm.adapter);
      const permissions = obj(fm.permissions);
      model.agents.push({
        slug: slug,
        name: str(fm.name) ?? slug,
        role: str(fm.role) ?? 'general',
        title: str(fm.title),
        capabilities: bodyOrNull(body),
        reportsTo: str(fm.reportsTo),
        adapterType: str(adapter.type) ?? '',
        adapterConfig: obj(adapter.config),
        runtimeConfig: obj(fm.runtimeConfig),
        permissions: {
          canCreateAgents: permissions.canCreateAgents === true,
          canAssignTasks: permissions.canAssignTasks === true,
        },
        budgetMonthlyCents: num(fm.budgetMonthlyCents),
        skills: strings(fm.skills),
      });
    } else if (top === 'projects' && parts.length === 3 && leaf === 'PROJECT.md') {
      const { fm, body } = doc(path, f);
      model.projects.push({
        slug: slug,
        name: str(fm.name) ?? slug,
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
      model.goals.push({
        slug: slug,
        title: str(fm.title) ?? slug,
        description: bodyOrNull(body),
        level: str(fm.level) ?? 'task',
        status: str(fm.status) ?? 'planned',
        parent: str(fm.parent),
        owner: str(fm.owner),
      });
    } else if (top === 'tasks' && parts.length === 3 && leaf === 'TASK.md') {
      const { fm, body } = doc(path, f);
      if (fm.recurring === true) {
        model.routines.push({
          slug: slug,
          title: str(fm.title) ?? slug,
          description: bodyOrNull(body),
          assignee: str(fm.assignee),
          project: str(fm.project),
          goal: str(fm.goal),
          priority: str(fm.priority) ?? 'medium',
          concurrencyPolicy: str(fm.concurrencyPolicy) ?? 'coalesce_if_active',
          catchUpPolicy: str(fm.catchUpPolicy) ?? 'skip_missed',
          variables: list(fm.variables),
          triggers: list(obj(triggers[slug]).triggers).map((t) => {
            const tr = obj(t);
            const kind = tr.kind === 'webhook' || tr.kind === 'api' ? tr.kind : 'schedule';
            return {
              kind,
              label: str(tr.label),
              cronExpression: str(tr.cronExpression),
              timezone: str(tr.timezone),
              signingMode: str(tr.signingMode),
              replayWindowSec: typeof tr.replayWindowSec === 'number' ? tr.replayWindowSec : null,
            };
          }),
        });
      } else {
        model.issues.push({
          slug: slug,
          title: str(fm.title) ?? slug,
          description: bodyOrNull(body),
          status: str(fm.status) ?? 'backlog',
          priority: str(fm.priority) ?? 'medium',
          project: str(fm.project),
          goal: str(fm.goal),
          parent: str(fm.parent),
          assignee: str(fm.assignee),
          billingCode: str(fm.billingCode),
          documents: [],
          attachments: list(attachments[slug]).map((a) => {
            const at = obj(a);
            return {
              sha256: str(at.sha256) ?? '',
              contentType: str(at.contentType) ?? 'application/octet-stream',
              name: str(at.name),
            };
          }),
        });
      }
    } else if (top === 'tasks' && parts.length === 4 && leaf === 'documents' && documentName?.endsWith('.md')) {
      continue; // joined to their task below, once every task is known
    } else if (top === 'skills' && parts.length >= 3) {
      const filesOf = skillFiles.get(slug) ?? [];
      filesOf.push({
        path: parts.slice(2).join('/'),
        encoding: typeof f === 'string' ? 'utf8' : 'base64',
        content: typeof f === 'string' ? f : f.data,
      });
      skillFiles.set(slug, filesOf);
    } else if (top === 'blobs' && parts.length === 2) {
      if (typeof f === 'string')
        throw unprocessable(`${path}: a blob must be base64 ({ encoding: "base64", data })`, { path });
      model.blobs.push({ sha256: slug, contentType: f.contentType ?? 'application/octet-stream', data: f.data });
    } else if (top !== 'images') {
      ignore(path);
    }
  }
  const issuesBySlug = new Map(model.issues.map((i) => [i.slug, i]));
  for (const [path, f] of Object.entries(files)) {
    const parts = path.split('/');
    const [top, slug, folder, documentName] = parts;
    if (top !== 'tasks' || slug === undefined || folder !== 'documents' || documentName === undefined) continue;
    if (parts.length !== 4 || !documentName.endsWith('.md')) continue;
    const issue = issuesBySlug.get(slug);
    if (!issue) {
      warnings.push(`${path}: no task ${slug} to hold it; ignored`);
      continue;
    }
    const { fm, body } = doc(path, f);
    issue.documents.push({
      key: str(fm.key) ?? documentName.slice(0, -3),
      title: str(fm.title),
      format: str(fm.format) ?? 'markdown',
      body,
    });
  }
  for (const [slug, skillFilesOf] of skillFiles) {
    const m = obj(skillMeta[slug]);
    model.skills.push({
      slug,
      key: str(m.key) ?? slug,
      sourceKind: str(m.sourceKind) ?? 'managed_local',
      files: skillFilesOf,
    });
  }
  model.envInputs = list(meta.inputs)
    .map((i) => {
      const input = obj(i);
      return {
        key: str(input.key) ?? '',
        kind: 'secret' as const,
        requirement: input.requirement === 'optional' ? ('optional' as const) : ('required' as const),
        usedBy: list(input.usedBy).map((u) => ({ path: str(obj(u).path) ?? '', env: str(obj(u).env) ?? '' })),
      };
    })
    .filter((i) => i.key.length > 0);
  return { model, warnings };
}
