import { z } from 'zod';
import { boundedFreeform, FREEFORM_CONFIG_BYTES, freeformObject, freeformValue } from '../../core/json.ts';
import { budgetCents } from '../companies/schemas.ts';

export const AGENT_STATUSES = ['active', 'paused', 'idle', 'running', 'error', 'pending_approval', 'terminated'] as const;
export const agentStatus = z.enum(AGENT_STATUSES);
export type AgentStatus = z.infer<typeof agentStatus>;

// Free-form JSON objects (adapterConfig, metadata, payload): depth 32, 64 KiB serialised (core/json.ts).
const boundedObject = () => freeformObject({ maxBytes: FREEFORM_CONFIG_BYTES });

// Free-form too, with the heartbeat fields SPEC names checked and documented.
const runtimeConfig = boundedFreeform(
  z
    .object({
      heartbeat: z.object({ enabled: z.boolean().optional(), intervalSec: z.number().int().min(1).max(31 * 24 * 3600).optional() }).passthrough().optional(),
    })
    .passthrough(),
  { maxBytes: FREEFORM_CONFIG_BYTES },
);

const name = z.string().trim().min(1).max(200);
const shortText = (max: number) => z.string().trim().max(max);

const coreFields = {
  name,
  role: shortText(100).min(1).optional(),
  title: shortText(200).nullish(),
  capabilities: z.string().max(10_000).nullish(),
  reportsTo: z.uuid().nullish(),
  adapterType: shortText(100).min(1),
  adapterConfig: boundedObject().optional(),
  runtimeConfig: runtimeConfig.optional(),
  budgetMonthlyCents: budgetCents.optional(),
  permissions: z.object({ canCreateAgents: z.boolean().optional() }).strict().optional(),
  desiredSkills: z.array(z.string().trim().min(1).max(200)).max(100).optional(),
  metadata: boundedObject().optional(),
};

export const createAgentBody = z.object(coreFields);
export type CreateAgent = z.infer<typeof createAgentBody>;

export const hireAgentBody = z.object({
  ...coreFields,
  sourceIssueId: z.uuid().optional(),
  sourceIssueIds: z.array(z.uuid()).max(50).optional(),
});
export type HireAgent = z.infer<typeof hireAgentBody>;

// `permissions` is deliberately not a PATCH field: it has its own route. Listing it here (as any value)
// lets the service answer a clear 422 instead of the field silently disappearing.
export const patchAgentBody = z.object({
  name: name.optional(),
  role: shortText(100).min(1).optional(),
  title: shortText(200).nullish(),
  capabilities: z.string().max(10_000).nullish(),
  reportsTo: z.uuid().nullish(),
  adapterType: shortText(100).min(1).optional(),
  adapterConfig: boundedObject().optional(),
  replaceAdapterConfig: z.boolean().optional(),
  runtimeConfig: runtimeConfig.optional(),
  metadata: boundedObject().optional(),
  status: agentStatus.optional(),
  permissions: freeformValue({ maxBytes: 1024 }).optional(),
});
export type PatchAgent = z.infer<typeof patchAgentBody>;

export const permissionsBody = z
  .object({ canCreateAgents: z.boolean().optional(), canAssignTasks: z.boolean().optional() })
  .refine((v) => v.canCreateAgents !== undefined || v.canAssignTasks !== undefined, 'canCreateAgents or canAssignTasks is required');
export type PermissionsPatch = z.infer<typeof permissionsBody>;

export const budgetBody = z.object({ budgetMonthlyCents: budgetCents });

export const createKeyBody = z.object({ name: z.string().trim().min(1).max(200).default('default') });

export const wakeupBody = z.object({
  source: z.enum(['timer', 'assignment', 'on_demand', 'automation']).default('on_demand'),
  triggerDetail: z.enum(['manual', 'ping', 'callback', 'system']).optional(),
  reason: z.string().trim().max(1000).optional(),
  payload: boundedObject().optional(),
  idempotencyKey: z.string().trim().min(1).max(200).optional(),
  forceFreshSession: z.boolean().optional(),
});
export type WakeupBody = z.infer<typeof wakeupBody>;

export const agentParams = z.object({ agentId: z.string().trim().min(1).max(200) });
export const agentUuidParams = z.object({ agentId: z.uuid() });
export const companyParams = z.object({ companyId: z.uuid() });
export const keyParams = z.object({ agentId: z.uuid(), keyId: z.uuid() });
export const agentLookupQuery = z.object({ companyId: z.uuid().optional() });
