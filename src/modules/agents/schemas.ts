import { z } from 'zod';
import { boundedFreeform, FREEFORM_CONFIG_BYTES, freeformObject, freeformValue } from '../../core/json.ts';
import { budgetCents, idempotencyKeyField, skillReferences } from '../../core/fields.ts';
import { DEFAULT_MAX_RUNS_PER_HOUR, MAX_CONCURRENT_RUNS_LIMIT } from '../wakeups/guards.ts';
import { AGENT_STATUSES } from '../../core/statuses.ts';

export const agentStatus = z.enum(AGENT_STATUSES);
export type AgentStatus = z.infer<typeof agentStatus>;

/** Adapter types SPEC names as built in; vendor-named local runtimes, a gateway type and registered external adapters exist too. */
export const BUILT_IN_ADAPTER_TYPES = [
  'process',
  'http',
  'claude_local',
  'codex_local',
  'gemini_local',
  'opencode_local',
] as const;

// Free-form JSON objects (adapterConfig, metadata, payload): depth 32, 64 KiB serialised (core/json.ts).
const boundedObject = () => freeformObject({ maxBytes: FREEFORM_CONFIG_BYTES });
const FREEFORM_LIMITS = 'Free-form JSON object: at most 32 levels deep and 64 KiB serialised.';

// Free-form too, with the heartbeat fields SPEC names checked and documented.
const runtimeConfig = boundedFreeform(
  z
    .object({
      heartbeat: z
        .object({
          enabled: z.boolean().optional().describe('whether timer wakeups run; false on create unless given'),
          intervalSec: z
            .number()
            .int()
            .min(1)
            .max(31 * 24 * 3600)
            .optional()
            .describe('seconds between timer wakeups, 1 to 2678400 (31 days; default 3600)'),
          skipWhenIdle: z
            .boolean()
            .optional()
            .describe(
              'skip a timer wake (reason `idle`, no adapter started) when nothing changed for the agent since its last run: no wake of another kind, no edit or comment by someone else on its issues (default true)',
            ),
        })
        .passthrough()
        .optional(),
      maxConcurrentRuns: z
        .number()
        .int()
        .min(1)
        .max(MAX_CONCURRENT_RUNS_LIMIT)
        .optional()
        .describe(`live runs at once, 1 to ${MAX_CONCURRENT_RUNS_LIMIT} (default 1); further wakes wait (deferred)`),
      maxRunsPerHour: z
        .number()
        .int()
        .min(1)
        .max(100_000)
        .optional()
        .describe(
          `the wake budget: runs started in the last hour, 1 to 100000 (default ${DEFAULT_MAX_RUNS_PER_HOUR}); further wakes are skipped (reason \`wake_rate_limited\`, activity \`agent.wake_rate_limited\`) until the hour frees a slot`,
        ),
    })
    .passthrough(),
  { maxBytes: FREEFORM_CONFIG_BYTES },
);

const name = z.string().trim().min(1).max(200);
const shortText = (max: number) => z.string().trim().max(max);

const ADAPTER_TYPE = [
  'The runtime adapter that runs this agent (1 to 100 characters).',
  `Built in: ${BUILT_IN_ADAPTER_TYPES.map((t) => `\`${t}\``).join(', ')} (\`claude_local\` runs Claude Code, \`codex_local\` runs Codex, \`gemini_local\` the Gemini CLI, \`opencode_local\` opencode);`,
  'the type of any registered external adapter is accepted too.',
].join(' ');
const adapterType = shortText(100)
  .min(1)
  .describe(ADAPTER_TYPE)
  .meta({ examples: [...BUILT_IN_ADAPTER_TYPES] });
const ADAPTER_CONFIG =
  'Adapter-specific settings. `env` maps variable names to plain strings or secret references `{ "type": "secret_ref", "secretId": "<uuid>", "version": "latest" | n }` (secrets of the same company, else 422; an omitted version becomes `latest`). ' +
  FREEFORM_LIMITS;
const RUNTIME_CONFIG = `Runtime settings; \`heartbeat.enabled\` (default false on create), \`heartbeat.intervalSec\` and \`heartbeat.skipWhenIdle\` drive timer wakeups; \`maxConcurrentRuns\` and \`maxRunsPerHour\` bound the agent's runs. ${FREEFORM_LIMITS}`;
const REPORTS_TO =
  'UUID of the manager: a non-terminated agent of the same company (422 otherwise); null for the top of the org tree';

const coreFields = {
  name: name.describe(
    '1 to 200 characters; a name already used by a live agent of the company gets a numeric suffix ("Scout 2"), and the company-unique `urlKey` is derived from it',
  ),
  role: shortText(100)
    .min(1)
    .optional()
    .describe('label such as `ceo`, `engineer`, `general` (default); `ceo` gives the agent CEO rights in its company'),
  title: shortText(200).nullish().describe('job title, up to 200 characters'),
  capabilities: z
    .string()
    .max(10_000)
    .nullish()
    .describe('free text describing what the agent can do, up to 10,000 characters'),
  reportsTo: z.uuid().nullish().describe(REPORTS_TO),
  adapterType,
  adapterConfig: boundedObject().optional().describe(ADAPTER_CONFIG),
  runtimeConfig: runtimeConfig.optional().describe(RUNTIME_CONFIG),
  budgetMonthlyCents: budgetCents
    .optional()
    .describe('monthly budget in cents (default 0, at most 2,000,000,000); above 0 a monthly budget policy is created'),
  permissions: z
    .object({
      canCreateAgents: z.boolean().optional().describe("may hire agents and read other agents' configuration"),
    })
    .strict()
    .optional()
    .describe('only `canCreateAgents` is stored on the agent'),
  desiredSkills: skillReferences
    .optional()
    .describe(
      'skills to attach, as POST /api/agents/{agentId}/skills/sync takes them: skill ids, canonical keys, or slugs unique in the company (at most 100); the agent gets exactly these plus the required bundled skills, their keys stored under `adapterConfig.serviceSkillSync.desiredSkills`; an unknown or ambiguous reference is 422 (`details.unknown`, `details.ambiguous`) and nothing is created',
    ),
  metadata: boundedObject().optional().describe(`anything the caller wants to keep with the agent. ${FREEFORM_LIMITS}`),
};

const createExample = {
  name: 'Ada',
  role: 'engineer',
  title: 'Backend engineer',
  capabilities: 'TypeScript services, PostgreSQL, code review',
  adapterType: 'process',
  adapterConfig: { env: { LOG_LEVEL: 'info' } },
  runtimeConfig: { heartbeat: { enabled: true, intervalSec: 3600 } },
  budgetMonthlyCents: 50_000,
};

export const createAgentBody = z.object(coreFields).meta({ examples: [createExample] });
export type CreateAgent = z.infer<typeof createAgentBody>;

export const hireAgentBody = z
  .object({
    ...coreFields,
    sourceIssueId: z
      .uuid()
      .optional()
      .describe(
        'the issue that motivated the hire: an issue of the same company (missing 404, another company 422); linked to the approval',
      ),
    sourceIssueIds: z
      .array(z.uuid())
      .max(50)
      .optional()
      .describe('several such issues (at most 50); merged with `sourceIssueId`, duplicates ignored'),
  })
  .meta({
    examples: [
      {
        name: 'Scout',
        role: 'researcher',
        title: 'Market researcher',
        capabilities: 'Competitor and pricing research',
        adapterType: 'process',
        budgetMonthlyCents: 20_000,
      },
    ],
  });
export type HireAgent = z.infer<typeof hireAgentBody>;

// `permissions` is deliberately not a PATCH field: it has its own route. Listing it here (as any value)
// lets the service answer a clear 422 instead of the field silently disappearing.
export const patchAgentBody = z
  .object({
    name: name
      .optional()
      .describe(
        '1 to 200 characters; the shortname follows it, and a shortname used by another live agent of the company is 409',
      ),
    role: coreFields.role.describe('label such as `ceo`, `engineer`, `general`; not by the agent itself (403)'),
    title: coreFields.title,
    capabilities: coreFields.capabilities,
    reportsTo: z
      .uuid()
      .nullish()
      .describe(`${REPORTS_TO}; never the agent itself or one of its reports (422); not by the agent itself (403)`),
    adapterType: shortText(100).min(1).optional().describe(ADAPTER_TYPE),
    adapterConfig: boundedObject()
      .optional()
      .describe(
        `merged key by key into the current adapterConfig (replaced with \`replaceAdapterConfig\`). ${ADAPTER_CONFIG}`,
      ),
    replaceAdapterConfig: z
      .boolean()
      .optional()
      .describe(
        'true: `adapterConfig` replaces the current one instead of being merged; the skill selection (`serviceSkillSync`) and `instructions*` keys are kept unless given',
      ),
    runtimeConfig: runtimeConfig
      .optional()
      .describe(`merged into the current runtimeConfig (\`heartbeat\` merged field by field). ${FREEFORM_LIMITS}`),
    metadata: boundedObject().optional().describe(`replaces the current metadata. ${FREEFORM_LIMITS}`),
    status: agentStatus
      .optional()
      .describe(
        'not by the agent itself (403). A terminated agent stays terminated and a pending_approval agent is activated only by its hire approval (409); `terminated` goes through POST /terminate and `pending_approval` cannot be set (422)',
      ),
    permissions: freeformValue({ maxBytes: 1024 })
      .optional()
      .describe('refused with 422: change permissions with PATCH /api/agents/{agentId}/permissions'),
  })
  .meta({
    examples: [
      {
        title: 'Staff engineer',
        capabilities: 'TypeScript services, PostgreSQL, incident response',
        runtimeConfig: { heartbeat: { intervalSec: 1800 } },
      },
    ],
  });
export type PatchAgent = z.infer<typeof patchAgentBody>;

export const permissionsBody = z
  .object({
    canCreateAgents: z
      .boolean()
      .optional()
      .describe(
        "may hire agents (POST agent-hires) and read other agents' configuration; also lets the agent assign tasks",
      ),
    canAssignTasks: z.boolean().optional().describe('explicit grant to assign issues to agents (shown in `access`)'),
  })
  .refine(
    (v) => v.canCreateAgents !== undefined || v.canAssignTasks !== undefined,
    'canCreateAgents or canAssignTasks is required',
  )
  .meta({ examples: [{ canCreateAgents: true, canAssignTasks: true }] });
export type PermissionsPatch = z.infer<typeof permissionsBody>;

export const createKeyBody = z
  .object({
    name: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .default('default')
      .describe('a label for the key, 1 to 200 characters (default `default`)'),
  })
  .meta({ examples: [{ name: 'laptop' }] });

export const wakeupBody = z
  .object({
    source: z
      .enum(['timer', 'assignment', 'on_demand', 'automation'])
      .default('on_demand')
      .describe(
        'why the agent is woken (default `on_demand`); a `timer` wake while `runtimeConfig.heartbeat.enabled` is not true is skipped',
      ),
    triggerDetail: z
      .enum(['manual', 'ping', 'callback', 'system'])
      .optional()
      .describe('finer detail of the trigger (default `manual`)'),
    reason: z
      .string()
      .trim()
      .max(1000)
      .optional()
      .describe('free text for the agent and the activity log, up to 1,000 characters'),
    payload: boundedObject().optional().describe(`context handed to the run. ${FREEFORM_LIMITS}`),
    idempotencyKey: idempotencyKeyField(
      'repeating a key for the same agent answers the first request instead of queueing another',
    ),
    forceFreshSession: z
      .boolean()
      .optional()
      .describe('start the run without resuming the previous adapter session (default false)'),
  })
  .meta({
    examples: [
      {
        source: 'on_demand',
        triggerDetail: 'manual',
        reason: 'Review the new issues in the backlog',
        idempotencyKey: 'backlog-review-2025-06-02',
      },
    ],
  });
export type WakeupBody = z.infer<typeof wakeupBody>;

export const agentParams = z.object({
  agentId: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .describe(
      "agent UUID, or its shortname (`urlKey`): a shortname is looked up in the `companyId` query parameter where the route has one, else in the calling agent's company (board callers use the UUID)",
    ),
});
export const companyParams = z.object({ companyId: z.uuid().describe('company UUID') });
export const keyParams = z.object({ agentId: z.uuid().describe('agent UUID'), keyId: z.uuid().describe('key UUID') });
export const agentLookupQuery = z.object({
  companyId: z
    .uuid()
    .optional()
    .describe('company UUID; needed to look an agent up by shortname unless the caller is an agent'),
});
