import { z } from 'zod';
import type { App, AppDeps } from '../../http/deps.ts';
import { requireCompanyAccess } from '../../core/access.ts';
import { ACTIONS } from '../../core/permissions.ts';
import { authenticated, errors, type ErrorStatus } from '../../http/openapi.ts';
import { actorOf, contextOf } from '../../http/request.ts';
import { CODEHOST_TIMEOUT_MS } from './codehost.ts';
import { importSkills, MAX_IMPORTED_SKILLS, MAX_URL_BYTES, URL_TIMEOUT_MS } from './import.ts';
import { installUpdate, updateStatus } from './updates.ts';
import { MAX_SKILL_BYTES, MAX_SKILL_FILES } from './package.ts';
import { MAX_SCANNED_PER_WORKSPACE, scanProjects, WELL_KNOWN_FOLDERS } from './scan.ts';
import {
  importResponse,
  installUpdateResponse,
  presentImport,
  presentInstallUpdate,
  updateStatusResponse,
  presentScan,
  scanResponse,
  presentSkill,
  presentSkillDetail,
  presentSkillFile,
  skillDetailResponse,
  skillFileResponse,
  skillResponse,
} from './present.ts';
import {
  companyParams,
  createSkillBody,
  fileQuery,
  importBody,
  scanBody,
  skillParams,
  updateFileBody,
} from './schemas.ts';
import {
  createManagedSkill,
  deleteSkill,
  listSkills,
  MAX_LISTED_SKILLS,
  readSkillFile,
  requireSkill,
  skillDetail,
  updateSkillFile,
} from './service.ts';

const tags = ['skills'];
const COMPANY_ERRORS: [ErrorStatus, string][] = [
  [403, "the company is not one of the caller's"],
  [404, 'no such company'],
];
const SKILL_ERRORS: [ErrorStatus, string][] = [
  [403, "the company is not one of the caller's"],
  [404, 'no such company, or no such skill in it (a skill of another company under this path too)'],
];
const MANAGE = 'The board, or an agent of the company with `permissions.canCreateAgents` (other agents 403).';
const MANAGE_DENIED = ACTIONS['skill.create'].denied;

export function registerSkillRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;

  app.get(
    '/api/companies/:companyId/skills',
    {
      schema: {
        tags,
        summary: "List a company's skills",
        description: `Every skill of the company by name (at most ${MAX_LISTED_SKILLS}). The bundled skills (among them \`boardroom-api\`, which teaches an agent this API) are re-imported on every call, so they follow the server release. Any caller with access to the company.`,
        params: companyParams,
        response: {
          200: z.array(skillResponse).describe('The skills, by name'),
          ...authenticated(),
          ...errors(...COMPANY_ERRORS),
        },
      },
    },
    async (request) => {
      const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
      return (await listSkills(db, company.id)).map(presentSkill);
    },
  );

  app.post(
    '/api/companies/:companyId/skills',
    {
      schema: {
        tags,
        summary: 'Create an empty managed skill',
        description: `A \`managed_local\` skill whose SKILL.md holds the name, slug and description as frontmatter; its key is \`company/<companyId>/<slug>\` (409 when taken). Fill it with PATCH .../files. ${MANAGE}`,
        params: companyParams,
        body: createSkillBody,
        response: {
          201: skillResponse,
          ...authenticated(),
          ...errors(
            [403, `another company, or ${MANAGE_DENIED}`],
            [404, 'no such company'],
            [409, 'a skill with this key exists'],
          ),
        },
      },
    },
    async (request, reply) => {
      const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
      return reply
        .status(201)
        .send(presentSkill(await createManagedSkill(contextOf(db, request), company.id, request.body)));
    },
  );

  app.post(
    '/api/companies/:companyId/skills/import',
    {
      schema: {
        tags,
        summary: 'Import skills',
        description: [
          '`source` is one of: `owner/repo` (the default branch: a root SKILL.md and every skill under `skills/`, else every SKILL.md), `owner/repo/skill` (one skill by folder name or slug),',
          'a code-host repository URL `https://github.com/owner/repo`, a `/tree/<ref>/<path>` URL (the skills at or under the path of that ref) or a `/blob/<ref>/<path>/SKILL.md` URL (that one skill);',
          'a catalog-site URL `<catalog>/owner/repo[/skill]` or its install command `npx skills add <owner/repo | repository URL> [--skill <skill>]` (stored with sourceKind `catalog`, the text sent kept as sourceLocator and metadata.catalogLocator);',
          'an absolute local path on the server (a SKILL.md, a folder with one, or a folder with many: every folder holding a SKILL.md, at most',
          `${MAX_IMPORTED_SKILLS}); or an http(s) URL of a SKILL.md (downloaded within ${URL_TIMEOUT_MS / 1000} s and ${MAX_URL_BYTES} bytes).`,
          `Code-host forms resolve the ref to a commit and read the files there (each call within ${CODEHOST_TIMEOUT_MS / 1000} s); the skill records the pin in metadata.sources[0] (kind, repo, path, commit, trackingRef, hostname) and its key is \`<owner>/<repo>/<slug>\`. A code host that fails, or a repository or ref it does not know, is 422 with the reason.`,
          `Each skill: frontmatter parsed (flat scalars, nested objects and lists; 422 otherwise), slug and canonical key derived, files classified and trust level set (at most ${MAX_SKILL_FILES} files, ${MAX_SKILL_BYTES} bytes; symlinks and hidden files skipped),`,
          'stored as one record per (company, key): a re-import updates it. A key held by a bundled or managed skill is skipped with a warning; 409 when nothing was imported.',
          `Writes the activity entry \`company.skills_imported\` and the local telemetry event \`skill_imported\` (stored in this server's database, never sent). ${MANAGE}`,
        ].join(' '),
        params: companyParams,
        body: importBody,
        response: {
          200: importResponse,
          ...authenticated(),
          ...errors(
            [403, `another company, or ${MANAGE_DENIED}`],
            [404, 'no such company'],
            [409, 'every skill found conflicts with a bundled or managed skill (see `details.warnings`)'],
            [
              422,
              'unsupported source form, nothing found, an invalid SKILL.md, a bound exceeded, or a failed download',
            ],
          ),
        },
      },
    },
    async (request) => {
      const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
      return presentImport(
        await importSkills(contextOf(db, request), company.id, request.body.source, { codeHost: deps.config.codeHost }),
      );
    },
  );

  app.post(
    '/api/companies/:companyId/skills/scan-projects',
    {
      schema: {
        tags,
        summary: "Find skills in the company's project workspaces",
        description: [
          'Searches each local workspace (optionally only those of `projectIds` and `workspaceIds`; unknown ids 422) for a SKILL.md in one folder per skill under',
          `${WELL_KNOWN_FOLDERS.map((f) => `\`${f}/\``).join(', ')}, and at the workspace root (there only references/, scripts/ and assets/ are taken).`,
          `Found skills are stored as \`project_scan\` skills keyed \`project/<workspaceId>/<slug>\` (at most ${MAX_SCANNED_PER_WORKSPACE} per workspace).`,
          'Non-destructive: files are only read; a key held by another source, or given twice in one workspace, is reported under `conflicts` and not overwritten.',
          `Writes \`company.skills_imported\` when anything was stored. ${MANAGE}`,
        ].join(' '),
        params: companyParams,
        body: scanBody,
        response: {
          200: scanResponse,
          ...authenticated(),
          ...errors(
            [403, `another company, or ${MANAGE_DENIED}`],
            [404, 'no such company'],
            [422, 'a project or workspace id not in this company'],
          ),
        },
      },
    },
    async (request) => {
      const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
      return presentScan(await scanProjects(contextOf(db, request), company.id, request.body ?? {}));
    },
  );

  app.get(
    '/api/companies/:companyId/skills/:skillId',
    {
      schema: {
        tags,
        summary: 'Get a skill with its files and usage',
        description:
          'The skill, its file inventory (path, kind, size) and the agents it is attached to. Any caller with access to the company.',
        params: skillParams,
        response: { 200: skillDetailResponse, ...authenticated(), ...errors(...SKILL_ERRORS) },
      },
    },
    async (request) => {
      const skill = await requireSkill(db, actorOf(request), request.params.companyId, request.params.skillId);
      return presentSkillDetail(await skillDetail(db, skill));
    },
  );

  app.get(
    '/api/companies/:companyId/skills/:skillId/files',
    {
      schema: {
        tags,
        summary: 'Read a file of a skill',
        description:
          'Query `path` (default `SKILL.md`): a relative path inside the skill; absolute paths, `..` segments and backslashes are 400. Any caller with access to the company.',
        params: skillParams,
        querystring: fileQuery,
        response: {
          200: skillFileResponse,
          ...authenticated(),
          ...errors([403, "the company is not one of the caller's"], [404, 'no such company, skill, or file']),
        },
      },
    },
    async (request) => {
      const skill = await requireSkill(db, actorOf(request), request.params.companyId, request.params.skillId);
      return presentSkillFile(skill, await readSkillFile(db, skill, request.query.path));
    },
  );

  app.patch(
    '/api/companies/:companyId/skills/:skillId/files',
    {
      schema: {
        tags,
        summary: 'Write a file of an editable skill',
        description: [
          'Replaces (or adds) one text file. A new SKILL.md is parsed again: name, description, required and metadata follow it (422 when invalid); slug and key never change.',
          `Trust level is recomputed. Bundled skills are read-only: 403. At most ${MAX_SKILL_FILES} files and ${MAX_SKILL_BYTES} bytes per skill (422). ${MANAGE}`,
        ].join(' '),
        params: skillParams,
        body: updateFileBody,
        response: {
          200: skillResponse,
          ...authenticated(),
          ...errors(
            [403, `another company, a bundled skill, or ${MANAGE_DENIED}`],
            [404, 'no such company or skill'],
            [422, 'an invalid SKILL.md or a bound exceeded'],
          ),
        },
      },
    },
    async (request) => {
      const skill = await requireSkill(db, actorOf(request), request.params.companyId, request.params.skillId);
      return presentSkill(
        await updateSkillFile(contextOf(db, request), skill, request.body.path, request.body.content),
      );
    },
  );

  app.get(
    '/api/companies/:companyId/skills/:skillId/update-status',
    {
      schema: {
        tags,
        summary: 'Whether a code-host skill has an update',
        description: `For code-host and catalog skills: the pinned commit against the commit its tracking ref names now (one code-host call within ${CODEHOST_TIMEOUT_MS / 1000} s; 422 with the reason when the host fails). Other kinds answer \`supported: false\` with the reason. Any caller with access to the company.`,
        params: skillParams,
        response: {
          200: updateStatusResponse,
          ...authenticated(),
          ...errors(...SKILL_ERRORS, [422, 'the code host failed or no longer knows the repository or ref']),
        },
      },
    },
    async (request) => {
      const skill = await requireSkill(db, actorOf(request), request.params.companyId, request.params.skillId);
      return updateStatus(deps.config.codeHost, skill);
    },
  );

  app.post(
    '/api/companies/:companyId/skills/:skillId/install-update',
    {
      schema: {
        tags,
        summary: 'Move a code-host skill to the latest commit',
        description: `Reads the skill's folder again at the commit its tracking ref names now: files replaced, pin (metadata.sources[0].commit) moved, key kept. Writes the activity entry \`company.skill_updated\` and the telemetry event \`skill_imported\`. 409 for skills without a pin (bundled, local, scanned, managed, URL). ${MANAGE}`,
        params: skillParams,
        response: {
          200: installUpdateResponse,
          ...authenticated(),
          ...errors(
            [403, `another company, or ${MANAGE_DENIED}`],
            [404, 'no such company or skill'],
            [409, 'the skill is not a code-host or catalog skill'],
            [422, 'the code host failed, or the skill is no longer there'],
          ),
        },
      },
    },
    async (request) => {
      const skill = await requireSkill(db, actorOf(request), request.params.companyId, request.params.skillId);
      return presentInstallUpdate(await installUpdate(contextOf(db, request), deps.config.codeHost, skill));
    },
  );

  app.delete(
    '/api/companies/:companyId/skills/:skillId',
    {
      schema: {
        tags,
        summary: 'Delete a skill',
        description: `Removes the skill, its files and its attachments to agents. Bundled skills cannot be deleted: 403. ${MANAGE}`,
        params: skillParams,
        response: {
          204: z.null().describe('Deleted'),
          ...authenticated(),
          ...errors([403, `another company, a bundled skill, or ${MANAGE_DENIED}`], [404, 'no such company or skill']),
        },
      },
    },
    async (request, reply) => {
      const skill = await requireSkill(db, actorOf(request), request.params.companyId, request.params.skillId);
      await deleteSkill(contextOf(db, request), skill);
      return reply.status(204).send(null);
    },
  );
}
