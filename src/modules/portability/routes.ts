// Company portability (issue 20, SPEC section 4): export a company as a bundle of markdown files,
// import one as a new company or into an existing one. docs/portability.md is the user's guide.
import { z } from 'zod';
import type { App, AppDeps } from '../../http/deps.ts';
import { authenticated, errors } from '../../http/openapi.ts';
import { actorOf } from '../../http/request.ts';
import { BUNDLE_BODY_LIMIT, BUNDLE_LIMITS } from './bundle.ts';
import { EXPORT_CAPS } from './export.ts';
import {
  companyImportBody,
  exportBody,
  exportPreviewResponse,
  exportResponse,
  importApplyResponse,
  importBody,
  importPreviewResponse,
} from './schemas.ts';
import { applyImportRequest, exportBundle, inventoryOf, previewImport } from './service.ts';

const tags = ['portability'];
const companyParams = z.object({ companyId: z.uuid().describe('company UUID') });

const LIMITS = `Bundle limits: at most ${BUNDLE_LIMITS.maxFiles} files, ${BUNDLE_LIMITS.maxFileBytes} bytes a file, ${BUNDLE_LIMITS.maxTotalBytes} bytes in all (413 beyond).`;
const EXPORT_NOTE = [
  'The bundle (`agentcompanies/v1`, docs/portability.md): COMPANY.md, agents/<slug>/AGENTS.md, projects/, goals/, tasks/ (issues with their documents, routines with `recurring: true`), skills/, images/logo, blobs/<sha256> for attachments, README.md and .boardroom.yaml.',
  '`include` defaults to the company and its agents. Secrets never leave: a secret reference in an env, and a plain env value whose name looks sensitive, become declared inputs (`manifest.envInputs`) with no value. Absolute paths and commands are listed in `manifest.systemDependent`; workspace paths are left out unless `includeWorkspacePaths`.',
  `Read in one consistent snapshot. At most ${EXPORT_CAPS.issues} issues and ${EXPORT_CAPS.agents} agents a bundle (413 beyond: export a selection). ${LIMITS}`,
].join(' ');
const IMPORT_NOTE = [
  'Collision strategies: `rename` (default) creates a record whose key is taken under a new name (`Name 2`, `slug-2`), `skip` keeps the existing one (references resolve to it), `replace` overwrites it.',
  'Keys: agents and projects by slug, skills by key, goals, tasks and routines by title. Imported agents and routines start paused. `secretValues` become company secrets the envs reference at `latest`.',
  `Paths with "..", absolute paths or NUL are 400; an unknown future bundle schema is 422 naming it. ${LIMITS}`,
].join(' ');

export function registerPortabilityRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;
  const applyDeps = { storage: deps.storage, masterKey: deps.config.masterKey };
  const exportErrors = (who: string) =>
    errors(
      [403, who],
      [404, 'no such company'],
      [413, 'the company is larger than a bundle may be (see the description): export a selection'],
    );

  app.post(
    '/api/companies/:companyId/export',
    {
      schema: {
        tags,
        summary: 'Export a company as a bundle',
        description: `Any caller with access to the company (its board members and its agents; 403 for another company). ${EXPORT_NOTE}`,
        params: companyParams,
        body: exportBody,
        response: {
          200: exportResponse.describe('The bundle: files by path, a manifest and warnings'),
          ...authenticated(),
          ...exportErrors("the company is not one of the caller's"),
        },
      },
    },
    async (request) =>
      exportBundle(db, deps.storage, actorOf(request), {
        companyId: request.params.companyId,
        body: request.body,
        strict: false,
      }),
  );

  app.post(
    '/api/companies/:companyId/exports',
    {
      schema: {
        tags,
        summary: 'Export a company as a bundle (board or CEO)',
        description: `The board, or the company's CEO agent (other agents 403). The same bundle as POST /export. ${EXPORT_NOTE}`,
        params: companyParams,
        body: exportBody,
        response: {
          200: exportResponse.describe('The bundle'),
          ...authenticated(),
          ...exportErrors("the company is not one of the caller's, or the caller is an agent other than its CEO"),
        },
      },
    },
    async (request) =>
      exportBundle(db, deps.storage, actorOf(request), {
        companyId: request.params.companyId,
        body: request.body,
        strict: true,
      }),
  );

  app.post(
    '/api/companies/:companyId/exports/preview',
    {
      schema: {
        tags,
        summary: 'Preview a company export',
        description: `The board, or the company's CEO agent (other agents 403). What POST /exports would answer, without file contents: each file's path, kind and size, and the counts. ${EXPORT_NOTE}`,
        params: companyParams,
        body: exportBody,
        response: {
          200: exportPreviewResponse.describe("The bundle's inventory and manifest"),
          ...authenticated(),
          ...exportErrors("the company is not one of the caller's, or the caller is an agent other than its CEO"),
        },
      },
    },
    async (request) =>
      inventoryOf(
        await exportBundle(db, deps.storage, actorOf(request), {
          companyId: request.params.companyId,
          body: request.body,
          strict: true,
        }),
      ),
  );

  const importErrors = (who: string, unprocessableMeaning: string) =>
    errors(
      [403, who],
      [404, 'the target company does not exist'],
      [
        409,
        'a write broke a database rule the plan does not check (two primary workspaces of one project, a record created at the same moment): nothing was imported',
      ],
      [413, 'the bundle is beyond the limits (see the description)'],
      [415, "the bundle's logo is not an accepted image type"],
      [422, unprocessableMeaning],
    );

  app.post(
    '/api/companies/import/preview',
    {
      bodyLimit: BUNDLE_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Preview an import',
        description: `Board only (agents 403); an existing target must be one of the caller's companies. Plans the import without writing anything: per record create, update or skip, with the name it would get and why; the warnings, the errors that would stop apply, and the inputs the bundle declares. ${IMPORT_NOTE}`,
        body: importBody,
        response: {
          200: importPreviewResponse.describe('The plan'),
          ...authenticated(),
          ...importErrors(
            "the caller is an agent, the target company is not one of the caller's, or a `path` source from a caller other than the instance owner",
            'an unknown bundle schema, or a file the bundle cannot parse',
          ),
        },
      },
    },
    async (request) => previewImport(db, actorOf(request), request.body),
  );

  app.post(
    '/api/companies/import',
    {
      bodyLimit: BUNDLE_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Import a bundle',
        description: `Board only (agents 403); an existing target must be one of the caller's companies. Plans again and applies the plan in one transaction: nothing is half-imported on failure. 422 while the plan has errors (\`details.errors\`). ${IMPORT_NOTE}`,
        body: importBody,
        response: {
          201: importApplyResponse.describe('What was created, updated or skipped'),
          ...authenticated(),
          ...importErrors(
            "the caller is an agent, the target company is not one of the caller's, or a `path` source from a caller other than the instance owner",
            'the plan has errors, an unknown bundle schema, or a file the bundle cannot parse',
          ),
        },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await applyImportRequest(db, actorOf(request), applyDeps, request.body)),
  );

  app.post(
    '/api/companies/:companyId/imports/preview',
    {
      bodyLimit: BUNDLE_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Preview an import into this company',
        description: `The board, or the company's CEO agent (other agents 403). Like POST /api/companies/import/preview with the target fixed to this company; \`replace\` shows as a plan error, since /imports/apply refuses it. ${IMPORT_NOTE}`,
        params: companyParams,
        body: companyImportBody,
        response: {
          200: importPreviewResponse.describe('The plan'),
          ...authenticated(),
          ...importErrors(
            "the company is not one of the caller's, or the caller is an agent other than its CEO",
            'a `target` other than this company, an unknown bundle schema, or a file the bundle cannot parse',
          ),
        },
      },
    },
    async (request) => previewImport(db, actorOf(request), request.body, request.params.companyId),
  );

  app.post(
    '/api/companies/:companyId/imports/apply',
    {
      bodyLimit: BUNDLE_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Import a bundle into this company',
        description: `The board, or the company's CEO agent (other agents 403). Like POST /api/companies/import with the target fixed to this company; the \`replace\` strategy is refused (422). ${IMPORT_NOTE}`,
        params: companyParams,
        body: companyImportBody,
        response: {
          201: importApplyResponse.describe('What was created, updated or skipped'),
          ...authenticated(),
          ...importErrors(
            "the company is not one of the caller's, or the caller is an agent other than its CEO",
            '`replace`, a `target` other than this company, the plan has errors, an unknown bundle schema, or a file the bundle cannot parse',
          ),
        },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await applyImportRequest(db, actorOf(request), applyDeps, request.body, request.params.companyId)),
  );
}
