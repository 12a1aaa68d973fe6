// The company bundle (issue 20, docs/portability.md): a company as a tree of text files, readable and
// diffable in git. This file: the model both directions share, the limits and the layout. Pure
// functions over it: render.ts (model to files), parse.ts (files to model), env.ts (what secrets and
// machine paths become). What the database holds and how a model reaches it: export.ts, plan.ts, apply.ts.
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
//   .boardroom.yaml                      schema version, env inputs, routine triggers, attachments, skill keys,
//                                        source ids to slugs (never read back)
import { DomainError } from '../../core/errors.ts';

export const BUNDLE_SCHEMA = 'agentcompanies/v1';

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

export type EnvValue =
  | string
  | { type: 'plain'; value: string }
  | { type: 'secret_ref'; secretId: string; version?: 'latest' | number };

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

/**
 * Each exported record's id in the source instance to its slug in the bundle, by kind (`ids` in
 * .boardroom.yaml): lets scripts and people map references in the source to bundle paths. An
 * import never reads it: ids belong to the source instance, and nothing is matched by id.
 */
export type SourceIds = Record<
  'company' | 'agents' | 'projects' | 'goals' | 'issues' | 'routines' | 'skills',
  Record<string, string>
>;

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

/** Decoded bytes of a file (base64 decoded, text as UTF-8). */
export const fileBytes = (f: BundleFile) =>
  typeof f === 'string' ? Buffer.from(f, 'utf8') : Buffer.from(f.data, 'base64');
