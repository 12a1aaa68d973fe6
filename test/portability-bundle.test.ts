// The bundle format's pure functions (src/modules/portability/{render,parse,env}.ts) and the ZIP layers
// (src/lib/zip.ts, ui/src/lib/zip.ts), without a database: render then parse gives the model back; paths, sizes and
// schemas are judged before anything is read; env values are split into kept values and inputs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inflateSync, zipSync } from 'fflate';
import { DomainError } from '../src/core/errors.ts';
import * as serverZip from '../src/lib/zip.ts';
import type { CompanyModel, EnvInput } from '../src/modules/portability/bundle.ts';
import { exportEnv, importEnv, looksSensitive } from '../src/modules/portability/env.ts';
import { assertSafePath, assertSchema, parseBundle } from '../src/modules/portability/parse.ts';
import { renderBundle } from '../src/modules/portability/render.ts';
import * as boardZip from '../ui/src/lib/zip.ts';

const model: CompanyModel = {
  company: {
    name: 'Acme',
    slug: 'acme',
    description: 'We build things.',
    brandColor: '#112233',
    budgetMonthlyCents: 1000,
    requireBoardApprovalForNewAgents: true,
  },
  agents: [
    {
      slug: 'boss',
      name: 'Boss',
      role: 'ceo',
      title: 'CEO',
      capabilities: 'Leads.',
      reportsTo: null,
      adapterType: 'process',
      adapterConfig: { command: 'node', env: { A: '1' } },
      runtimeConfig: { heartbeat: { enabled: false } },
      permissions: { canCreateAgents: true, canAssignTasks: false },
      budgetMonthlyCents: 500,
      skills: ['company/x/notes'],
    },
    {
      slug: 'dev',
      name: 'Dev',
      role: 'engineer',
      title: null,
      capabilities: null,
      reportsTo: 'boss',
      adapterType: 'process',
      adapterConfig: {},
      runtimeConfig: {},
      permissions: { canCreateAgents: false, canAssignTasks: true },
      budgetMonthlyCents: 0,
      skills: [],
    },
  ],
  projects: [
    {
      slug: 'web',
      name: 'Web',
      description: 'The site.',
      status: 'planned',
      color: '#0ea5e9',
      targetDate: '2026-01-01',
      lead: 'dev',
      goals: ['grow'],
      env: { REGION: 'eu' },
      workspaces: [
        {
          name: 'repo',
          sourceType: 'git_repo',
          cwd: null,
          repoUrl: 'https://example.com/r.git',
          repoRef: 'main',
          defaultRef: null,
          isPrimary: true,
          setupCommand: 'npm ci',
          cleanupCommand: null,
        },
      ],
    },
  ],
  goals: [
    { slug: 'grow', title: 'Grow', description: null, level: 'company', status: 'active', parent: null, owner: 'boss' },
  ],
  issues: [
    {
      slug: 'ship-it',
      title: 'Ship it',
      description: 'Now.',
      status: 'todo',
      priority: 'high',
      project: 'web',
      goal: 'grow',
      parent: null,
      assignee: 'dev',
      billingCode: 'B-1',
      documents: [{ key: 'plan', title: 'Plan', format: 'markdown', body: '# Plan\n' }],
      attachments: [{ sha256: 'ab'.repeat(32), contentType: 'text/plain', name: 'a.txt' }],
    },
  ],
  routines: [
    {
      slug: 'weekly',
      title: 'Weekly',
      description: null,
      assignee: 'boss',
      project: null,
      goal: null,
      priority: 'medium',
      concurrencyPolicy: 'skip_if_active',
      catchUpPolicy: 'skip_missed',
      variables: [],
      triggers: [
        {
          kind: 'schedule',
          label: 'Mon',
          cronExpression: '0 9 * * 1',
          timezone: 'UTC',
          signingMode: null,
          replayWindowSec: null,
        },
        {
          kind: 'webhook',
          label: null,
          cronExpression: null,
          timezone: null,
          signingMode: 'bearer',
          replayWindowSec: 300,
        },
      ],
    },
  ],
  skills: [
    {
      slug: 'notes',
      key: 'company/x/notes',
      sourceKind: 'managed_local',
      files: [
        { path: 'SKILL.md', encoding: 'utf8', content: '---\nname: Notes\n---\n# Notes\n' },
        { path: 'assets/x.bin', encoding: 'base64', content: 'AAEC' },
      ],
    },
  ],
  logo: null,
  blobs: [{ sha256: 'ab'.repeat(32), contentType: 'application/octet-stream', data: 'aGk=' }],
  envInputs: [
    { key: 'TOKEN', kind: 'secret', requirement: 'required', usedBy: [{ path: 'agents/boss', env: 'TOKEN' }] },
  ],
};

describe('bundle: render and parse', () => {
  it('parses a rendered bundle back into the same model', () => {
    const rendered = renderBundle(model);
    assert.equal(rendered.rootPath, 'acme');
    const { model: parsed, warnings } = parseBundle(rendered.files);
    assert.deepEqual(warnings, []);
    assert.deepEqual(parsed, model);
  });

  it('ignores files outside the layout with a warning, and documents without a task', () => {
    const { warnings } = parseBundle({ 'notes.txt': 'x', 'tasks/ghost/documents/a.md': '---\nkey: a\n---\n' });
    assert.deepEqual(warnings, [
      'notes.txt: not part of the bundle layout; ignored',
      'tasks/ghost/documents/a.md: no task ghost to hold it; ignored',
    ]);
  });

  it('refuses broken frontmatter with 422 naming the file', () => {
    assert.throws(
      () => parseBundle({ 'agents/a/AGENTS.md': '---\nname: [unclosed\n---\n' }),
      (err: DomainError) => err.status === 422 && /agents\/a\/AGENTS\.md/.test(err.message),
    );
  });
});

describe('bundle: bounds and schema', () => {
  it('accepts relative paths and refuses the rest with 400', () => {
    assertSafePath('agents/a/AGENTS.md');
    for (const bad of [
      '../x',
      'a/../../x',
      '/etc/passwd',
      'C:/x',
      'a\\b',
      'a//b',
      './a',
      'a/',
      '',
      'a\u0000b',
      'x'.repeat(513),
    ]) {
      assert.throws(
        () => assertSafePath(bad),
        (err: DomainError) => err.status === 400,
        bad,
      );
    }
  });

  it('knows v1, takes no schema as v1, and refuses later or unknown ones with 422 naming them', () => {
    assertSchema('agentcompanies/v1', 'x');
    assertSchema(undefined, 'x');
    assert.throws(
      () => assertSchema('agentcompanies/v2', 'COMPANY.md'),
      (err: DomainError) => err.status === 422 && err.message.includes('agentcompanies/v2'),
    );
    assert.throws(
      () => assertSchema('othercompanies/v1', 'COMPANY.md'),
      (err: DomainError) => err.status === 422 && err.message.includes('othercompanies/v1'),
    );
  });
});

describe('bundle: env values', () => {
  it('turns secret references and sensitive plain values into inputs, and keeps the rest', () => {
    const inputs = new Map<string, EnvInput>();
    const warnings: string[] = [];
    const secretId = '11111111-1111-4111-8111-111111111111';
    const out = exportEnv(
      {
        KEY_REF: { type: 'secret_ref', secretId, version: 'latest' },
        DB_PASSWORD: 'pw',
        DATABASE: 'postgres://u:p@h/db',
        LEVEL: 'debug',
        MODE: { type: 'plain', value: 'fast' },
      },
      'agents/a',
      { secretNames: new Map([[secretId, 'OPENAI_KEY']]), inputs, warnings },
    );
    assert.deepEqual(out, {
      KEY_REF: { input: 'OPENAI_KEY' },
      DB_PASSWORD: { input: 'DB_PASSWORD' },
      DATABASE: { input: 'DATABASE' },
      LEVEL: 'debug',
      MODE: { type: 'plain', value: 'fast' },
    });
    assert.deepEqual([...inputs.keys()], ['OPENAI_KEY', 'DB_PASSWORD', 'DATABASE']);
    assert.equal(warnings.length, 2);
    assert.deepEqual(importEnv(out, new Map([['OPENAI_KEY', secretId]])), {
      KEY_REF: { type: 'secret_ref', secretId, version: 'latest' },
      LEVEL: 'debug',
      MODE: { type: 'plain', value: 'fast' },
    });
  });

  it('judges sensitivity by the name, or by credentials in a URL', () => {
    for (const key of [
      'API_TOKEN',
      'GITHUB_SECRET',
      'PASSWORD',
      'SESSION_COOKIE',
      'AWS_ACCESS_KEY_ID',
      'PRIVATE_KEY',
      'DATABASE_URL',
      'CONNECTION_STRING',
    ])
      assert.ok(looksSensitive(key, 'x'), key);
    for (const key of ['LOG_LEVEL', 'REGION', 'NODE_ENV', 'MONKEY']) assert.ok(!looksSensitive(key, 'x'), key);
    assert.ok(looksSensitive('UPSTREAM', 'https://user:pass@example.com'));
  });
});

// The CLI's reader (src/lib/zip.ts) and the board's (ui/src/lib/zip.ts, run here under Node) are one
// thin layer over fflate kept in two projects: every case runs on both.
const readers = [
  { side: 'server', read: serverZip.readZip, ZipError: serverZip.ZipError },
  { side: 'board', read: boardZip.readZip, ZipError: boardZip.ZipError },
] as const;
const roomy = { maxEntries: 10, maxEntryBytes: 1e6, maxTotalBytes: 1e6 };
const text = (data: Uint8Array) => Buffer.from(data).toString('utf8');
const CENTRAL = Buffer.from([0x50, 0x4b, 0x01, 0x02]);

/** A real ZIP bomb: 32 MiB of zeros deflated at level 9 into a few tens of kilobytes. */
const BOMB_BYTES = 32 * 1024 * 1024;
const bomb = Buffer.from(zipSync({ 'bomb/zeros.txt': [new Uint8Array(BOMB_BYTES), { level: 9 }] }));

describe('zip', () => {
  it('writes and reads back deflated and stored entries, in both directions between server and board', async () => {
    const entries = [
      { name: 'a/COMPANY.md', data: Buffer.from('---\nname: A\n---\n'.repeat(50)) },
      { name: 'a/blobs/x', data: Buffer.from([0, 1, 2, 3]) },
      { name: 'a/empty.md', data: Buffer.alloc(0) },
    ];
    assert.deepEqual(serverZip.readZip(serverZip.writeZip(entries), roomy), entries);
    const fromBoard = new Uint8Array(await boardZip.writeZip(entries).arrayBuffer());
    assert.deepEqual(serverZip.readZip(fromBoard, roomy), entries);
    const fromServer = boardZip.readZip(serverZip.writeZip(entries), roomy);
    assert.deepEqual(
      fromServer.map((entry) => ({ name: entry.name, data: Buffer.from(entry.data) })),
      entries,
    );
    // Other tools store rather than deflate, and write folder entries: read by both, folders left out.
    const stored = zipSync({ 'b/': {}, 'b/STORED.md': [Buffer.from('kept as is'), { level: 0 }] });
    for (const { side, read } of readers)
      assert.deepEqual(
        read(stored, roomy).map((entry) => [entry.name, text(entry.data)]),
        [['b/STORED.md', 'kept as is']],
        side,
      );
  });

  for (const { side, read, ZipError } of readers) {
    it(`${side}: stops at its limits and on corrupt input`, () => {
      const zip = serverZip.writeZip([
        { name: 'big', data: Buffer.alloc(10_000) },
        { name: 'b', data: Buffer.from('x') },
      ]);
      assert.throws(() => read(zip, { maxEntries: 1, maxEntryBytes: 1e6, maxTotalBytes: 1e6 }), ZipError);
      assert.throws(() => read(zip, { maxEntries: 10, maxEntryBytes: 9_999, maxTotalBytes: 1e6 }), /at most 9999/);
      assert.throws(
        () => read(zip, { maxEntries: 10, maxEntryBytes: 1e6, maxTotalBytes: 10_000 }),
        /more than 10000 bytes/,
      );
      assert.throws(() => read(Buffer.from('not a zip at all, not even close'), roomy), /not a ZIP/);
      const lying = Buffer.from(zip);
      lying.writeUInt32LE(100, lying.indexOf(CENTRAL) + 24); // the central size of 'big' says 100
      assert.throws(() => read(lying, roomy), /cannot inflate|does not match/);
      const truncated = Buffer.concat([zip.subarray(0, 40), zip.subarray(zip.indexOf(CENTRAL))]);
      assert.throws(() => read(truncated, roomy), ZipError);
    });

    it(`${side}: refuses more entries than the limit, whatever the count the archive claims`, () => {
      const six = zipSync(Object.fromEntries([1, 2, 3, 4, 5, 6].map((n) => [`c/${n}.md`, Buffer.from(`${n}`)])));
      assert.equal(read(six, { ...roomy, maxEntries: 6 }).length, 6);
      assert.throws(() => read(six, { ...roomy, maxEntries: 5 }), /the archive has more than 5 entries/);
    });

    it(`${side}: refuses a ZIP bomb by the size it declares, and many small entries by their sum`, () => {
      assert.ok(bomb.length < BOMB_BYTES / 500, `the bomb is ${bomb.length} bytes`);
      assert.throws(
        () => read(bomb, { maxEntries: 5000, maxEntryBytes: 10 * 1024 * 1024, maxTotalBytes: 25 * 1024 * 1024 }),
        (error: Error) =>
          error instanceof ZipError && error.message === 'bomb/zeros.txt is 33554432 bytes; at most 10485760',
      );
      const spread = zipSync(
        Object.fromEntries([1, 2, 3].map((n) => [`s/${n}.bin`, [new Uint8Array(400_000), { level: 9 }]])),
      );
      assert.throws(
        () => read(spread, { maxEntries: 10, maxEntryBytes: 500_000, maxTotalBytes: 1_000_000 }),
        /the archive holds more than 1000000 bytes/,
      );
    });

    it(`${side}: stops inflating a bomb whose headers understate its size at that size, long before its end`, () => {
      // Both headers say 1,000 bytes, and the end of the deflate stream is destroyed: a reader that
      // inflated everything before counting would fail on the damage; this one stops at byte 1,001.
      const lying = Buffer.from(bomb);
      const central = lying.indexOf(CENTRAL);
      lying.writeUInt32LE(1000, 22);
      lying.writeUInt32LE(1000, central + 24);
      const dataAt = 30 + lying.readUInt16LE(26) + lying.readUInt16LE(28);
      const dataEnd = dataAt + lying.readUInt32LE(18);
      lying.fill(0xff, dataEnd - 64, dataEnd);
      assert.throws(() => inflateSync(lying.subarray(dataAt, dataEnd)), 'the tail of the stream is damaged');
      assert.throws(
        () => read(lying, roomy),
        (error: Error) =>
          error instanceof ZipError &&
          error.message === 'bomb/zeros.txt: its size does not match its header (corrupt archive)',
      );
    });

    it(`${side}: passes a \`../\` name on as it is, for the bundle's path rule to refuse with 400`, () => {
      const escaping = zipSync({
        'COMPANY.md': Buffer.from('---\nname: Evil\n---\n'),
        '../outside.md': Buffer.from('no'),
      });
      const entries = read(escaping, roomy);
      assert.deepEqual(
        entries.map((entry) => entry.name),
        ['COMPANY.md', '../outside.md'],
      );
      assert.throws(
        () => parseBundle(Object.fromEntries(entries.map((entry) => [entry.name, text(entry.data)]))),
        (err: DomainError) => err.status === 400 && /"\.\.\/outside\.md" is not a relative path/.test(err.message),
      );
    });
  }
});
