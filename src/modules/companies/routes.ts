import { z } from 'zod';
import type { App, AppDeps } from '../../http/deps.ts';
import { requireCompanyAccess, requireAccessible } from '../../core/access.ts';
import { authenticated, errors, multipartBody } from '../../http/openapi.ts';
import { actorOf, contextOf } from '../../http/request.ts';
import { binaryContentResponse } from '../attachments/present.ts';
import { findAsset, LOGO_CONTENT_TYPES, prepareLogo, readMultipartUpload } from '../assets/service.ts';
import {
  companyResponse,
  companyStatsResponse,
  deletedCompanyResponse,
  logoUploadResponse,
  presentCompany,
  presentLogoUpload,
} from './present.ts';
import { brandingBody, createCompanyBody, patchCompanyBody } from './schemas.ts';
import {
  archiveCompany,
  companyStats,
  createCompany,
  deleteCompany,
  listCompanies,
  updateBranding,
  updateCompany,
  uploadLogo,
} from './service.ts';
import { monthlyBudgetOf, monthlyBudgets } from '../budgets/budget-policies.ts';
import type { Company } from '../../core/access.ts';
import { entryOf } from '../../lib/maps.ts';

const companyParams = z.object({ companyId: z.uuid().describe('company UUID') });
const tags = ['companies'];

const createBody = createCompanyBody.meta({
  examples: [{ name: 'Acme Robotics', description: 'Warehouse robots, built by agents', budgetMonthlyCents: 500000 }],
});
const brandingBodyDoc = brandingBody.meta({ examples: [{ name: 'Acme Robotics', brandColor: '#0f766e' }] });
const patchBody = patchCompanyBody.meta({
  examples: [{ description: 'Warehouse robots, built by agents', budgetMonthlyCents: 750000, brandColor: '#0f766e' }],
});

const ACCESS_ERRORS = () => errors([403, "the company is not one of the caller's"], [404, 'no such company']);
const BOARD_ERRORS = () =>
  errors([403, "not a board caller, or the company is not one of the caller's"], [404, 'no such company']);

export function registerCompanyRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;
  const withBudget = async (company: Company) =>
    presentCompany(company, await monthlyBudgetOf(db, 'company', company.id));

  app.get(
    '/api/companies',
    {
      schema: {
        tags,
        summary: 'List your companies',
        description:
          'Board only (agents get 403). The companies the caller is a member of (the instance owner: all), newest first, at most 1000. Archived companies are left out unless `includeArchived=true`.',
        querystring: z.object({
          includeArchived: z.stringbool().default(false).describe('also list archived companies (default false)'),
        }),
        response: {
          200: z.array(companyResponse).describe('The companies, newest first'),
          ...authenticated(),
          ...errors([403, 'the caller is an agent: board only']),
        },
      },
    },
    async (request) => {
      const list = await listCompanies(contextOf(db, request), request.query.includeArchived);
      const budgets = await monthlyBudgets(
        db,
        'company',
        list.map((c) => c.id),
      );
      return list.map((c) => presentCompany(c, entryOf(budgets, c.id, 'monthly budget')));
    },
  );

  app.get(
    '/api/companies/stats',
    {
      schema: {
        tags,
        summary: 'Count agents and issues per company',
        description:
          'Board only (agents get 403). For every company the caller can access, archived included (at most 1000): non-terminated agents and issues created so far.',
        response: {
          200: companyStatsResponse,
          ...authenticated(),
          ...errors([403, 'the caller is an agent: board only']),
        },
      },
    },
    async (request) => {
      return companyStats(contextOf(db, request));
    },
  );

  app.post(
    '/api/companies',
    {
      schema: {
        tags,
        summary: 'Create a company',
        description: [
          'Board only (agents get 403). The caller becomes a member (owner) of the new company.',
          'The issue prefix is the first three letters of the name (`Acme` gives `ACM`), then `ACM2`, `ACM3`... when taken. A positive `budgetMonthlyCents` also creates the monthly company budget policy.',
        ].join(' '),
        body: createBody,
        response: {
          201: companyResponse.describe('The company, created'),
          ...authenticated(),
          ...errors([403, 'the caller is an agent: board only']),
        },
      },
    },
    async (request, reply) => {
      return reply.status(201).send(await withBudget(await createCompany(contextOf(db, request), request.body)));
    },
  );

  app.get(
    '/api/companies/:companyId',
    {
      schema: {
        tags,
        summary: 'Get a company',
        description:
          'Any caller with access to the company: its board members and its own agents (403 for another company).',
        params: companyParams,
        response: { 200: companyResponse, ...authenticated(), ...ACCESS_ERRORS() },
      },
    },
    async (request) => {
      return withBudget(await requireCompanyAccess(db, actorOf(request), request.params.companyId));
    },
  );

  app.patch(
    '/api/companies/:companyId',
    {
      schema: {
        tags,
        summary: 'Update a company',
        description: [
          'Omitted fields stay unchanged. The board may change every field; the company\'s CEO agent (`role: "ceo"`) only the branding fields (name, description, brandColor, logoAssetId), other agents nothing (403, with the refused fields in `details`).',
          'A `budgetMonthlyCents` change keeps the company budget policy in step. `logoAssetId` must name an asset of this company (422 otherwise).',
        ].join(' '),
        params: companyParams,
        body: patchBody,
        response: {
          200: companyResponse.describe('The company, updated'),
          ...authenticated(),
          ...errors(
            [
              403,
              "the company is not one of the caller's, the caller is an agent other than its CEO, or a CEO agent sent a non-branding field",
            ],
            [404, 'no such company'],
            [422, '`logoAssetId` names no asset, or an asset of another company'],
          ),
        },
      },
    },
    async (request) => {
      const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
      return withBudget(await updateCompany(contextOf(db, request), company, request.body));
    },
  );

  app.patch(
    '/api/companies/:companyId/branding',
    {
      schema: {
        tags,
        summary: "Update a company's branding",
        description:
          "Name, description, brand colour and logo; omitted fields stay unchanged. The board, or the company's CEO agent (other agents get 403). `logoAssetId` must name an asset of this company (422 otherwise); upload one first with POST /api/companies/{companyId}/logo.",
        params: companyParams,
        body: brandingBodyDoc,
        response: {
          200: companyResponse.describe('The company, with its new branding'),
          ...authenticated(),
          ...errors(
            [403, "the company is not one of the caller's, or the caller is an agent other than its CEO"],
            [404, 'no such company'],
            [422, '`logoAssetId` names no asset, or an asset of another company'],
          ),
        },
      },
    },
    async (request) => {
      const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
      return withBudget(await updateBranding(contextOf(db, request), company, request.body));
    },
  );

  app.post(
    '/api/companies/:companyId/logo',
    {
      schema: {
        tags,
        summary: 'Upload a company logo',
        description: [
          "A `multipart/form-data` body with one file part named `file`. Stores the image as an asset of the company; it does not change the logo: set the answer's `assetId` as `logoAssetId` with PATCH.",
          `Accepted types: ${LOGO_CONTENT_TYPES.join(', ')} (others 415). SVG is sanitised (scripts, external references and styles removed); an empty or unsafe SVG is 400.`,
          `At most \`BOARDROOM_MAX_UPLOAD_BYTES\` (${deps.config.maxUploadBytes} bytes on this server). Any caller with access to the company.`,
        ].join(' '),
        params: companyParams,
        ...multipartBody({
          file: { description: `the image: ${LOGO_CONTENT_TYPES.join(', ')}`, file: true, required: true },
        }),
        response: {
          201: logoUploadResponse,
          ...authenticated(),
          ...errors(
            [
              400,
              'malformed or cut-off multipart body, no part named `file`, an empty or unsafe SVG, or invalid path parameters',
            ],
            [403, "the company is not one of the caller's"],
            [404, 'no such company'],
            [413, `the file is over the upload limit (${deps.config.maxUploadBytes} bytes)`],
            [415, 'the body is not multipart/form-data, or the image type is not accepted'],
          ),
        },
      },
    },
    async (request, reply) => {
      const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
      const file = await prepareLogo(await readMultipartUpload(request, deps.config.maxUploadBytes));
      const asset = await uploadLogo(contextOf(db, request), deps.storage, company, file);
      return reply.status(201).send(presentLogoUpload(asset));
    },
  );

  app.post(
    '/api/companies/:companyId/archive',
    {
      schema: {
        tags,
        summary: 'Archive a company',
        description:
          'Board only (agents get 403). Sets `status` to `archived`: the company leaves GET /api/companies unless `includeArchived=true`; its data stays. Archiving again is harmless. PATCH `status` brings it back.',
        params: companyParams,
        response: { 200: companyResponse.describe('The company, archived'), ...authenticated(), ...BOARD_ERRORS() },
      },
    },
    async (request) => {
      return withBudget(await archiveCompany(contextOf(db, request), request.params.companyId));
    },
  );

  app.delete(
    '/api/companies/:companyId',
    {
      schema: {
        tags,
        summary: 'Delete a company and all its data',
        description:
          'Board only (agents get 403). Irreversible: removes the company with its agents, issues, goals, projects, approvals, secrets, assets and activity log. To keep the data, archive instead.',
        params: companyParams,
        response: { 200: deletedCompanyResponse, ...authenticated(), ...BOARD_ERRORS() },
      },
    },
    async (request) => {
      const company = await deleteCompany(contextOf(db, request), request.params.companyId);
      return { ok: true as const, id: company.id };
    },
  );

  app.get(
    '/api/assets/:assetId/content',
    {
      schema: {
        tags: ['assets'],
        summary: "Download an asset's bytes",
        description:
          "The stored bytes (a company logo's `logoUrl` points here) with the `Content-Type` stored at upload, `X-Content-Type-Options: nosniff` and a sandboxing `Content-Security-Policy`. Any caller with access to the asset's company.",
        params: z.object({
          assetId: z.uuid().describe('asset UUID (`logoAssetId` of a company, `assetId` of an upload)'),
        }),
        response: {
          200: binaryContentResponse('The bytes, in the content type stored at upload'),
          ...authenticated(),
          ...errors([403, 'the asset belongs to another company'], [404, 'no such asset']),
        },
      },
    },
    async (request, reply) => {
      const asset = await requireAccessible(db, actorOf(request), await findAsset(db, request.params.assetId), 'asset');
      const bytes = await deps.storage.get(asset.sha256);
      return (
        reply
          .header('content-type', asset.contentType)
          .header('x-content-type-options', 'nosniff')
          // Uploaded SVG is sanitised, and a CSP stops anything that slipped through from running.
          .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
          .send(bytes)
      );
    },
  );
}
