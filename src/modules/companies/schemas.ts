import { z } from 'zod';

export const companyStatus = z.enum(['active', 'paused', 'archived']);
export const brandColor = z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'a hex colour such as #1a2b3c');
export const budgetCents = z.number().int().min(0).max(2_000_000_000);

export const createCompanyBody = z.object({
  name: z.string().trim().min(1).max(200),
  description: z.string().max(10_000).nullish(),
  budgetMonthlyCents: budgetCents.optional(),
  requireBoardApprovalForNewAgents: z.boolean().optional(),
  brandColor: brandColor.nullish(),
});

export const brandingBody = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  description: z.string().max(10_000).nullish(),
  brandColor: brandColor.nullish(),
  logoAssetId: z.uuid().nullish(),
});

export const patchCompanyBody = brandingBody.extend({
  budgetMonthlyCents: budgetCents.optional(),
  status: companyStatus.optional(),
  requireBoardApprovalForNewAgents: z.boolean().optional(),
});

export type CreateCompany = z.infer<typeof createCompanyBody>;
export type PatchCompany = z.infer<typeof patchCompanyBody>;
export const BRANDING_FIELDS = ['name', 'description', 'brandColor', 'logoAssetId'] as const;
