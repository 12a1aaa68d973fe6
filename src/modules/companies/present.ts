import type { Company } from '../../core/access.ts';

export const assetContentPath = (assetId: string) => `/api/assets/${assetId}/content`;

export function presentCompany(company: Company) {
  return {
    id: company.id,
    name: company.name,
    description: company.description,
    status: company.status,
    issuePrefix: company.issuePrefix,
    issueCounter: company.issueCounter,
    budgetMonthlyCents: company.budgetMonthlyCents,
    spentMonthlyCents: company.spentMonthlyCents,
    requireBoardApprovalForNewAgents: company.requireBoardApprovalForNewAgents,
    brandColor: company.brandColor,
    logoAssetId: company.logoAssetId,
    logoUrl: company.logoAssetId ? assetContentPath(company.logoAssetId) : null,
    createdAt: company.createdAt,
    updatedAt: company.updatedAt,
  };
}
