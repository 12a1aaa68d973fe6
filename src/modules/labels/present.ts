import { z } from 'zod';
import type { labels } from '../../db/schema/index.ts';
import { timestampOut, uuidOut } from '../../http/openapi.ts';
import { LABEL_COLORS, type LabelColor } from './schemas.ts';

export type Label = typeof labels.$inferSelect;

export const labelResponse = z
  .object({
    id: uuidOut(),
    companyId: uuidOut(),
    name: z.string(),
    color: z.enum(LABEL_COLORS).describe(`the tone it is drawn in: ${LABEL_COLORS.join(', ')}`),
    createdAt: timestampOut(),
    updatedAt: timestampOut(),
  })
  .describe('The label');

export type LabelResponse = z.output<typeof labelResponse>;

export const deletedLabelResponse = labelResponse
  .extend({ removedFromIssues: z.number().int().describe('issues whose labelIds held it') })
  .describe('The deleted label');

export function presentLabel(label: Label): LabelResponse {
  return {
    id: label.id,
    companyId: label.companyId,
    name: label.name,
    color: label.color as LabelColor,
    createdAt: label.createdAt,
    updatedAt: label.updatedAt,
  };
}
