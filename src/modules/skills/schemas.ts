import { z } from 'zod';
import { skillReferences } from '../../core/fields.ts';
import { MAX_SKILL_FILE_BYTES, MAX_SKILL_PATH_CHARS, isSafeSkillPath } from './package.ts';

export const companyParams = z.object({ companyId: z.uuid().describe('the company') });
export const skillParams = z.object({
  companyId: z.uuid().describe('the company'),
  skillId: z.uuid().describe('the skill'),
});

const skillPath = z
  .string()
  .max(MAX_SKILL_PATH_CHARS)
  .refine(isSafeSkillPath, 'a relative path inside the skill: no leading /, no `..` or `.` segments, no backslashes')
  .describe('a path relative to the skill folder, e.g. `SKILL.md` or `references/api.md`');

export const fileQuery = z.object({ path: skillPath.default('SKILL.md') });

export const updateFileBody = z.object({
  path: skillPath,
  content: z
    .string()
    .max(MAX_SKILL_FILE_BYTES)
    .describe(
      `the whole new text of the file (UTF-8, at most ${MAX_SKILL_FILE_BYTES} characters); a new path adds the file`,
    ),
});

export const createSkillBody = z.object({
  name: z.string().trim().min(1).max(200).describe('the skill name, written to the SKILL.md frontmatter'),
  slug: z
    .string()
    .max(80)
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'kebab-case')
    .optional()
    .describe('kebab-case; derived from the name when omitted. The key is `company/<companyId>/<slug>`'),
  description: z.string().trim().max(2000).optional().describe('routing text the agent reads first'),
});

export const importBody = z.object({
  source: z
    .string()
    .trim()
    .min(1)
    .max(2048)
    .describe(
      'owner/repo[/skill], a code-host repository, tree or blob URL, a catalog URL or install command, an absolute local path, or an http(s) URL of a SKILL.md',
    ),
});

/** Skill references as sync and agent create take them: ids, canonical keys, or slugs unique in the company. */
export const syncBody = z.object({
  desiredSkills: skillReferences.describe(
    'skill ids, canonical keys, or slugs unique in the company (at most 100); the attachments become exactly these plus the required bundled skills (unknown or ambiguous references: 422)',
  ),
});

export const scanBody = z
  .object({
    projectIds: z.array(z.uuid()).max(100).optional().describe('scan the local workspaces of these projects'),
    workspaceIds: z
      .array(z.uuid())
      .max(200)
      .optional()
      .describe('and these workspaces; with neither, every local workspace of the company'),
  })
  .default({});
