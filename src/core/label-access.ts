// The label side of the company boundary: the labels an issue names (`labelIds`) must be labels of
// the company (422 otherwise, naming the unknown ids; a missing label and another company's
// answer the same, so callers learn nothing about other companies). The labels area (which deletes
// labels) and the issues area (which stores their ids) both meet here, below either.
import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { labels } from '../db/schema/index.ts';
import { unprocessable } from './errors.ts';

/**
 * 422 unless every id names a label of `companyId`. The rows are share-locked for the rest of the
 * caller's transaction: a label being deleted meanwhile either is gone here (422) or waits for this
 * issue write to commit and then strips the id from it, so no issue keeps a deleted label's id.
 */
export async function assertLabelsInCompany(tx: DbOrTx, companyId: string, labelIds: string[]): Promise<void> {
  if (labelIds.length === 0) return;
  const found = await tx
    .select({ id: labels.id })
    .from(labels)
    .where(and(eq(labels.companyId, companyId), inArray(labels.id, labelIds)))
    .for('key share');
  const known = new Set(found.map((label) => label.id));
  const unknown = labelIds.filter((id) => !known.has(id));
  if (unknown.length > 0)
    throw unprocessable(`labelIds must name labels of the issue's company; unknown: ${unknown.join(', ')}`, {
      labelIds: unknown,
    });
}
