// Projects and their workspaces. Any caller with access to the company (board or one of its
// agents) may read and write; SPEC "Projects and workspaces" marks no route board-only.
// Every /api/projects/{projectId} route takes the UUID or the shortname (see lookup.ts).
import { z } from 'zod';
import type { App, AppDeps } from '../../http/deps.ts';
import { requireCompanyAccess } from '../../core/access.ts';
import { authenticated, errors, uuidOut, type ErrorStatus } from '../../http/openapi.ts';
import { actorOf, contextOf } from '../../http/request.ts';
import { listLimitQuery } from '../goals/schemas.ts';
import { requireProjectAccess } from './lookup.ts';
import {
  presentOneProject,
  presentOperation,
  presentProjects,
  presentWorkspace,
  projectResponse,
  withRuntimeService,
  withRuntimeServices,
  workspaceOperationResponse,
  workspaceResponse,
  type Workspace,
} from './present.ts';
import { createProjectBody, patchProjectBody, patchWorkspaceBody, runtimeAction, workspaceBody } from './schemas.ts';
import { createProject, deleteProject, listProjects, updateProject } from './service.ts';
import {
  createWorkspace,
  deleteWorkspace,
  listWorkspaces,
  LOG_TAIL_CHARS,
  MAX_WORKSPACES_PER_PROJECT,
  readRuntimeServiceLog,
  runWorkspaceAction,
  updateWorkspace,
} from './workspaces.ts';

const companyParams = z.object({ companyId: z.uuid().describe('company UUID') });
const projectParams = z.object({
  projectId: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .describe(
      "project UUID, or its shortname (`urlKey`), searched in the caller's companies (narrow with `companyId`)",
    ),
});
const workspaceParams = projectParams.extend({
  workspaceId: z.uuid().describe('workspace UUID (a workspace of this project)'),
});
// Narrows a shortname lookup to one company when the caller can access several.
const projectQuery = z.object({
  companyId: z
    .uuid()
    .optional()
    .describe("company UUID: look the project up in this company only (403 when it is not the caller's)"),
});
const listQuery = z.object({ limit: listLimitQuery.shape.limit.describe('page size, 1 to 1000 (default 1000)') });
const tags = ['projects'];

const ACCESS = 'Any caller with access to the company (board or its agents).';
const LOOKUP =
  "The project is named by UUID or shortname; a shortname matching projects of several of the caller's companies is 409 (pass the UUID or `companyId`).";
const COMPANY_ERRORS: [ErrorStatus, string][] = [
  [403, "the company is not one of the caller's"],
  [404, 'no such company'],
];
const PROJECT_403: [ErrorStatus, string] = [
  403,
  "the project (or `companyId`) belongs to a company that is not the caller's",
];
const PROJECT_404: [ErrorStatus, string] = [404, 'no such project'];
const AMBIGUOUS: [ErrorStatus, string] = [
  409,
  'the shortname matches projects of several companies; `details.matches` lists them',
];
const projectErrors = () => errors(PROJECT_403, PROJECT_404, AMBIGUOUS);
const WORKSPACE_404: [ErrorStatus, string] = [404, 'no such project, or no such workspace in it'];
const WORKSPACE_RULES =
  'A workspace needs `cwd` or `repoUrl`, except `remote_managed`, which needs `remoteWorkspaceRef` or `repoUrl` (422).';

export function registerProjectRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;
  const present = async (ws: Workspace) => presentWorkspace(await withRuntimeService(db, ws));
  const project = (
    request: Parameters<typeof actorOf>[0] & { params: { projectId: string }; query: { companyId?: string } },
  ) => requireProjectAccess(db, actorOf(request), request.params.projectId, request.query.companyId);

  app.get(
    '/api/companies/:companyId/projects',
    {
      schema: {
        tags,
        summary: "List a company's projects",
        description: `Every project (archived included) with its goals and workspaces, oldest first; \`limit\` 1 to 1000 (default 1000). ${ACCESS}`,
        params: companyParams,
        querystring: listQuery,
        response: {
          200: z.array(projectResponse).describe('The projects, oldest first'),
          ...authenticated(),
          ...errors(...COMPANY_ERRORS),
        },
      },
    },
    async (request) => {
      const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
      return presentProjects(db, await listProjects(db, company.id, request.query.limit));
    },
  );

  app.post(
    '/api/companies/:companyId/projects',
    {
      schema: {
        tags,
        summary: 'Create a project',
        description: [
          'Status `backlog` unless given; the colour comes from a palette unless given; a name whose shortname is taken gets a numeric suffix ("Site 2").',
          '`goalIds` (or the legacy `goalId`) must name goals of the company and `leadAgentId` an agent of it (422); env secret references must name secrets of the company (422).',
          `With \`workspace\` the project and its first (primary) workspace are created in one step; an invalid workspace rolls both back (422). ${WORKSPACE_RULES} ${ACCESS}`,
        ].join(' '),
        params: companyParams,
        body: createProjectBody,
        response: {
          201: projectResponse.describe('The project, created'),
          ...authenticated(),
          ...errors(...COMPANY_ERRORS, [
            422,
            'a goal, the lead agent or a secret reference is not of the company, or the workspace breaks a workspace rule',
          ]),
        },
      },
    },
    async (request, reply) => {
      const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
      return reply
        .status(201)
        .send(await presentOneProject(db, await createProject(contextOf(db, request), company.id, request.body)));
    },
  );

  app.get(
    '/api/projects/:projectId',
    {
      schema: {
        tags,
        summary: 'Get a project',
        description: `The project with its goals, codebase and workspaces. ${LOOKUP} ${ACCESS}`,
        params: projectParams,
        querystring: projectQuery,
        response: { 200: projectResponse, ...authenticated(), ...projectErrors() },
      },
    },
    async (request) => {
      return presentOneProject(db, await project(request));
    },
  );

  app.patch(
    '/api/projects/:projectId',
    {
      schema: {
        tags,
        summary: 'Update a project',
        description: [
          'Omitted fields stay. `goalIds` replaces the linked goals (`goalId` stays equal to the first); `archivedAt` archives (a date-time) or unarchives (null); a null `color` picks a palette colour.',
          'A rename whose shortname another project of the company uses is 409. Goals, lead agent and secret references must be of the company (422).',
          `Workspaces have their own routes. ${LOOKUP} ${ACCESS}`,
        ].join(' '),
        params: projectParams,
        querystring: projectQuery,
        body: patchProjectBody,
        response: {
          200: projectResponse.describe('The project, updated'),
          ...authenticated(),
          ...errors(
            PROJECT_403,
            PROJECT_404,
            [409, 'the new shortname is taken in the company, or the shortname in the path is ambiguous'],
            [422, 'a goal, the lead agent or a secret reference is not of the company'],
          ),
        },
      },
    },
    async (request) => {
      return presentOneProject(db, await updateProject(contextOf(db, request), await project(request), request.body));
    },
  );

  app.delete(
    '/api/projects/:projectId',
    {
      schema: {
        tags,
        summary: 'Delete a project',
        description: `Deletes the project with its workspaces and goal links; issues in it keep a null project. Answers the project as it was. ${LOOKUP} ${ACCESS}`,
        params: projectParams,
        querystring: projectQuery,
        response: {
          200: projectResponse.describe('The deleted project, as it was'),
          ...authenticated(),
          ...projectErrors(),
        },
      },
    },
    async (request) => {
      return deleteProject(contextOf(db, request), await project(request));
    },
  );

  app.get(
    '/api/projects/:projectId/workspaces',
    {
      schema: {
        tags,
        summary: "List a project's workspaces",
        description: `Oldest first (a project holds at most ${MAX_WORKSPACES_PER_PROJECT}). ${LOOKUP} ${ACCESS}`,
        params: projectParams,
        querystring: projectQuery,
        response: {
          200: z.array(workspaceResponse).describe('The workspaces, oldest first'),
          ...authenticated(),
          ...projectErrors(),
        },
      },
    },
    async (request) => {
      return (await withRuntimeServices(db, await listWorkspaces(db, (await project(request)).id))).map(
        presentWorkspace,
      );
    },
  );

  app.post(
    '/api/projects/:projectId/workspaces',
    {
      schema: {
        tags,
        summary: 'Add a workspace to a project',
        description: [
          `${WORKSPACE_RULES} The first workspace of a project is primary; \`isPrimary: true\` makes a later one primary and demotes the previous one.`,
          `A project holds at most ${MAX_WORKSPACES_PER_PROJECT} workspaces (422). ${LOOKUP} ${ACCESS}`,
        ].join(' '),
        params: projectParams,
        querystring: projectQuery,
        body: workspaceBody,
        response: {
          201: workspaceResponse.describe('The workspace, created'),
          ...authenticated(),
          ...errors(PROJECT_403, PROJECT_404, AMBIGUOUS, [
            422,
            `a workspace rule is broken, or the project already holds ${MAX_WORKSPACES_PER_PROJECT} workspaces`,
          ]),
        },
      },
    },
    async (request, reply) => {
      return reply
        .status(201)
        .send(await present(await createWorkspace(contextOf(db, request), await project(request), request.body)));
    },
  );

  app.patch(
    '/api/projects/:projectId/workspaces/:workspaceId',
    {
      schema: {
        tags,
        summary: 'Update a workspace',
        description: [
          'Omitted fields stay; the workspace rules are checked on the result (422).',
          '`isPrimary: true` makes it primary (the previous one is demoted); `isPrimary: false` on the primary promotes the oldest other workspace, and the only workspace stays primary (422).',
          `${LOOKUP} ${ACCESS}`,
        ].join(' '),
        params: workspaceParams,
        querystring: projectQuery,
        body: patchWorkspaceBody,
        response: {
          200: workspaceResponse.describe('The workspace, updated'),
          ...authenticated(),
          ...errors(PROJECT_403, WORKSPACE_404, AMBIGUOUS, [
            422,
            'a workspace rule is broken by the result, or the only workspace would stop being primary',
          ]),
        },
      },
    },
    async (request) => {
      return present(
        await updateWorkspace(contextOf(db, request), await project(request), request.params.workspaceId, request.body),
      );
    },
  );

  app.delete(
    '/api/projects/:projectId/workspaces/:workspaceId',
    {
      schema: {
        tags,
        summary: 'Delete a workspace',
        description: `Deletes the workspace and answers it as it was; when it was primary, the oldest remaining workspace becomes primary. ${LOOKUP} ${ACCESS}`,
        params: workspaceParams,
        querystring: projectQuery,
        response: {
          200: workspaceResponse.describe('The deleted workspace, as it was'),
          ...authenticated(),
          ...errors(PROJECT_403, WORKSPACE_404, AMBIGUOUS),
        },
      },
    },
    async (request) => {
      return present(await deleteWorkspace(contextOf(db, request), await project(request), request.params.workspaceId));
    },
  );

  app.post(
    '/api/projects/:projectId/workspaces/:workspaceId/runtime-services/:action',
    {
      schema: {
        tags,
        summary: "Start, stop or restart a workspace's runtime services",
        description: [
          '`start` and `restart` set `desiredState` to `running`, `stop` to `stopped`, and record an operation (status `requested`, `applied` once the engine acted on it).',
          'The engine converges within about a second: `runtimeConfig.command` (a shell command line, run with `/bin/sh -c` in the workspace `cwd`, in its own process group; `runtimeConfig.env`, an object of string values, is added to the environment) is started by one replica;',
          '`stop` kills its process group (SIGTERM, SIGKILL after a grace); `restart` kills it and starts it again; a crash starts it again after a backoff (1 s, doubling, at most 60 s; reset after 30 s up).',
          "The workspace's `runtimeService` shows the live status; the output is read with GET .../runtime-services/logs.",
          'Start and restart need a workspace with a local `cwd` (not remote_managed) and a `runtimeConfig.command` (422, with `details.hasLocalCwd` and `details.hasRuntimeConfig`). No body.',
          `${LOOKUP} ${ACCESS}`,
        ].join(' '),
        params: workspaceParams.extend({ action: runtimeAction.describe('`start`, `stop` or `restart`') }),
        querystring: projectQuery,
        response: {
          200: z
            .object({
              workspace: workspaceResponse.describe('the workspace with its new desiredState'),
              operation: workspaceOperationResponse,
            })
            .describe('The workspace and the recorded operation'),
          ...authenticated(),
          ...errors(PROJECT_403, WORKSPACE_404, AMBIGUOUS, [
            422,
            'start or restart on a workspace without a local cwd or a runtimeConfig.command',
          ]),
        },
      },
    },
    async (request) => {
      const result = await runWorkspaceAction(
        contextOf(db, request),
        await project(request),
        request.params.workspaceId,
        request.params.action,
      );
      return { workspace: await present(result.workspace), operation: presentOperation(result.operation) };
    },
  );

  app.get(
    '/api/projects/:projectId/workspaces/:workspaceId/runtime-services/logs',
    {
      schema: {
        tags,
        summary: "Read a workspace's runtime-service output",
        description: [
          `stdout and stderr of the runtime service, interleaved as written; the last ${LOG_TAIL_CHARS} characters are kept.`,
          'Offsets count characters of everything ever written: pass `nextOffset` back as `offset` to follow. An offset older than the kept tail starts at the oldest kept character (`truncated: true`). `at=end` reads the last `limit` characters instead (the newest output, in one read); it cannot be combined with `offset` (400).',
          `Empty before the service first ran. ${LOOKUP} ${ACCESS}`,
        ].join(' '),
        params: workspaceParams,
        querystring: projectQuery
          .extend({
            offset: z.coerce
              .number()
              .int()
              .min(0)
              .max(Number.MAX_SAFE_INTEGER)
              .optional()
              .describe('absolute character offset (default 0)'),
            at: z.literal('end').optional().describe('`end`: the last `limit` characters written, wherever they start'),
            limit: z.coerce
              .number()
              .int()
              .min(1)
              .max(65_536)
              .default(65_536)
              .describe('characters, 1 to 65536 (default 65536)'),
          })
          .refine((query) => !(query.at && query.offset !== undefined), {
            message: '`at` and `offset` cannot be combined: `at=end` reads the newest output, `offset` a given place',
            path: ['at'],
          }),
        response: {
          200: z
            .object({
              workspaceId: uuidOut(),
              offset: z.number().int().describe('where content starts'),
              nextOffset: z.number().int().describe('the offset to ask next'),
              totalChars: z.number().int().describe('characters written so far'),
              truncated: z.boolean().describe('the asked offset was older than the kept tail'),
              content: z.string(),
            })
            .describe('A slice of the log'),
          ...authenticated(),
          ...errors(PROJECT_403, WORKSPACE_404, AMBIGUOUS),
        },
      },
    },
    async (request) => {
      const { offset, at, limit } = request.query;
      return readRuntimeServiceLog(
        db,
        await project(request),
        request.params.workspaceId,
        at ? { at } : { offset: offset ?? 0 },
        limit,
      );
    },
  );
}
