import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { useTestApp } from './helpers/app.ts';
import { multipartBody, newAgent, type AgentFixture } from './helpers/factories.ts';

const MAX_UPLOAD = 64 * 1024;
const t = await useTestApp({ maxUploadBytes: MAX_UPLOAD });
const pool = t.database.pool;

// A 1x1 PNG, and small files of the other accepted types (content is not decoded, only typed).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==', 'base64');

function logo(data: Buffer | string, contentType: string, name = 'file') {
  return multipartBody([{ name, data, filename: 'logo', contentType }]);
}
async function upload(
  companyId: string,
  token: string | undefined,
  data: Buffer | string,
  contentType: string,
  name = 'file',
) {
  return t.request('POST', `/api/companies/${companyId}/logo`, { token, ...logo(data, contentType, name) });
}
const rowCount = async (sql: string, params: unknown[]) => Number((await pool.query(sql, params)).rows[0].count);

describe('companies: create, list, read', () => {
  it('creates a company with a derived prefix and makes the creator a member', async () => {
    const { token } = await t.newBoardUser();
    const res = await t.request('POST', '/api/companies', {
      token,
      body: { name: 'Acme Robotics', budgetMonthlyCents: 5000 },
    });
    assert.equal(res.status, 201);
    assert.equal(res.body.issuePrefix, 'ACM');
    assert.equal(res.body.issueCounter, 1);
    assert.equal(res.body.status, 'active');
    assert.equal(res.body.budgetMonthlyCents, 5000);
    assert.equal(res.body.spentMonthlyCents, 0);
    assert.equal(res.body.logoAssetId, null);
    assert.equal(res.body.logoUrl, null);
    const again = await t.request('POST', '/api/companies', { token, body: { name: 'Acme Mining' } });
    assert.equal(again.body.issuePrefix, 'ACM2');
    const list = await t.request('GET', '/api/companies', { token });
    assert.deepEqual(list.body.map((c: any) => c.id).sort(), [res.body.id, again.body.id].sort());
    const created = await t.request('GET', `/api/companies/${res.body.id}/activity?entityType=company`, { token });
    assert.deepEqual(
      created.body.map((e: any) => e.action),
      ['company.created'],
    );
  });

  it('gives concurrent creates with the same name distinct prefixes', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        t.request('POST', '/api/companies', { token: t.ownerToken, body: { name: 'Zephyr Works' } }),
      ),
    );
    assert.ok(results.every((r) => r.status === 201));
    const prefixes = results.map((r) => r.body.issuePrefix);
    assert.equal(new Set(prefixes).size, 12);
    assert.ok(prefixes.includes('ZEP') && prefixes.every((p) => p.startsWith('ZEP')));
  });

  it('keeps numbering prefixes past 51 companies on the same three letters, and pads short names', async () => {
    const prefixes: string[] = [];
    for (let i = 0; i < 60; i++) {
      const res = await t.request('POST', '/api/companies', { token: t.ownerToken, body: { name: `Quorum ${i}` } });
      assert.equal(res.status, 201, `company ${i}: ${JSON.stringify(res.body)}`);
      prefixes.push(res.body.issuePrefix);
    }
    assert.deepEqual(prefixes, ['QUO', ...Array.from({ length: 59 }, (_, i) => `QUO${i + 2}`)]);
    // A two-letter name is padded to three, so its numbered prefixes never meet another base's.
    const short = await t.request('POST', '/api/companies', { token: t.ownerToken, body: { name: 'Qz' } });
    assert.equal(short.body.issuePrefix, 'QZX');
  });

  it('creates the monthly company budget policy only for a positive budget, and keeps it in step', async () => {
    const policies = async (companyId: string) =>
      (
        await pool.query(
          'select scope_type, scope_id, window_kind, metric, amount_cents::int as amount_cents, warn_percent, hard_stop_enabled, is_active from budget_policies where company_id = $1 order by created_at',
          [companyId],
        )
      ).rows;
    const funded = await t.newCompany(undefined, { budgetMonthlyCents: 12_345 });
    assert.deepEqual(await policies(funded.company.id), [
      {
        scope_type: 'company',
        scope_id: funded.company.id,
        window_kind: 'calendar_month_utc',
        metric: 'billed_cents',
        amount_cents: 12_345,
        warn_percent: 80,
        hard_stop_enabled: true,
        is_active: true,
      },
    ]);
    const unfunded = await t.newCompany(undefined, { budgetMonthlyCents: 0 });
    assert.deepEqual(await policies(unfunded.company.id), []);
    await t.request('PATCH', `/api/companies/${funded.company.id}`, {
      token: funded.token,
      body: { budgetMonthlyCents: 500 },
    });
    assert.deepEqual(
      (await policies(funded.company.id)).map((p) => [p.amount_cents, p.is_active]),
      [[500, true]],
    );
    await t.request('PATCH', `/api/companies/${funded.company.id}`, {
      token: funded.token,
      body: { budgetMonthlyCents: 0 },
    });
    assert.deepEqual(
      (await policies(funded.company.id)).map((p) => p.is_active),
      [false],
    );
    assert.equal(
      (
        await t.request('POST', '/api/companies', {
          token: funded.token,
          body: { name: 'Neg', budgetMonthlyCents: -1 },
        })
      ).status,
      400,
    );
  });

  it('rejects unauthenticated, malformed and invalid requests with JSON errors', async () => {
    assert.equal((await t.request('GET', '/api/companies')).status, 401);
    const malformed = await t.request('POST', '/api/companies', {
      token: t.ownerToken,
      payload: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(malformed.status, 400);
    assert.equal(typeof malformed.body.error, 'string');
    assert.equal((await t.request('POST', '/api/companies', { token: t.ownerToken, body: { name: 5 } })).status, 400);
    assert.equal(
      (await t.request('POST', '/api/companies', { token: t.ownerToken, body: { name: '   ' } })).status,
      400,
    );
    const badEnum = await t.request('PATCH', `/api/companies/${(await t.newCompany(t.ownerToken)).company.id}`, {
      token: t.ownerToken,
      body: { status: 'exploded' },
    });
    assert.equal(badEnum.status, 400);
    assert.equal((await t.request('GET', '/api/companies/not-a-uuid', { token: t.ownerToken })).status, 400);
  });

  it('answers 404 for a missing company and 403 for another company', async () => {
    const a = await t.newCompany();
    const b = await t.newCompany();
    assert.equal((await t.request('GET', `/api/companies/${a.company.id}`, { token: b.token })).status, 403);
    assert.equal(
      (await t.request('GET', '/api/companies/00000000-0000-4000-8000-000000000000', { token: b.token })).status,
      404,
    );
    assert.equal(
      (await t.request('PATCH', `/api/companies/${a.company.id}`, { token: b.token, body: { name: 'x' } })).status,
      403,
    );
    assert.equal((await t.request('DELETE', `/api/companies/${a.company.id}`, { token: b.token })).status, 403);
  });
});

describe('companies: agents and the CEO', () => {
  let a: { company: any; token: string };
  let b: { company: any; token: string };
  let ceo: AgentFixture;
  let engineer: AgentFixture;
  let otherCeo: AgentFixture;

  before(async () => {
    a = await t.newCompany();
    b = await t.newCompany();
    ceo = await newAgent(t, a.token, a.company.id, { role: 'ceo' });
    engineer = await newAgent(t, a.token, a.company.id);
    otherCeo = await newAgent(t, b.token, b.company.id, { role: 'ceo' });
  });

  it('lets agents read their own company only, and keeps board-only routes from them', async () => {
    assert.equal((await t.request('GET', `/api/companies/${a.company.id}`, { token: engineer.token })).status, 200);
    assert.equal((await t.request('GET', `/api/companies/${a.company.id}`, { token: otherCeo.token })).status, 403);
    assert.equal((await t.request('GET', '/api/companies', { token: ceo.token })).status, 403);
    assert.equal((await t.request('GET', '/api/companies/stats', { token: ceo.token })).status, 403);
    assert.equal(
      (await t.request('POST', '/api/companies', { token: ceo.token, body: { name: 'Agent Co' } })).status,
      403,
    );
    assert.equal((await t.request('POST', `/api/companies/${a.company.id}/archive`, { token: ceo.token })).status, 403);
    assert.equal((await t.request('DELETE', `/api/companies/${a.company.id}`, { token: ceo.token })).status, 403);
  });

  it('PATCH: the board changes anything; the CEO agent branding fields only; other agents nothing', async () => {
    const board = await t.request('PATCH', `/api/companies/${a.company.id}`, {
      token: a.token,
      body: { status: 'paused', budgetMonthlyCents: 100, requireBoardApprovalForNewAgents: true, description: 'd' },
    });
    assert.equal(board.status, 200);
    assert.equal(board.body.status, 'paused');
    assert.equal(board.body.budgetMonthlyCents, 100);
    assert.equal(board.body.requireBoardApprovalForNewAgents, true);

    const branding = await t.request('PATCH', `/api/companies/${a.company.id}`, {
      token: ceo.token,
      body: { name: 'Renamed by CEO', brandColor: '#112233', description: 'ceo' },
    });
    assert.equal(branding.status, 200);
    assert.equal(branding.body.name, 'Renamed by CEO');
    assert.equal(branding.body.brandColor, '#112233');
    for (const body of [
      { budgetMonthlyCents: 1 },
      { status: 'active' },
      { name: 'x', requireBoardApprovalForNewAgents: false },
    ]) {
      assert.equal(
        (await t.request('PATCH', `/api/companies/${a.company.id}`, { token: ceo.token, body })).status,
        403,
        JSON.stringify(body),
      );
    }
    assert.equal(
      (
        await t.request('PATCH', `/api/companies/${a.company.id}`, {
          token: engineer.token,
          body: { brandColor: '#000000' },
        })
      ).status,
      403,
    );
    assert.equal(
      (
        await t.request('PATCH', `/api/companies/${a.company.id}`, {
          token: otherCeo.token,
          body: { brandColor: '#000000' },
        })
      ).status,
      403,
    );
    assert.equal(
      (await t.request('PATCH', `/api/companies/${a.company.id}`, { token: a.token, body: { brandColor: 'red' } }))
        .status,
      400,
    );
    const now = (await t.request('GET', `/api/companies/${a.company.id}`, { token: a.token })).body;
    assert.equal(now.brandColor, '#112233');
    assert.equal(now.budgetMonthlyCents, 100);
    const feed = (
      await t.request('GET', `/api/companies/${a.company.id}/activity?entityType=company`, { token: a.token })
    ).body;
    const byCeo = feed.find((e: any) => e.actorType === 'agent');
    assert.equal(byCeo.action, 'company.updated');
    assert.equal(byCeo.agentId, ceo.agent.id);
  });

  it('branding route: board and CEO agent; 422 for a logo asset of another company', async () => {
    const board = await t.request('PATCH', `/api/companies/${a.company.id}/branding`, {
      token: a.token,
      body: { brandColor: '#abcdef' },
    });
    assert.equal(board.status, 200);
    assert.equal(board.body.brandColor, '#abcdef');
    const byCeo = await t.request('PATCH', `/api/companies/${a.company.id}/branding`, {
      token: ceo.token,
      body: { name: 'CEO brand' },
    });
    assert.equal(byCeo.status, 200);
    assert.equal(byCeo.body.name, 'CEO brand');
    assert.equal(
      (
        await t.request('PATCH', `/api/companies/${a.company.id}/branding`, {
          token: engineer.token,
          body: { name: 'x' },
        })
      ).status,
      403,
    );
    assert.equal(
      (
        await t.request('PATCH', `/api/companies/${a.company.id}/branding`, {
          token: otherCeo.token,
          body: { name: 'x' },
        })
      ).status,
      403,
    );
    assert.equal(
      (await t.request('PATCH', `/api/companies/${a.company.id}/branding`, { token: b.token, body: { name: 'x' } }))
        .status,
      403,
    );
    // Branding carries no budget or status: those keys are not part of its body.
    await t.request('PATCH', `/api/companies/${a.company.id}/branding`, {
      token: ceo.token,
      body: { budgetMonthlyCents: 999 },
    });
    assert.equal(
      (await t.request('GET', `/api/companies/${a.company.id}`, { token: a.token })).body.budgetMonthlyCents,
      100,
    );

    const foreign = await upload(b.company.id, b.token, PNG, 'image/png');
    assert.equal(foreign.status, 201);
    for (const path of [`/api/companies/${a.company.id}/branding`, `/api/companies/${a.company.id}`]) {
      assert.equal(
        (await t.request('PATCH', path, { token: a.token, body: { logoAssetId: foreign.body.assetId } })).status,
        422,
        path,
      );
      assert.equal(
        (await t.request('PATCH', path, { token: a.token, body: { logoAssetId: randomUUID() } })).status,
        422,
        path,
      );
    }
    assert.equal((await t.request('GET', `/api/companies/${a.company.id}`, { token: a.token })).body.logoAssetId, null);
    const own = await upload(a.company.id, ceo.token, PNG, 'image/png');
    const attached = await t.request('PATCH', `/api/companies/${a.company.id}/branding`, {
      token: ceo.token,
      body: { logoAssetId: own.body.assetId },
    });
    assert.equal(attached.status, 200);
    assert.equal(attached.body.logoUrl, `/api/assets/${own.body.assetId}/content`);
  });
});

describe('companies: logos and assets', () => {
  let a: { company: any; token: string };
  let b: { company: any; token: string };
  let agentA: AgentFixture;
  let agentB: AgentFixture;

  before(async () => {
    a = await t.newCompany();
    b = await t.newCompany();
    agentA = await newAgent(t, a.token, a.company.id);
    agentB = await newAgent(t, b.token, b.company.id);
  });

  it('uploads every accepted type without attaching it, and serves the exact bytes', async () => {
    for (const [type, data] of [
      ['image/png', PNG],
      ['image/gif', GIF],
      ['image/jpeg', Buffer.from([0xff, 0xd8, 0xff, 1, 2])],
      ['image/jpg', Buffer.from([0xff, 0xd8, 0xff, 3])],
      ['image/webp', Buffer.from('RIFF\0\0\0\0WEBPVP8 ')],
    ] as const) {
      const res = await upload(a.company.id, a.token, data, type);
      assert.equal(res.status, 201, type);
      assert.equal(res.body.contentPath, `/api/assets/${res.body.assetId}/content`);
      const content = await t.request('GET', res.body.contentPath, { token: a.token });
      assert.equal(content.status, 200);
      assert.equal(content.headers['content-type'], type);
      assert.ok(content.raw.equals(data), type);
    }
    // Any caller with access may upload, agents included.
    assert.equal((await upload(a.company.id, agentA.token, PNG, 'image/png')).status, 201);
    assert.equal((await t.request('GET', `/api/companies/${a.company.id}`, { token: a.token })).body.logoAssetId, null);
    const feed = (
      await t.request('GET', `/api/companies/${a.company.id}/activity?entityType=asset`, { token: a.token })
    ).body;
    assert.ok(feed.length >= 6 && feed.every((e: any) => e.action === 'company.logo_uploaded'));
  });

  it('refuses other types, a missing part, non-multipart bodies and oversize files', async () => {
    const text = await upload(a.company.id, a.token, 'hello', 'text/plain');
    assert.equal(text.status, 415);
    assert.equal(typeof text.body.error, 'string');
    assert.equal((await upload(a.company.id, a.token, '<html></html>', 'text/html')).status, 415);
    assert.equal((await upload(a.company.id, a.token, PNG, 'image/png', 'logo')).status, 400);
    const noFile = await t.request('POST', `/api/companies/${a.company.id}/logo`, {
      token: a.token,
      ...multipartBody([{ name: 'note', data: 'x' }]),
    });
    assert.equal(noFile.status, 400);
    const json = await t.request('POST', `/api/companies/${a.company.id}/logo`, {
      token: a.token,
      body: { file: 'x' },
    });
    assert.equal(json.status, 415);
    // A multipart content type without a boundary, and a body cut off mid-part, are bad input, not a 500.
    const noBoundary = await t.request('POST', `/api/companies/${a.company.id}/logo`, {
      token: a.token,
      payload: 'x',
      headers: { 'content-type': 'multipart/form-data' },
    });
    assert.equal(noBoundary.status, 400);
    const whole = logo(PNG, 'image/png');
    const cut = await t.request('POST', `/api/companies/${a.company.id}/logo`, {
      token: a.token,
      payload: whole.payload.subarray(0, 60),
      headers: whole.headers,
    });
    assert.equal(cut.status, 400);
    const big = await upload(a.company.id, a.token, Buffer.alloc(MAX_UPLOAD + 1, 1), 'image/png');
    assert.equal(big.status, 413);
    assert.equal(typeof big.body.error, 'string');
    assert.equal((await upload(a.company.id, a.token, Buffer.alloc(MAX_UPLOAD, 1), 'image/png')).status, 201);
  });

  it('sanitises SVG and rejects empty or unsafe SVG', async () => {
    const svg = `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10" onload="alert(1)">
      <script>alert('x')</script><style>circle{fill:red}</style>
      <defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient></defs>
      <rect width="10" height="10" fill="url(#g)" style="fill:blue" onclick="steal()"/>
      <a href="javascript:alert(2)"><circle r="2"/></a>
      <image href="http://evil.example/x.png" width="1" height="1"/>
      <rect fill="url(http://evil.example/p.svg#x)" width="1" height="1"/>
      <path xlink:href="data:text/html,boom" d="M0 0L1 1"/>
    </svg>`;
    const res = await upload(a.company.id, a.token, svg, 'image/svg+xml');
    assert.equal(res.status, 201);
    const content = await t.request('GET', res.body.contentPath, { token: a.token });
    assert.equal(content.headers['content-type'], 'image/svg+xml');
    const served = content.raw.toString('utf8');
    for (const bad of [
      '<script',
      'alert',
      'onload',
      'onclick',
      '<style',
      'style=',
      'javascript:',
      'evil.example',
      'data:',
      '<image',
    ])
      assert.ok(!served.includes(bad), bad);
    for (const good of ['<svg', 'viewBox="0 0 10 10"', 'fill="url(#g)"', '<circle', 'linearGradient'])
      assert.ok(served.includes(good), good);
    assert.match(String(content.headers['content-security-policy']), /default-src 'none'/);

    for (const unsafe of [
      '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      'not an svg at all',
      '<html><body><svg><circle r="1"/></svg></body></html>',
      '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaa">]><svg xmlns="http://www.w3.org/2000/svg"><text>&a;</text></svg>',
      '',
    ]) {
      assert.equal((await upload(a.company.id, a.token, unsafe, 'image/svg+xml')).status, 400, unsafe);
    }
  });

  it('replacing or clearing the logo removes the previous asset', async () => {
    const first = (await upload(a.company.id, a.token, PNG, 'image/png')).body.assetId;
    const second = (await upload(a.company.id, a.token, GIF, 'image/gif')).body.assetId;
    const attach = await t.request('PATCH', `/api/companies/${a.company.id}`, {
      token: a.token,
      body: { logoAssetId: first },
    });
    assert.equal(attach.body.logoAssetId, first);
    assert.equal(attach.body.logoUrl, `/api/assets/${first}/content`);
    // Re-attaching the same asset keeps it.
    await t.request('PATCH', `/api/companies/${a.company.id}`, { token: a.token, body: { logoAssetId: first } });
    assert.equal(await rowCount('select count(*) from assets where id = $1', [first]), 1);
    const replaced = await t.request('PATCH', `/api/companies/${a.company.id}/branding`, {
      token: a.token,
      body: { logoAssetId: second },
    });
    assert.equal(replaced.body.logoUrl, `/api/assets/${second}/content`);
    assert.equal(await rowCount('select count(*) from assets where id = $1', [first]), 0);
    assert.equal((await t.request('GET', `/api/assets/${first}/content`, { token: a.token })).status, 404);
    const cleared = await t.request('PATCH', `/api/companies/${a.company.id}`, {
      token: a.token,
      body: { logoAssetId: null },
    });
    assert.equal(cleared.body.logoAssetId, null);
    assert.equal(cleared.body.logoUrl, null);
    assert.equal(await rowCount('select count(*) from assets where id = $1', [second]), 0);
  });

  it('serves asset content only to callers with access to its company', async () => {
    const asset = (await upload(a.company.id, a.token, PNG, 'image/png')).body;
    assert.equal((await t.request('GET', asset.contentPath, { token: agentA.token })).status, 200);
    assert.equal((await t.request('GET', asset.contentPath, { token: t.ownerToken })).status, 200);
    assert.equal((await t.request('GET', asset.contentPath, { token: b.token })).status, 403);
    assert.equal((await t.request('GET', asset.contentPath, { token: agentB.token })).status, 403);
    assert.equal((await t.request('GET', asset.contentPath)).status, 401);
    assert.equal((await t.request('GET', `/api/assets/${randomUUID()}/content`, { token: a.token })).status, 404);
    assert.equal((await t.request('GET', '/api/assets/nope/content', { token: a.token })).status, 400);
  });

  it('refuses uploads from other companies and unauthenticated callers', async () => {
    assert.equal((await upload(a.company.id, b.token, PNG, 'image/png')).status, 403);
    assert.equal((await upload(a.company.id, agentB.token, PNG, 'image/png')).status, 403);
    assert.equal((await upload(a.company.id, undefined, PNG, 'image/png')).status, 401);
    assert.equal((await upload(randomUUID(), a.token, PNG, 'image/png')).status, 404);
  });
});

describe('companies: stats, archive, delete', () => {
  it('stats: agent and issue counts keyed by the companies the caller can access', async () => {
    const a = await t.newCompany();
    const other = await t.newCompany();
    await newAgent(t, a.token, a.company.id);
    const gone = await newAgent(t, a.token, a.company.id);
    await t.request('POST', `/api/agents/${gone.agent.id}/terminate`, { token: a.token });
    await pool.query('update companies set issue_counter = 4 where id = $1', [a.company.id]);
    const res = await t.request('GET', '/api/companies/stats', { token: a.token });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body), [a.company.id]);
    assert.deepEqual(res.body[a.company.id], { agentCount: 1, issueCount: 3 });
    const owner = await t.request('GET', '/api/companies/stats', { token: t.ownerToken });
    assert.deepEqual(owner.body[other.company.id], { agentCount: 0, issueCount: 0 });
  });

  it('archive hides a company from the default listing', async () => {
    const { token } = await t.newBoardUser();
    const kept = await t.newCompany(token);
    const archived = await t.newCompany(token);
    const outsider = await t.newCompany();
    assert.equal(
      (await t.request('POST', `/api/companies/${archived.company.id}/archive`, { token: outsider.token })).status,
      403,
    );
    assert.equal((await t.request('POST', `/api/companies/${randomUUID()}/archive`, { token })).status, 404);
    const res = await t.request('POST', `/api/companies/${archived.company.id}/archive`, { token });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'archived');
    assert.deepEqual(
      (await t.request('GET', '/api/companies', { token })).body.map((c: any) => c.id),
      [kept.company.id],
    );
    const all = await t.request('GET', '/api/companies?includeArchived=true', { token });
    assert.deepEqual(all.body.map((c: any) => c.id).sort(), [kept.company.id, archived.company.id].sort());
    assert.equal((await t.request('GET', `/api/companies/${archived.company.id}`, { token })).body.status, 'archived');
    const feed = (
      await t.request('GET', `/api/companies/${archived.company.id}/activity?entityType=company`, { token })
    ).body;
    assert.equal(feed[0].action, 'company.archived');
  });

  it('delete removes the company and everything it owns', async () => {
    const doomed = await t.newCompany(undefined, { budgetMonthlyCents: 100 });
    const survivor = await t.newCompany();
    const id = doomed.company.id;
    await newAgent(t, doomed.token, id);
    await newAgent(t, survivor.token, survivor.company.id);
    await pool.query("insert into issues (company_id, number, identifier, title) values ($1, 1, $2, 'doomed issue')", [
      id,
      `${doomed.company.issuePrefix}-1`,
    ]);
    await t.request('POST', `/api/companies/${id}/secrets`, { token: doomed.token, body: { name: 'S', value: 'v' } });
    const logoId = (await upload(id, doomed.token, PNG, 'image/png')).body.assetId;
    await t.request('PATCH', `/api/companies/${id}`, { token: doomed.token, body: { logoAssetId: logoId } });

    // Every company-scoped table, including ones added after this test was written.
    const tables: string[] = (
      await pool.query(
        "select table_name from information_schema.columns where table_schema = 'public' and column_name = 'company_id' order by table_name",
      )
    ).rows.map((r) => r.table_name);
    assert.ok(tables.includes('agents') && tables.includes('activity_log') && tables.includes('secret_versions'));
    for (const table of ['agents', 'issues', 'activity_log', 'secrets', 'assets', 'budget_policies'])
      assert.ok((await rowCount(`select count(*) from ${table} where company_id = $1`, [id])) > 0, table);
    const survivorBefore = await Promise.all(
      tables.map((table) => rowCount(`select count(*) from ${table} where company_id = $1`, [survivor.company.id])),
    );

    const res = await t.request('DELETE', `/api/companies/${id}`, { token: doomed.token });
    assert.equal(res.status, 200);
    assert.equal((await t.request('GET', `/api/companies/${id}`, { token: doomed.token })).status, 404);
    assert.equal(await rowCount('select count(*) from companies where id = $1', [id]), 0);
    for (const table of tables)
      assert.equal(await rowCount(`select count(*) from ${table} where company_id = $1`, [id]), 0, table);
    const survivorAfter = await Promise.all(
      tables.map((table) => rowCount(`select count(*) from ${table} where company_id = $1`, [survivor.company.id])),
    );
    assert.deepEqual(survivorAfter, survivorBefore);
    assert.equal((await t.request('DELETE', `/api/companies/${id}`, { token: t.ownerToken })).status, 404);
  });
});
