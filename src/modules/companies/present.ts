// Company responses (SPEC section 2, Company) and the logo upload answer.
import { z } from 'zod';
import type { Company } from '../../core/access.ts';
import { timestampOut, uuidOut } from '../../http/openapi.ts';
import type { Asset } from '../../db/rows.ts';
import { companyStatus } from './schemas.ts';
import type { MonthlyBudget } from '../budgets/budget-policies.ts';

export const assetContentPath = (assetId: string) => `/api/assets/${assetId}/content`;

export const companyResponse = z
  .object({
    id: uuidOut(),
    name: z.string(),
    description: z.string().nullable(),
    status: companyStatus.describe('`archived` companies leave GET /api/companies unless `includeArchived=true`'),
    issuePrefix: z
      .string()
      .describe(
        'prefix of issue identifiers (`ACM` in `ACM-12`): the first three letters of the name, with a number when taken',
      ),
    issueCounter: z.number().int().describe('the number the next issue gets'),
    budgetMonthlyCents: z
      .number()
      .int()
      .describe('monthly budget in cents (UTC calendar month); 0 means no budget policy'),
    spentMonthlyCents: z.number().int().describe('spend of the current UTC month, in cents'),
    requireBoardApprovalForNewAgents: z.boolean().describe('when true, agent hires wait for a board approval'),
    brandColor: z.string().nullable().describe('hex colour, `#rgb` or `#rrggbb`'),
    logoAssetId: uuidOut().nullable().describe('the logo asset (uploaded with POST /api/companies/{companyId}/logo)'),
    logoUrl: z.string().nullable().describe('read-only, derived from logoAssetId: `/api/assets/{assetId}/content`'),
    createdAt: timestampOut(),
    updatedAt: timestampOut(),
  })
  .describe('The company');

export type CompanyResponse = z.output<typeof companyResponse>;

export function presentCompany(company: Company, budget: MonthlyBudget): CompanyResponse {
  return {
    id: company.id,
    name: company.name,
    description: company.description,
    status: company.status as CompanyResponse['status'],
    issuePrefix: company.issuePrefix,
    issueCounter: company.issueCounter,
    budgetMonthlyCents: budget.budgetMonthlyCents,
    spentMonthlyCents: budget.spentMonthlyCents,
    requireBoardApprovalForNewAgents: company.requireBoardApprovalForNewAgents,
    brandColor: company.brandColor,
    logoAssetId: company.logoAssetId,
    logoUrl: company.logoAssetId ? assetContentPath(company.logoAssetId) : null,
    createdAt: company.createdAt,
    updatedAt: company.updatedAt,
  };
}

export const companyStatsResponse = z
  .record(
    z.string().describe('company id'),
    z.object({
      agentCount: z.number().int().describe('agents that are not terminated'),
      issueCount: z.number().int().describe('issues created so far'),
    }),
  )
  .describe('Counts keyed by company id, for every company the caller can access (archived included)');

export const logoUploadResponse = z
  .object({
    assetId: uuidOut().describe('set it as `logoAssetId` (PATCH the company or its branding) to use the logo'),
    contentPath: z.string().describe('where the bytes are served: `/api/assets/{assetId}/content`'),
    contentType: z
      .string()
      .describe('the image type as uploaded: image/png, image/jpeg, image/jpg, image/webp, image/gif or image/svg+xml'),
    byteSize: z.number().int().describe('stored size in bytes (after sanitising, for SVG)'),
  })
  .describe('The stored logo asset (not yet the company logo)');

export type LogoUploadResponse = z.output<typeof logoUploadResponse>;

export function presentLogoUpload(asset: Asset): LogoUploadResponse {
  return {
    assetId: asset.id,
    contentPath: assetContentPath(asset.id),
    contentType: asset.contentType,
    byteSize: asset.byteSize,
  };
}

export const deletedCompanyResponse = z
  .object({ ok: z.literal(true), id: uuidOut().describe('the deleted company') })
  .describe('The company and everything it owned were deleted');
