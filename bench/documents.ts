// Issue 25 (from test/documents.test.ts, which keeps the rule and no longer times it): a page of a
// document's revision history when each revision is 512 KiB. The text budget of a page holds one such
// revision, so every page is about 0.5 MB of JSON; the page is read newest first, as a client
// opening the history does. Target p99 < 500 ms one request at a time.
import pg from 'pg';
import { selected, sequential, type Bench } from './lib/measure.ts';

const NAME = 'GET document revisions page (30 x 512 KiB)';
const REVISIONS = 30;
const REVISION_BYTES = 512 * 1024;
const TARGET_P99_MS = 500;

export async function benchDocuments(bench: Bench): Promise<void> {
  if (!selected(bench, NAME)) return;
  const { client } = bench;
  const post = async (path: string, body: unknown) => {
    const res = await client.request({ method: 'POST', path, body });
    if (res.status !== 201) throw new Error(`documents bench: POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const company = await post('/api/companies', { name: 'Documents bench' });
  const issue = await post(`/api/companies/${company.id}/issues`, { title: 'A long history' });
  const created = await client.request({
    method: 'PUT',
    path: `/api/issues/${issue.id}/documents/big`,
    body: { title: 'Big', body: 'first', changeSummary: 'first' },
  });
  if (created.status !== 201)
    throw new Error(`documents bench: PUT: ${created.status} ${JSON.stringify(created.body)}`);
  // The other revisions straight into the table, as the test writes them (through the API they are
  // 15 MB of requests, which is not what is measured).
  const db = new pg.Client({ connectionString: bench.server.databaseUrl });
  await db.connect();
  try {
    await db.query(
      `insert into issue_document_revisions (company_id, document_id, revision_number, title, body, change_summary)
       select $1, $2, n, 'Big', repeat(chr(65 + n % 26), ${REVISION_BYTES}), 'rev ' || n from generate_series(2, $3) as n`,
      [company.id, created.body.id, REVISIONS],
    );
  } finally {
    await db.end();
  }
  await sequential(
    bench,
    NAME,
    { method: 'GET', path: `/api/issues/${issue.id}/documents/big/revisions` },
    TARGET_P99_MS,
  );
}
