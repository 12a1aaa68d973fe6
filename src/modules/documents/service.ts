// Issue documents: keyed, revisioned markdown with optimistic concurrency on baseRevisionId
// (SPEC "Document rules").
import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { issueDocumentRevisions, issueDocuments } from '../../db/schema/index.ts';
import type { Ctx } from '../../core/context.ts';
import { assertMayPutDocument, issueForDocumentDelete } from './policy.ts';
import { conflict, notFound, payloadTooLarge, unprocessable, type DomainError } from '../../core/errors.ts';
import { recordActivity } from '../activity/record.ts';
import type { Issue } from '../../db/rows.ts';
import {
  MAX_DOCUMENT_BYTES,
  MAX_DOCUMENTS_PER_ISSUE,
  REVISION_PAGE_TEXT_BYTES,
  type ListRevisionsQuery,
  type PutDocument,
} from './schemas.ts';

export type Document = typeof issueDocuments.$inferSelect;
export type Revision = typeof issueDocumentRevisions.$inferSelect;
/** A revision as the API shows it: with its body and the body's size in UTF-8 bytes. */
export type RevisionWithSize = Omit<Revision, 'companyId'> & { bodyBytes: number };
/** A document with the body of its latest revision. */
export type DocumentView = Document & { body: string };

const withLatestBody = {
  document: issueDocuments,
  body: issueDocumentRevisions.body,
};

/** Every document of the issue with its latest body, by key. Bounded by MAX_DOCUMENTS_PER_ISSUE. */
export async function listDocuments(db: DbOrTx, issueId: string): Promise<DocumentView[]> {
  const rows = await db
    .select(withLatestBody)
    .from(issueDocuments)
    .innerJoin(issueDocumentRevisions, eq(issueDocumentRevisions.id, issueDocuments.latestRevisionId))
    .where(eq(issueDocuments.issueId, issueId))
    .orderBy(asc(issueDocuments.key))
    .limit(MAX_DOCUMENTS_PER_ISSUE);
  return rows.map((r) => ({ ...r.document, body: r.body }));
}

export async function findDocument(db: DbOrTx, issueId: string, key: string): Promise<DocumentView | null> {
  const [row] = await db
    .select(withLatestBody)
    .from(issueDocuments)
    .innerJoin(issueDocumentRevisions, eq(issueDocumentRevisions.id, issueDocuments.latestRevisionId))
    .where(and(eq(issueDocuments.issueId, issueId), eq(issueDocuments.key, key)));
  return row ? { ...row.document, body: row.body } : null;
}

export async function getDocument(db: DbOrTx, issueId: string, key: string): Promise<DocumentView> {
  const doc = await findDocument(db, issueId, key);
  if (!doc) throw notFound('document');
  return doc;
}

/**
 * Creates the document (no baseRevisionId) or appends a revision (baseRevisionId equal to the
 * latest revision). The compare-and-set is one conditional UPDATE, so of two writers holding the
 * same base exactly one wins and the other gets 409 with the current revision.
 */
export async function putDocument(
  ctx: Ctx,
  issue: Issue,
  key: string,
  input: PutDocument,
): Promise<{ document: DocumentView; created: boolean }> {
  await assertMayPutDocument(ctx, issue);
  const { db, actor } = ctx;
  const bytes = Buffer.byteLength(input.body, 'utf8');
  if (bytes > MAX_DOCUMENT_BYTES)
    throw payloadTooLarge(`document body is ${bytes} bytes; the limit is ${MAX_DOCUMENT_BYTES} bytes (512 KiB)`);
  return db.transaction(async (tx) => {
    const revisionId = randomUUID();
    const base = input.baseRevisionId;
    const created = !base;
    const doc = base
      ? await advanceDocument(tx, issue, key, revisionId, { ...input, baseRevisionId: base })
      : await insertDocument(tx, issue, key, revisionId, input);
    await tx.insert(issueDocumentRevisions).values({
      id: revisionId,
      companyId: issue.companyId,
      documentId: doc.id,
      revisionNumber: doc.latestRevisionNumber,
      title: doc.title,
      body: input.body,
      changeSummary: input.changeSummary ?? null,
      createdByAgentId: actor.kind === 'agent' ? actor.agentId : null,
      createdByUserId: actor.kind === 'board' ? actor.userId : null,
    });
    await recordActivity(tx, actor, {
      companyId: issue.companyId,
      action: created ? 'issue.document_created' : 'issue.document_updated',
      entityType: 'issue',
      entityId: issue.id,
      details: {
        identifier: issue.identifier,
        documentId: doc.id,
        key,
        revisionId,
        revisionNumber: doc.latestRevisionNumber,
        changeSummary: input.changeSummary ?? null,
      },
    });
    return { document: { ...doc, body: input.body }, created };
  });
}

async function insertDocument(
  tx: DbOrTx,
  issue: Issue,
  key: string,
  revisionId: string,
  input: PutDocument,
): Promise<Document> {
  const [{ n } = { n: 0 }] = await tx
    .select({ n: count() })
    .from(issueDocuments)
    .where(eq(issueDocuments.issueId, issue.id));
  if (n >= MAX_DOCUMENTS_PER_ISSUE) throw unprocessable(`an issue holds at most ${MAX_DOCUMENTS_PER_ISSUE} documents`);
  const [inserted] = await tx
    .insert(issueDocuments)
    .values({
      companyId: issue.companyId,
      issueId: issue.id,
      key,
      title: input.title ?? null,
      format: input.format,
      latestRevisionId: revisionId,
      latestRevisionNumber: 1,
    })
    .onConflictDoNothing()
    .returning();
  if (!inserted)
    throw await staleRevision(
      tx,
      issue.id,
      key,
      'the document already exists; send its current baseRevisionId to update it',
    );
  return inserted;
}

async function advanceDocument(
  tx: DbOrTx,
  issue: Issue,
  key: string,
  revisionId: string,
  input: PutDocument & { baseRevisionId: string },
): Promise<Document> {
  const [updated] = await tx
    .update(issueDocuments)
    .set({
      latestRevisionId: revisionId,
      latestRevisionNumber: sql`${issueDocuments.latestRevisionNumber} + 1`,
      format: input.format,
      // An omitted title keeps the current one; null clears it.
      ...(input.title !== undefined && { title: input.title }),
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(issueDocuments.issueId, issue.id),
        eq(issueDocuments.key, key),
        eq(issueDocuments.latestRevisionId, input.baseRevisionId),
      ),
    )
    .returning();
  if (!updated)
    throw await staleRevision(tx, issue.id, key, 'baseRevisionId is not the current revision of this document');
  return updated;
}

/** The 409 for a stale or missing base, naming the current revision (null: no such document). */
async function staleRevision(tx: DbOrTx, issueId: string, key: string, message: string): Promise<DomainError> {
  const [current] = await tx
    .select({ id: issueDocuments.latestRevisionId, number: issueDocuments.latestRevisionNumber })
    .from(issueDocuments)
    .where(and(eq(issueDocuments.issueId, issueId), eq(issueDocuments.key, key)));
  return conflict(message, {
    key,
    currentRevisionId: current?.id ?? null,
    currentRevisionNumber: current?.number ?? null,
  });
}

// A page of the revision list carries bodies (clients diff revisions), bounded twice: `limit`
// revisions, and REVISION_PAGE_TEXT_BYTES of revision text (body, title and change summary in UTF-8
// bytes) so that 100 revisions of 512 KiB never make a 52 MB answer. The first revision of a page
// always comes, whatever its size, so a page is never empty while older revisions exist.
// One statement: running totals over the page in revision order (octet_length reads a stored
// value's length without decompressing it), and a body is read only for the revisions that fit.
const textBytes = sql`octet_length(${issueDocumentRevisions.body}) + coalesce(octet_length(${issueDocumentRevisions.title}), 0) + coalesce(octet_length(${issueDocumentRevisions.changeSummary}), 0)`;
const newestFirst = sql`over (order by ${issueDocumentRevisions.revisionNumber} desc)`;

interface RevisionPage {
  revisions: RevisionWithSize[];
  /** The `beforeRevisionNumber` of the next page; null on the last one. */
  nextBeforeRevisionNumber: number | null;
}

/** Revisions newest first with their bodies, one page at a time; `beforeRevisionNumber` pages further back. */
export async function listRevisions(
  db: DbOrTx,
  issueId: string,
  key: string,
  query: ListRevisionsQuery,
): Promise<RevisionPage> {
  const [doc] = await db
    .select({ id: issueDocuments.id })
    .from(issueDocuments)
    .where(and(eq(issueDocuments.issueId, issueId), eq(issueDocuments.key, key)));
  if (!doc) throw notFound('document');
  const fits = sql`row_number() ${newestFirst} <= ${query.limit} and (row_number() ${newestFirst} = 1 or sum(${textBytes}) ${newestFirst} <= ${REVISION_PAGE_TEXT_BYTES})`;
  // One row past the page says whether another page follows; its body is never read.
  const rows = await db
    .select({
      id: issueDocumentRevisions.id,
      documentId: issueDocumentRevisions.documentId,
      revisionNumber: issueDocumentRevisions.revisionNumber,
      title: issueDocumentRevisions.title,
      changeSummary: issueDocumentRevisions.changeSummary,
      createdByAgentId: issueDocumentRevisions.createdByAgentId,
      createdByUserId: issueDocumentRevisions.createdByUserId,
      createdAt: issueDocumentRevisions.createdAt,
      bodyBytes: sql<number>`octet_length(${issueDocumentRevisions.body})`.mapWith(Number),
      body: sql<string | null>`case when ${fits} then ${issueDocumentRevisions.body} end`,
    })
    .from(issueDocumentRevisions)
    .where(
      and(
        eq(issueDocumentRevisions.documentId, doc.id),
        query.beforeRevisionNumber === undefined
          ? undefined
          : lt(issueDocumentRevisions.revisionNumber, query.beforeRevisionNumber),
      ),
    )
    .orderBy(desc(issueDocumentRevisions.revisionNumber))
    .limit(query.limit + 1);
  // The revisions that fit are a prefix: the running total only grows.
  const revisions = rows.filter((r): r is typeof r & { body: string } => r.body !== null);
  const last = revisions.at(-1);
  return { revisions, nextBeforeRevisionNumber: rows.length > revisions.length && last ? last.revisionNumber : null };
}

/** One revision with its body; 404 unless it belongs to this issue's document `key`. */
export async function getRevision(
  db: DbOrTx,
  issueId: string,
  key: string,
  revisionId: string,
): Promise<RevisionWithSize> {
  const [row] = await db
    .select({ revision: issueDocumentRevisions })
    .from(issueDocumentRevisions)
    .innerJoin(issueDocuments, eq(issueDocuments.id, issueDocumentRevisions.documentId))
    .where(
      and(eq(issueDocumentRevisions.id, revisionId), eq(issueDocuments.issueId, issueId), eq(issueDocuments.key, key)),
    );
  if (!row) throw notFound('revision');
  return { ...row.revision, bodyBytes: Buffer.byteLength(row.revision.body, 'utf8') };
}

/**
 * Removes the document and all its revisions. Board only: an agent is refused before the issue is
 * looked up (404 missing, 403 another company's).
 */
export async function deleteDocument(ctx: Ctx, issueRef: string, key: string): Promise<Document> {
  const issue = await issueForDocumentDelete(ctx, issueRef);
  const { actor } = ctx;
  return ctx.db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(issueDocuments)
      .where(and(eq(issueDocuments.issueId, issue.id), eq(issueDocuments.key, key)))
      .returning();
    if (!deleted) throw notFound('document');
    await recordActivity(tx, actor, {
      companyId: issue.companyId,
      action: 'issue.document_deleted',
      entityType: 'issue',
      entityId: issue.id,
      details: {
        identifier: issue.identifier,
        documentId: deleted.id,
        key,
        lastRevisionNumber: deleted.latestRevisionNumber,
      },
    });
    return deleted;
  });
}
