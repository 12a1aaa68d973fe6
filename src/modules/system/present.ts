import type { boardApiKeys } from '../../db/schema/index.ts';

export function presentBoardKey(key: typeof boardApiKeys.$inferSelect) {
  return { id: key.id, name: key.name, prefix: key.displayPrefix, createdAt: key.createdAt, lastUsedAt: key.lastUsedAt, revokedAt: key.revokedAt };
}
