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
const envBinding = z.union([z.string().max(20_000), z.object({ type: z.literal('plain'), value: z.string().max(20_000) }), secretRefSchema]);
// 200 variables of 20,000 characters would be 4 MB in every project response: the whole env is held to 64 KiB, like adapterConfig.
export const envBody = boundedFreeform(
  z.record(envName, envBinding).refine((env) => Object.keys(env).length <= 200, 'at most 200 variables'),
  { maxBytes: FREEFORM_CONFIG_BYTES },
);

// A calendar date or a full timestamp.
const targetDate = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

export const workspaceBody = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  sourceType: workspaceSourceType.optional(),
  cwd: optionalText(4096),
  repoUrl: optionalText(2048),
  repoRef: optionalText(255),
  defaultRef: optionalText(255),
  visibility: optionalText(50),
  isPrimary: z.boolean().optional(),
  setupCommand: optionalText(20_000),
  cleanupCommand: optionalText(20_000),
  remoteProvider: optionalText(100),
  remoteWorkspaceRef: optionalText(1000),
  sharedWorkspaceKey: optionalText(200),
  metadata: jsonObject.nullish(),
  runtimeConfig: jsonObject.nullish(),
});

// Any workspace field; the workspace rules are checked again on the merged result.
export const patchWorkspaceBody = workspaceBody;

const projectFields = {
  name: z.string().trim().min(1).max(200),
  description: z.string().max(20_000).nullish(),
  status: projectStatus.optional(),
  goalIds: z.array(z.uuid()).max(50).optional(),
  goalId: z.uuid().nullish(),
  leadAgentId: z.uuid().nullish(),
  targetDate: targetDate.nullish(),
  env: envBody.nullish(),
  executionWorkspacePolicy: jsonObject.nullish(),
  color: hexColor.nullish(),
};

export const createProjectBody = z.object({ ...projectFields, workspace: workspaceBody.optional() });

export const patchProjectBody = z
  .object({ ...projectFields, archivedAt: z.iso.datetime({ offset: true }).nullish() })
  .partial();

export type WorkspaceInput = z.infer<typeof workspaceBody>;
export type CreateProject = z.infer<typeof createProjectBody>;
export type PatchProject = z.infer<typeof patchProjectBody>;
export type RuntimeAction = z.infer<typeof runtimeAction>;
