import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { activityLog, assets } from '../src/db/schema/index.ts';
import { startTestApp, useTestApp, type TestApp } from './helpers/app.ts';
import { multipartBody, newAgent, newIssue, type MultipartPart } from './helpers/factories.ts';

const t = await useTestApp();
const db = t.database.db;

const a = await t.newCompany();
const uploader = await newAgent(t, a.token, a.company.id);
const colleague = await newAgent(t, a.token, a.company.id);
const b = await t.newCompany();
const agentB = await newAgent(t, b.token, b.company.id);

const uploadUrl = (companyId: string, issueId: string) => `/api/companies/${companyId}/issues/${issueId}/attachments`;

function upload(app: TestApp, companyId: string, issueId: string, token: string, parts: MultipartPart[]) {
  const { payload, headers } = multipartBody(parts);
  return app.request('POST', uploadUrl(companyId, issueId), { token, payload, headers });
}

const file = (
  data: Buffer | string,
  filename = 'data.bin',
  contentType = 'application/octet-stream',
): MultipartPart[] => [{ name: 'file', data, filename, contentType }];

describe('POST /api/companies/{companyId}/issues/{issueId}/attachments', () => {
  it('stores any bytes and content type, lists them and downloads the exact bytes', async () => {
    const issue = await newIssue(t, a.token, a.company.id);
    const bytes = randomBytes(200 * 1024);
    const res = await upload(
      t,
      a.company.id,
      issue.identifier,
      uploader.token,
      file(bytes, 'Bericht ü (final).bin', 'application/x-custom-thing'),
    );
    assert.equal(res.status, 201);
    assert.equal(res.body.issueId, issue.id);
    assert.equal(res.body.companyId, a.company.id);
    assert.equal(res.body.name, 'Bericht ü (final).bin');
    assert.equal(res.body.contentType, 'application/x-custom-thing');
    assert.equal(res.body.byteSize, bytes.length);
    assert.equal(res.body.contentPath, `/api/attachments/${res.body.id}/content`);
    assert.equal(res.body.createdByAgentId, uploader.agent.id);
    assert.equal(typeof res.body.assetId, 'string');

    const list = await t.request('GET', `/api/issues/${issue.id}/attachments`, { token: a.token });
    assert.equal(list.status, 200);
    assert.deepEqual(list.body, [res.body]);

    const download = await t.request('GET', res.body.contentPath, { token: colleague.token });
    assert.equal(download.status, 200);
    assert.ok(download.raw.equals(bytes), 'downloaded bytes equal the uploaded bytes');
    assert.equal(download.headers['content-type'], 'application/x-custom-thing');
    assert.equal(download.headers['x-content-type-options'], 'nosniff');
    assert.equal(
      download.headers['content-disposition'],
      `attachment; filename="Bericht _ (final).bin"; filename*=UTF-8''Bericht%20%C3%BC%20%28final%29.bin`,
    );

    const [entry] = await db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.entityId, issue.id), eq(activityLog.action, 'issue.attachment_added')));
    assert.equal((entry!.details as any).attachmentId, res.body.id);
    assert.equal(entry!.agentId, uploader.agent.id);
  });

  it('serves active content as a sandboxed download and keeps text bytes unchanged', async () => {
    const issue = await newIssue(t, a.token, a.company.id);
    const html = '<script>alert(1)</script>\r\n\u00e9';
    const res = await upload(t, a.company.id, issue.id, a.token, file(html, 'page.html', 'text/html; charset=utf-8'));
    assert.equal(res.status, 201);
    const download = await t.request('GET', res.body.contentPath, { token: a.token });
    // The multipart parser keeps the media type without its parameters.
    assert.equal(download.headers['content-type'], 'text/html');
    assert.match(String(download.headers['content-security-policy']), /sandbox/);
    assert.match(String(download.headers['content-disposition']), /^attachment;/);
    assert.ok(download.raw.equals(Buffer.from(html)));
    // A part without a file name or type is still accepted.
    const bare = await upload(t, a.company.id, issue.id, a.token, [{ name: 'file', data: 'abc', filename: '' }]);
    assert.equal(bare.status, 201);
    assert.equal(bare.body.name, null);
    const bareDownload = await t.request('GET', bare.body.contentPath, { token: a.token });
    assert.equal(bareDownload.body, 'abc');
    assert.match(String(bareDownload.headers['content-disposition']), /filename="attachment"/);
  });

  it('rejects a missing or misnamed file part and a non-multipart body', async () => {
    const issue = await newIssue(t, a.token, a.company.id);
    assert.equal(
      (await upload(t, a.company.id, issue.id, a.token, [{ name: 'note', data: 'just a field' }])).status,
      400,
    );
    assert.equal(
      (
        await upload(t, a.company.id, issue.id, a.token, [
          { name: 'upload', data: 'x', filename: 'x.txt', contentType: 'text/plain' },
        ])
      ).status,
      400,
    );
    const json = await t.request('POST', uploadUrl(a.company.id, issue.id), { token: a.token, body: { file: 'x' } });
    assert.equal(json.status, 415);
    assert.deepEqual((await t.request('GET', `/api/issues/${issue.id}/attachments`, { token: a.token })).body, []);
  });

  it('answers 404 for a missing issue, a missing company, or an issue of another company at this path', async () => {
    const issueA = await newIssue(t, a.token, a.company.id);
    const issueB = await newIssue(t, b.token, b.company.id);
    assert.equal((await upload(t, a.company.id, randomUUID(), a.token, file('x'))).status, 404);
    assert.equal((await upload(t, randomUUID(), issueA.id, t.ownerToken, file('x'))).status, 404);
    // The instance owner can reach both companies, so this is purely the issue/company mismatch.
    assert.equal((await upload(t, a.company.id, issueB.id, t.ownerToken, file('x'))).status, 404);
    assert.equal((await upload(t, a.company.id, issueB.identifier, t.ownerToken, file('x'))).status, 404);
  });
});

describe('DELETE /api/attachments/{attachmentId}', () => {
  it('lets the board or the uploading agent delete, not another agent', async () => {
    const issue = await newIssue(t, a.token, a.company.id);
    const byAgent = await upload(t, a.company.id, issue.id, uploader.token, file('agent file'));
    const byBoard = await upload(t, a.company.id, issue.id, a.token, file('board file'));
    assert.equal(
      (await t.request('DELETE', `/api/attachments/${byAgent.body.id}`, { token: colleague.token })).status,
      403,
    );
    assert.equal(
      (await t.request('DELETE', `/api/attachments/${byBoard.body.id}`, { token: uploader.token })).status,
      403,
    );
    assert.equal(
      (await t.request('DELETE', `/api/attachments/${byAgent.body.id}`, { token: uploader.token })).status,
      200,
    );
    assert.equal((await t.request('DELETE', `/api/attachments/${byBoard.body.id}`, { token: a.token })).status, 200);
    assert.equal((await t.request('GET', byAgent.body.contentPath, { token: a.token })).status, 404);
    assert.equal((await t.request('DELETE', `/api/attachments/${byBoard.body.id}`, { token: a.token })).status, 404);
    assert.deepEqual((await t.request('GET', `/api/issues/${issue.id}/attachments`, { token: a.token })).body, []);
    assert.deepEqual(await db.select().from(assets).where(eq(assets.id, byAgent.body.assetId)), []);
    const deletions = await db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.entityId, issue.id), eq(activityLog.action, 'issue.attachment_deleted')));
    assert.equal(deletions.length, 2);
  });

  it('answers 400 for a malformed id and 404 for an unknown one', async () => {
    assert.equal((await t.request('DELETE', '/api/attachments/nope', { token: a.token })).status, 400);
    assert.equal((await t.request('DELETE', `/api/attachments/${randomUUID()}`, { token: a.token })).status, 404);
    assert.equal((await t.request('GET', `/api/attachments/${randomUUID()}/content`, { token: a.token })).status, 404);
  });
});

describe('company boundary', () => {
  it('answers 403 on every route to a board user and an agent of another company, 401 without credentials', async () => {
    const issue = await newIssue(t, a.token, a.company.id);
    const att = await upload(t, a.company.id, issue.id, a.token, file('confidential'));
    for (const token of [b.token, agentB.token]) {
      assert.equal((await upload(t, a.company.id, issue.id, token, file('intrusion'))).status, 403);
      // Through the caller's own company path the foreign issue is simply not there.
      const ownCompany = token === b.token ? b.company.id : agentB.agent.companyId;
      assert.equal((await upload(t, ownCompany, issue.id, token, file('intrusion'))).status, 404);
      assert.equal((await t.request('GET', `/api/issues/${issue.id}/attachments`, { token })).status, 403);
      assert.equal((await t.request('GET', att.body.contentPath, { token })).status, 403);
      assert.equal((await t.request('DELETE', `/api/attachments/${att.body.id}`, { token })).status, 403);
    }
    assert.equal((await t.request('GET', att.body.contentPath)).status, 401);
    assert.equal((await t.request('GET', `/api/issues/${issue.id}/attachments`)).status, 401);
    const { payload, headers } = multipartBody(file('anon'));
    assert.equal((await t.request('POST', uploadUrl(a.company.id, issue.id), { payload, headers })).status, 401);
    const list = await t.request('GET', `/api/issues/${issue.id}/attachments`, { token: a.token });
    assert.deepEqual(
      list.body.map((x: any) => x.id),
      [att.body.id],
    );
  });
});

describe('upload size limit', () => {
  it('answers 413 with a clear message above maxUploadBytes and accepts exactly the limit', async () => {
    const small = await startTestApp({ maxUploadBytes: 1024 });
    try {
      const { company, token } = await small.newCompany();
      const issue = await newIssue(small, token, company.id);
      const tooBig = await upload(small, company.id, issue.id, token, file(randomBytes(1025)));
      assert.equal(tooBig.status, 413);
      assert.match(tooBig.body.error, /1024 bytes/);
      const exact = randomBytes(1024);
      const ok = await upload(small, company.id, issue.id, token, file(exact));
      assert.equal(ok.status, 201);
      assert.ok((await small.request('GET', ok.body.contentPath, { token })).raw.equals(exact));
      const list = await small.request('GET', `/api/issues/${issue.id}/attachments`, { token });
      assert.equal(list.body.length, 1);
    } finally {
      await small.close();
    }
  });
});
