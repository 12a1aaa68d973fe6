// Secret responses show metadata only; the value and its ciphertext never leave the service.
import type { secrets } from '../../db/schema/index.ts';

export type Secret = typeof secrets.$inferSelect;

export function presentSecret(s: Secret) {
  return {
    id: s.id,
    companyId: s.companyId,
    name: s.name,
    provider: s.provider,
    externalRef: s.externalRef,
    latestVersion: s.latestVersion,
    description: s.description,
    createdByAgentId: s.createdByAgentId,
    createdByUserId: s.createdByUserId,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}
