// What skill responses show. Stored content hashes are internal; `editable` is derived.
import { z } from 'zod';
import { timestampOut, uuidOut } from '../../http/openapi.ts';
import { FILE_KINDS, SOURCE_KINDS, TRUST_LEVELS } from './package.ts';
import type { ImportResult } from './import.ts';
import type { ScanResult } from './scan.ts';
import type { SkillSnapshot } from './agent-skills.ts';
import { isEditable, type Skill, type SkillDetail } from './service.ts';

export const skillResponse = z
  .object({
    id: uuidOut(),
    companyId: uuidOut(),
    key: z
      .string()
      .describe(
        'canonical key, unique in the company: bundled `boardroom/skills/<slug>`, code-host and catalog `<owner>/<repo>/<slug>`, URL `url/<host>/<hash>/<slug>`, managed `company/<companyId>/<slug>`, local path `local/<hash of folder>/<slug>`, or the frontmatter override',
      ),
    slug: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    required: z
      .boolean()
      .describe('frontmatter `required`; a required bundled skill is attached to every agent on sync'),
    sourceKind: z.enum(SOURCE_KINDS),
    sourceLocator: z
      .string()
      .nullable()
      .describe(
        'what it was imported from, as sent (path, URL, owner/repo, catalog URL or install command); null for managed skills',
      ),
    trustLevel: z
      .enum(TRUST_LEVELS)
      .describe('highest class of file present: markdown_only < assets < scripts_executables'),
    editable: z.boolean().describe('false for bundled skills (their files cannot be updated, nor the skill deleted)'),
    metadata: z.record(z.string(), z.unknown()).nullable().describe('frontmatter `metadata`, round-tripped'),
    createdAt: timestampOut(),
    updatedAt: timestampOut(),
  })
  .describe('A company skill');

export function presentSkill(s: Skill): z.output<typeof skillResponse> {
  return {
    id: s.id,
    companyId: s.companyId,
    key: s.key,
    slug: s.slug,
    name: s.name,
    description: s.description,
    required: s.required,
    sourceKind: s.sourceKind as z.output<typeof skillResponse>['sourceKind'],
    sourceLocator: s.sourceLocator,
    trustLevel: s.trustLevel as z.output<typeof skillResponse>['trustLevel'],
    editable: isEditable(s),
    metadata: s.metadata ?? null,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}

const fileEntry = z.object({
  path: z.string(),
  kind: z
    .enum(FILE_KINDS)
    .describe('SKILL.md is `skill`; references/ reference, scripts/ script, assets/ asset; anything else other'),
  size: z.number().int().describe('bytes'),
  encoding: z.enum(['utf8', 'base64']),
});

export const skillDetailResponse = skillResponse
  .extend({
    files: z.array(fileEntry).describe('the inventory, by path'),
    usage: z.object({
      agentCount: z.number().int(),
      agents: z
        .array(z.object({ id: uuidOut(), name: z.string(), status: z.string() }))
        .describe('agents with this skill attached'),
    }),
  })
  .describe('A company skill with its file inventory and the agents using it');

export function presentSkillDetail(d: SkillDetail): z.output<typeof skillDetailResponse> {
  return {
    ...presentSkill(d.skill),
    files: d.files.map((f) => ({
      ...f,
      kind: f.kind as (typeof FILE_KINDS)[number],
      encoding: f.encoding as 'utf8' | 'base64',
    })),
    usage: { agentCount: d.usage.length, agents: d.usage },
  };
}

export const skillFileResponse = fileEntry
  .extend({
    skillId: uuidOut(),
    content: z.string().describe('the file: text as is for `utf8`, base64 otherwise'),
    editable: z.boolean(),
  })
  .describe('One file of a skill');

export function presentSkillFile(
  skill: Skill,
  f: { path: string; kind: string; size: number; encoding: string; content: string },
): z.output<typeof skillFileResponse> {
  return {
    skillId: skill.id,
    path: f.path,
    kind: f.kind as (typeof FILE_KINDS)[number],
    size: f.size,
    encoding: f.encoding as 'utf8' | 'base64',
    content: f.content,
    editable: isEditable(skill),
  };
}

export const importResponse = z
  .object({
    imported: z
      .array(skillResponse.extend({ status: z.enum(['created', 'updated', 'unchanged']) }))
      .describe('each skill stored (or found unchanged) under its key'),
    warnings: z
      .array(z.string())
      .describe(
        'skills skipped (a conflict with a bundled or managed skill of the same key, an invalid SKILL.md in a folder of many) and other notes',
      ),
    source: z
      .object({
        kind: z.enum(SOURCE_KINDS),
        locator: z.string(),
        host: z.string().optional(),
        path: z.string().optional(),
        repo: z.string().optional().describe('code-host and catalog forms: owner/repo'),
        trackingRef: z.string().optional().describe('code-host and catalog forms: the branch, tag or commit followed'),
        commit: z
          .string()
          .optional()
          .describe('code-host and catalog forms: the commit the files were read at (the pin)'),
      })
      .describe(
        'the resolved source: its kind, the locator stored on each skill (as sent), the URL host, the absolute path, or the repository, ref and commit',
      ),
  })
  .describe('What an import stored');

export function presentImport(r: ImportResult): z.output<typeof importResponse> {
  return {
    imported: r.imported.map((i) => ({ ...presentSkill(i.skill), status: i.status })),
    warnings: r.warnings,
    source: r.source,
  };
}

export const snapshotResponse = z
  .object({
    adapterType: z.string(),
    supported: z.boolean().describe('whether this adapter is handed the skills'),
    mode: z
      .enum(['persistent', 'ephemeral', 'unsupported'])
      .describe(
        'ephemeral: materialised again before each run (claude_local); unsupported: the selection is only stored',
      ),
    desiredSkills: z.array(z.string()).describe('canonical keys of the attached skills'),
    entries: z.array(
      z.object({
        key: z.string(),
        skillId: uuidOut(),
        runtimeName: z.string().describe('the folder name the runtime sees (the slug)'),
        desired: z.boolean(),
        managed: z.boolean().describe('true: Boardroom writes it into the runtime'),
        required: z.boolean().describe('a required bundled skill, kept on every sync'),
        state: z.string().describe('configured (handed to the runtime on each run) or stored (adapter without skills)'),
        origin: z.enum(SOURCE_KINDS),
      }),
    ),
    warnings: z.array(z.string()),
  })
  .describe('Agent skill snapshot');

export function presentSnapshot(s: SkillSnapshot): z.output<typeof snapshotResponse> {
  return { ...s, entries: s.entries.map((e) => ({ ...e, origin: e.origin as (typeof SOURCE_KINDS)[number] })) };
}

const scanEntry = z.object({
  workspaceId: uuidOut(),
  path: z.string().describe('the skill folder on disk'),
  key: z.string(),
});

export const scanResponse = z
  .object({
    imported: z.array(scanEntry.extend({ skill: skillResponse })).describe('skills found for the first time'),
    updated: z
      .array(scanEntry.extend({ skill: skillResponse }))
      .describe('skills of an earlier scan whose files changed'),
    skipped: z.array(scanEntry).describe('skills of an earlier scan, unchanged'),
    conflicts: z
      .array(scanEntry.extend({ reason: z.string() }))
      .describe('keys held by another source, or given twice in one workspace: reported, not overwritten'),
    warnings: z.array(z.string()),
  })
  .describe('What a scan found');

export function presentScan(r: ScanResult): z.output<typeof scanResponse> {
  const withSkill = (e: ScanResult['imported'][number]) => ({
    workspaceId: e.workspaceId,
    path: e.path,
    key: e.key,
    skill: presentSkill(e.skill),
  });
  return {
    imported: r.imported.map(withSkill),
    updated: r.updated.map(withSkill),
    skipped: r.skipped,
    conflicts: r.conflicts,
    warnings: r.warnings,
  };
}

export const updateStatusResponse = z
  .object({
    supported: z
      .boolean()
      .describe('false for bundled, local, scanned, managed and URL skills (they have no commit pin)'),
    reason: z.string().optional().describe('why it is unsupported'),
    pinnedCommit: z.string().nullable(),
    latestCommit: z.string().nullable().describe('the commit the tracking ref names now'),
    updateAvailable: z.boolean(),
    trackingRef: z.string().nullable(),
    checkedAt: timestampOut(),
  })
  .describe('Whether a code-host or catalog skill is behind its tracking ref');

export const installUpdateResponse = z
  .object({
    skill: skillResponse,
    status: z.enum(['updated', 'unchanged']),
    previousCommit: z.string(),
    commit: z.string().describe('the new pin'),
  })
  .describe('What install-update did');

export const presentInstallUpdate = (r: {
  skill: Skill;
  status: 'updated' | 'unchanged';
  previousCommit: string;
  commit: string;
}): z.output<typeof installUpdateResponse> => ({ ...r, skill: presentSkill(r.skill) });
