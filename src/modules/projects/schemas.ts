import { z } from 'zod';
import { boundedFreeform, FREEFORM_CONFIG_BYTES, freeformObject } from '../../core/json.ts';
import { brandColor as hexColor } from '../companies/schemas.ts';
import { secretRefSchema } from '../secrets/refs.ts';

export const projectStatus = z.enum(['backlog', 'planned', 'in_progress', 'completed', 'cancelled']);
export const workspaceSourceType = z.enum(['local_path', 'git_repo', 'remote_managed', 'non_git_path']);
export const runtimeAction = z.enum(['start', 'stop', 'restart']);

const jsonObject = freeformObject({ maxBytes: FREEFORM_CONFIG_BYTES });
const optionalText = (max: number) => z.string().trim().min(1).max(max).nullish();

// Env bindings: NAME -> plain string, { type: 'plain', value } or a secret reference.
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,199}$/, 'an environment variable name');
const envBinding = z.union([
  z.string().max(20_000),
  z.object({ type: z.literal('plain'), value: z.string().max(20_000) }),
  secretRefSchema,
]);
// 200 variables of 20,000 characters would be 4 MB in every project response: the whole env is held to 64 KiB, like adapterConfig.
export const envBody = boundedFreeform(
  z.record(envName, envBinding).refine((env) => Object.keys(env).length <= 200, 'at most 200 variables'),
  { maxBytes: FREEFORM_CONFIG_BYTES },
);

// A calendar date or a full timestamp.
const targetDate = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

/** executionWorkspacePolicy.mode: `isolated` gives each issue its own git worktree; `shared` (or no mode) does not. */
export const EXECUTION_WORKSPACE_MODES = ['shared', 'isolated'] as const;
const FREEFORM_LIMITS = 'Free-form JSON object: at most 32 levels deep and 64 KiB serialised.';

const workspaceFields = {
  name: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe('1 to 200 characters; default: the last segment of cwd, repoUrl or remoteWorkspaceRef'),
  sourceType: workspaceSourceType
    .optional()
    .describe(
      'default `git_repo` when only repoUrl is given, else `local_path`. A `remote_managed` workspace needs remoteWorkspaceRef or repoUrl; every other type needs cwd or repoUrl (422)',
    ),
  cwd: optionalText(4096).describe('local directory, up to 4096 characters'),
  repoUrl: optionalText(2048).describe('repository address, up to 2048 characters'),
  repoRef: optionalText(255).describe('branch, tag or commit to work on'),
  defaultRef: optionalText(255).describe("the repository's default branch"),
  visibility: optionalText(50).describe('free text up to 50 characters'),
  isPrimary: z
    .boolean()
    .optional()
    .describe(
      'true makes this the primary workspace (the previous one is demoted); the first workspace of a project is always primary, and the only one stays primary (422)',
    ),
  setupCommand: optionalText(20_000).describe('shell command that prepares the workspace'),
  cleanupCommand: optionalText(20_000).describe('shell command that tidies it up'),
  remoteProvider: optionalText(100).describe('provider of a remote_managed workspace'),
  remoteWorkspaceRef: optionalText(1000).describe('the workspace at that provider'),
  sharedWorkspaceKey: optionalText(200).describe('key under which runs share one workspace'),
  metadata: jsonObject.nullish().describe(FREEFORM_LIMITS),
  runtimeConfig: jsonObject
    .nullish()
    .describe(
      `runtime-service configuration \`{ command, env? }\`: \`command\` is a shell command line run in \`cwd\`, \`env\` string values added to its environment; start and restart need a command. ${FREEFORM_LIMITS}`,
    ),
};

const workspaceExample = {
  name: 'web',
  cwd: '/srv/acme/web',
  repoUrl: 'https://github.com/acme/web.git',
  repoRef: 'main',
  setupCommand: 'npm ci',
};

export const workspaceBody = z.object(workspaceFields).meta({ examples: [workspaceExample] });

// Any workspace field; the workspace rules are checked again on the merged result.
export const patchWorkspaceBody = z
  .object(workspaceFields)
  .meta({ examples: [{ repoRef: 'release-2025-06', isPrimary: true }] });

const projectFields = {
  name: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .describe(
      '1 to 200 characters; the shortname `urlKey` is derived from it (a taken shortname gets a numeric suffix on create, 409 on rename)',
    ),
  description: z.string().max(20_000).nullish().describe('plain text up to 20,000 characters'),
  status: projectStatus.optional().describe('default `backlog` on create'),
  goalIds: z
    .array(z.uuid())
    .max(50)
    .optional()
    .describe('goals of the same company (422 otherwise), in order, at most 50; replaces the linked goals'),
  goalId: z
    .uuid()
    .nullish()
    .describe(
      'legacy single goal: means `goalIds: [goalId]` (null clears); with goalIds it must equal the first (400)',
    ),
  leadAgentId: z.uuid().nullish().describe('an agent of the same company (422 otherwise)'),
  targetDate: targetDate.nullish().describe('ISO date (`2025-09-30`) or date-time with offset'),
  env: envBody
    .nullish()
    .describe(
      'environment bindings, at most 200 variables and 64 KiB: NAME to a plain string, `{ "type": "plain", "value": "..." }` or `{ "type": "secret_ref", "secretId": "<uuid>", "version": "latest" | n }` (a secret of the same company, else 422; an omitted version becomes `latest`)',
    ),
  executionWorkspacePolicy: jsonObject
    // A misspelt mode would silently leave issues sharing one checkout: the one key we read is checked.
    .refine((policy) => policy.mode === undefined || EXECUTION_WORKSPACE_MODES.includes(policy.mode as never), {
      message: `mode must be one of ${EXECUTION_WORKSPACE_MODES.join(', ')}`,
    })
    .nullish()
    .describe(
      `advanced runtime policy; \`{ "mode": "isolated" }\` gives each issue its own git worktree of the primary workspace (docs/engine.md, "Isolated execution workspaces"); \`mode\`, when present, is \`shared\` or \`isolated\` (else 400). ${FREEFORM_LIMITS}`,
    ),
  color: hexColor
    .nullish()
    .describe('hex colour `#rgb` or `#rrggbb`; omitted (or null on update) picks one from the palette'),
};

export const createProjectBody = z
  .object({
    ...projectFields,
    workspace: workspaceBody
      .optional()
      .describe(
        'seeds the first (primary) workspace in the same step; an invalid workspace rolls the project back (422)',
      ),
  })
  .meta({
    examples: [
      {
        name: 'Website relaunch',
        description: 'New marketing site with the three-tier pricing.',
        status: 'planned',
        targetDate: '2025-09-30',
        env: { NODE_ENV: 'production' },
        workspace: workspaceExample,
      },
    ],
  });

export const patchProjectBody = z
  .object({
    ...projectFields,
    archivedAt: z.iso
      .datetime({ offset: true })
      .nullish()
      .describe('an ISO date-time archives the project; null unarchives it'),
  })
  .partial()
  .meta({ examples: [{ status: 'in_progress', targetDate: '2025-10-15' }] });

export type WorkspaceInput = z.infer<typeof workspaceBody>;
export type CreateProject = z.infer<typeof createProjectBody>;
export type PatchProject = z.infer<typeof patchProjectBody>;
export type RuntimeAction = z.infer<typeof runtimeAction>;
