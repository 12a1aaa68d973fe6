// Request and response schemas of the export and import routes (docs/portability.md).
import { z } from 'zod';
import { FREEFORM_CONFIG_BYTES, freeformObject } from '../../core/json.ts';
import { BUNDLE_LIMITS } from './bundle.ts';
import { INCLUDE_KEYS } from './export.ts';
import { COLLISION_STRATEGIES } from './plan.ts';

const selector = (what: string) =>
  z
    .array(z.string().min(1).max(200))
    .max(1000)
    .optional()
    .describe(`only these ${what} (ids or ${what === 'issues' ? 'identifiers such as ACM-12' : 'slugs'}); absent: all`);

export const exportBody = z
  .object({
    include: z
      .object(
        Object.fromEntries(INCLUDE_KEYS.map((k) => [k, z.boolean().optional()])) as Record<
          (typeof INCLUDE_KEYS)[number],
          z.ZodOptional<z.ZodBoolean>
        >,
      )
      .optional()
      .describe('what the bundle holds; omitted keys: `company` and `agents` true, the others false'),
    agents: selector('agents'),
    projects: selector('projects'),
    issues: selector('issues'),
    skills: selector('skills'),
    includeWorkspacePaths: z
      .boolean()
      .optional()
      .describe("keep project workspaces' absolute local paths (flagged `system_dependent`); default false: left out"),
  })
  .meta({
    examples: [
      {
        include: {
          company: true,
          agents: true,
          projects: true,
          goals: true,
          issues: true,
          skills: true,
          routines: true,
        },
      },
    ],
  });
export type ExportBody = z.infer<typeof exportBody>;

const base64File = z.object({
  encoding: z.literal('base64'),
  data: z.string().describe('the bytes, base64'),
  contentType: z.string().max(200).optional().describe('media type (images, attachments)'),
});
const bundleFiles = z
  .record(z.string().max(BUNDLE_LIMITS.maxPathChars), z.union([z.string(), base64File]))
  .describe(
    `path inside the bundle -> UTF-8 text or base64 bytes; at most ${BUNDLE_LIMITS.maxFiles} files, ${BUNDLE_LIMITS.maxFileBytes} bytes a file and ${BUNDLE_LIMITS.maxTotalBytes} in all (413 beyond); "..", absolute paths and NUL are 400`,
  );

const envInput = z.object({
  key: z.string().describe("the input's name: the secret's name at export, or the env name"),
  kind: z.literal('secret'),
  requirement: z.enum(['required', 'optional']),
  usedBy: z
    .array(z.object({ path: z.string(), env: z.string() }))
    .describe('where the value goes: `agents/<slug>` or `projects/<slug>` and the env name'),
});
const systemDependent = z
  .object({ path: z.string(), field: z.string(), value: z.string() })
  .describe('a value that exists only on the exporting machine (absolute path or command)');
const manifest = z.object({
  schema: z.string().describe('bundle schema, `agentcompanies/v1`'),
  company: z.object({ name: z.string(), slug: z.string() }).nullable(),
  counts: z.object({
    agents: z.number(),
    projects: z.number(),
    goals: z.number(),
    issues: z.number(),
    routines: z.number(),
    skills: z.number(),
    blobs: z.number(),
  }),
  envInputs: z.array(envInput).describe('values the bundle declares and does not carry: secrets never leave'),
  systemDependent: z.array(systemDependent),
});

export const exportResponse = z.object({
  rootPath: z.string().describe('the folder name to write the bundle under'),
  files: bundleFiles,
  manifest,
  warnings: z.array(z.string()),
});

export const exportPreviewResponse = z.object({
  rootPath: z.string(),
  manifest,
  warnings: z.array(z.string()),
  fileInventory: z.array(
    z.object({
      path: z.string(),
      kind: z.string().describe('company, agent, project, goal, task, document, skill, image, blob, readme or meta'),
      bytes: z.number(),
    }),
  ),
  counts: z.object({ files: z.number(), bytes: z.number() }),
});

const source = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('inline'), rootPath: z.string().max(200).optional(), files: bundleFiles }),
    z.object({
      type: z.literal('path'),
      path: z.string().min(1).max(4096).describe("a bundle folder on the server's disk (instance owner only)"),
    }),
  ])
  .describe('the bundle: inline files, or a folder on the server');

const target = z
  .discriminatedUnion('mode', [
    z.object({
      mode: z.literal('new_company'),
      newCompanyName: z.string().trim().min(1).max(200).optional().describe('default: the name in COMPANY.md'),
    }),
    z.object({ mode: z.literal('existing_company'), companyId: z.uuid() }),
  ])
  .describe('a new company, or an existing one the bundle merges into');

const importFields = {
  source,
  collisionStrategy: z
    .enum(COLLISION_STRATEGIES)
    .default('rename')
    .describe(
      'a record whose key the target already has: `rename` creates it under a new name, `skip` keeps the existing one, `replace` overwrites it',
    ),
  nameOverrides: z
    .object({
      company: z.string().trim().min(1).max(200).optional(),
      agents: z
        .record(z.string().max(200), z.string().trim().min(1).max(200))
        .optional()
        .describe('agent slug -> name'),
      projects: z
        .record(z.string().max(200), z.string().trim().min(1).max(200))
        .optional()
        .describe('project slug -> name'),
    })
    .optional(),
  secretValues: z
    .record(
      z.string().max(200),
      z
        .string()
        .min(1)
        .max(64 * 1024),
    )
    .optional()
    .describe('input key -> value: each becomes a company secret the env references at `latest`'),
  adapterOverrides: z
    .record(
      z.string().max(200),
      z.object({
        adapterType: z.string().trim().min(1).max(100),
        adapterConfig: freeformObject({ maxBytes: FREEFORM_CONFIG_BYTES }).optional(),
      }),
    )
    .optional()
    .describe("agent slug -> adapter type and config used instead of the bundle's"),
};

export const importBody = z.object({ ...importFields, target }).meta({
  examples: [
    {
      source: {
        type: 'inline',
        rootPath: 'acme',
        files: { 'COMPANY.md': '---\nschema: agentcompanies/v1\nname: Acme\n---\n' },
      },
      target: { mode: 'new_company', newCompanyName: 'Acme copy' },
      collisionStrategy: 'rename',
    },
  ],
});
export type ImportBody = z.infer<typeof importBody>;

export const companyImportBody = z.object({
  ...importFields,
  target: target
    .optional()
    .describe("omitted or `existing_company` with this company's id: these routes import only into their own company"),
});
export type CompanyImportBody = z.infer<typeof companyImportBody>;

const planEntry = z.object({
  slug: z.string(),
  action: z.enum(['create', 'update', 'skip']),
  plannedName: z.string().describe('the name (a skill: the key) it will have'),
  existingId: z.string().nullable().describe("the target's record it collides with"),
  reason: z.string().nullable(),
});

export const importPreviewResponse = z.object({
  plan: z.object({
    companyAction: z.enum(['create', 'update', 'none']),
    companyName: z.string(),
    agentPlans: z.array(planEntry),
    projectPlans: z.array(planEntry),
    goalPlans: z.array(planEntry),
    issuePlans: z.array(planEntry),
    routinePlans: z.array(planEntry),
    skillPlans: z.array(planEntry),
  }),
  warnings: z.array(z.string()),
  errors: z.array(z.string()).describe('apply refuses with 422 while there are any'),
  envInputs: z.array(
    envInput.extend({
      supplied: z.boolean().describe('a value is given in secretValues, or the target has a secret of that name'),
    }),
  ),
});

const applied = z.array(
  z.object({ slug: z.string(), id: z.string().nullable(), action: z.enum(['create', 'update', 'skip']) }),
);
export const importApplyResponse = z.object({
  company: z.object({ id: z.string(), name: z.string(), action: z.enum(['created', 'updated', 'unchanged']) }),
  agents: applied,
  projects: applied,
  goals: applied,
  issues: applied,
  routines: applied,
  skills: applied,
  warnings: z.array(z.string()),
});
