import { z } from 'zod';
import { budgetCents } from '../../core/fields.ts';

export const companyStatus = z.enum(['active', 'paused', 'archived']);
export const brandColor = z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'a hex colour such as #1a2b3c');

const name = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .describe('company name; the issue prefix is derived from it at creation and does not change');
const description = z.string().max(10_000).nullish().describe('plain text (null clears it)');
const color = brandColor.nullish().describe('hex colour, `#rgb` or `#rrggbb` (null clears it)');
const budgetMonthlyCents = budgetCents
  .optional()
  .describe(
    'monthly budget in cents, UTC calendar month (default 0: no budget); above 0 a budget policy is created or updated, 0 turns it off',
  );
const requireBoardApprovalForNewAgents = z
  .boolean()
  .optional()
  .describe('when true, agent hires create a hire_agent approval and wait for the board (default false)');

export const createCompanyBody = z.object({
  name,
  description,
  budgetMonthlyCents,
  requireBoardApprovalForNewAgents,
  brandColor: color,
});

export const brandingBody = z.object({
  name: name.optional(),
  description,
  brandColor: color,
  logoAssetId: z
    .uuid()
    .nullish()
    .describe(
      'an asset of this company from POST /api/companies/{companyId}/logo (null clears the logo); replacing or clearing removes the previous logo asset',
    ),
});

export const patchCompanyBody = brandingBody.extend({
  budgetMonthlyCents,
  status: companyStatus
    .optional()
    .describe('active, paused or archived; archived hides the company from GET /api/companies'),
  requireBoardApprovalForNewAgents,
});

export type CreateCompany = z.infer<typeof createCompanyBody>;
export type PatchCompany = z.infer<typeof patchCompanyBody>;
export const BRANDING_FIELDS = ['name', 'description', 'brandColor', 'logoAssetId'] as const;
