// The plugin manifest's rules (issue 27 section 1), one case per rule: each refusal is a 422 whose
// message names the field and the value, and `details.issues` lists every field that is wrong. The
// rules that need the package's files (the worker exists, .js needs type module) are driven through
// the install route in test/plugins.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DomainError } from '../src/core/errors.ts';
import { parseManifest } from '../src/modules/plugins/manifest.ts';
import { checkJsonSchema } from '../src/modules/plugins/json-schema.ts';

/** A minimal valid manifest, with `change` applied (a key set to undefined is removed). */
function manifest(change: Record<string, unknown> = {}): Record<string, unknown> {
  const base: Record<string, unknown> = {
    id: 'acme.sample',
    apiVersion: 1,
    version: '1.0.0',
    displayName: 'Sample',
    description: 'A sample plugin',
    engines: { boardroom: '>=0.1.0' },
    capabilities: ['issues.read'],
    worker: './worker.mjs',
  };
  const out = { ...base, ...change };
  for (const [key, value] of Object.entries(out)) if (value === undefined) delete out[key];
  return out;
}

function refusal(raw: unknown): DomainError {
  try {
    parseManifest(raw);
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  assert.fail('the manifest was accepted');
}

/** The manifest is refused with 422, and the message names `field` and matches `says`. */
function refused(raw: unknown, field: string, says: RegExp) {
  const err = refusal(raw);
  assert.equal(err.status, 422);
  assert.ok(err.message.includes(`${field}: `), `names ${field}: ${err.message}`);
  assert.match(err.message, says);
  const issues = (err.details as { issues: { field: string }[] }).issues;
  assert.ok(
    issues.some((i) => i.field === field),
    JSON.stringify(issues),
  );
}

describe('plugin manifest: what is accepted', () => {
  it('accepts a minimal manifest and fills in the defaults', () => {
    const m = parseManifest(manifest());
    assert.deepEqual(m.jobs, []);
    assert.deepEqual(m.net, []);
    assert.deepEqual(m.ui, { slots: [] });
  });

  it('accepts every surface with the capabilities they need, defaults inside them filled in', () => {
    const m = parseManifest(
      manifest({
        capabilities: ['jobs', 'webhooks', 'tools', 'http.outbound', 'events.subscribe', 'secrets.use', 'ui.blocks'],
        net: ['api.example.com'],
        events: ['issue.created', 'approval.*'],
        jobs: [{ key: 'nightly', cron: '0 2 * * *' }],
        webhooks: [{ key: 'in', signing: 'hmac_sha256' }],
        tools: [{ name: 'echo', description: 'echo', inputSchema: { type: 'object' }, effect: 'read' }],
        data: [{ key: 'summary' }],
        actions: [{ key: 'go', paramsSchema: { type: 'object', properties: { n: { type: 'integer' } } } }],
        streams: [{ channel: 'ticks' }],
        configSchema: { type: 'object', properties: { token: { type: 'string', format: 'secret-ref' } } },
        ui: { slots: [{ key: 'w', slot: 'dashboardWidget', title: 'W', data: 'summary' }] },
      }),
    );
    assert.deepEqual(m.jobs[0], { key: 'nightly', cron: '0 2 * * *', timezone: 'UTC', timeoutSec: 300 });
    assert.equal(m.actions[0]?.confirm, false);
    assert.equal(m.ui.slots[0]?.kind, 'blocks');
    assert.equal(m.ui.slots[0]?.data, 'summary');
  });
});

describe('plugin manifest: every refusal names its field', () => {
  it('apiVersion other than 1', () => refused(manifest({ apiVersion: 2 }), 'apiVersion', /unsupported apiVersion 2/));
  it('a missing id, and an id with capitals', () => {
    refused(manifest({ id: undefined }), 'id', /expected string/);
    refused(manifest({ id: 'Acme Sample' }), 'id', /lowercase/);
  });
  it('a version that is not semver', () => refused(manifest({ version: 'one' }), 'version', /semantic version/));
  it('engines.boardroom missing', () => refused(manifest({ engines: {} }), 'engines.boardroom', /expected string/));
  it('a field the manifest does not have', () =>
    refused(manifest({ permissions: ['all'] }), 'permissions', /not a manifest field/));
  it('an unknown capability, naming the value', () =>
    refused(
      manifest({ capabilities: ['issues.read', 'issues.delete'] }),
      'capabilities[1]',
      /unknown capability "issues.delete"/,
    ));
  for (const never of [
    'approvals.decide',
    'budgets.override',
    'secrets.read',
    'sql',
    'files',
    'subprocess',
    'plugins.manage',
  ])
    it(`a never-grantable capability: ${never}`, () =>
      refused(
        manifest({ capabilities: [never] }),
        'capabilities[0]',
        new RegExp(`"${never.replace('.', '\\.')}" is never grantable`),
      ));
  it('a capability listed twice', () =>
    refused(manifest({ capabilities: ['state', 'state'] }), 'capabilities[1]', /"state" is listed twice/));

  it('jobs without the jobs capability', () =>
    refused(manifest({ jobs: [{ key: 'j', cron: '* * * * *' }] }), 'jobs', /`jobs` capability/));
  it('webhooks without the webhooks capability', () =>
    refused(manifest({ webhooks: [{ key: 'w', signing: 'none' }] }), 'webhooks', /`webhooks` capability/));
  it('tools without the tools capability', () =>
    refused(
      manifest({ tools: [{ name: 't', description: 'd', inputSchema: { type: 'object' }, effect: 'read' }] }),
      'tools',
      /`tools` capability/,
    ));
  it('net hosts without http.outbound', () =>
    refused(manifest({ net: ['api.example.com'] }), 'net', /`http.outbound` capability/));
  it('http.outbound with no host', () =>
    refused(manifest({ capabilities: ['http.outbound'] }), 'net', /at least one host/));
  it('events without events.subscribe', () =>
    refused(manifest({ events: ['issue.created'] }), 'events', /`events.subscribe` capability/));
  it('net entries that are not exact host names', () => {
    for (const host of ['*.example.com', 'https://api.example.com', '10.0.0.1', 'api.example.com:443', 'localhost'])
      refused(manifest({ capabilities: ['http.outbound'], net: [host] }), 'net[0]', /not an exact host name/);
  });
  it('a host listed twice', () =>
    refused(
      manifest({ capabilities: ['http.outbound'], net: ['a.example.com', 'a.example.com'] }),
      'net[1]',
      /duplicate/,
    ));

  const jobs = (list: unknown[]) => manifest({ capabilities: ['jobs'], jobs: list });
  it("a cron expression the routines' parser refuses", () =>
    refused(jobs([{ key: 'j', cron: '61 * * * *' }]), 'jobs[0].cron', /"61 \* \* \* \*": invalid cron expression/));
  it('an unknown timezone', () =>
    refused(
      jobs([{ key: 'j', cron: '0 2 * * *', timezone: 'Mars/Olympus' }]),
      'jobs[0].timezone',
      /unknown timezone "Mars\/Olympus"/,
    ));
  it('a timeout out of bounds', () =>
    refused(jobs([{ key: 'j', cron: '0 2 * * *', timeoutSec: 0 }]), 'jobs[0].timeoutSec', /too small|>=1/));
  it('duplicate job keys', () =>
    refused(
      jobs([
        { key: 'j', cron: '0 2 * * *' },
        { key: 'j', cron: '0 3 * * *' },
      ]),
      'jobs[1]',
      /duplicate "j"/,
    ));
  it('a job key with capitals', () =>
    refused(jobs([{ key: 'Nightly', cron: '0 2 * * *' }]), 'jobs[0].key', /lowercase/));

  it('a webhook signing mode not in the list', () =>
    refused(
      manifest({ capabilities: ['webhooks'], webhooks: [{ key: 'w', signing: 'md5' }] }),
      'webhooks[0].signing',
      /bearer/,
    ));
  it('duplicate webhook keys', () =>
    refused(
      manifest({
        capabilities: ['webhooks'],
        webhooks: [
          { key: 'w', signing: 'none' },
          { key: 'w', signing: 'bearer' },
        ],
      }),
      'webhooks[1]',
      /duplicate "w"/,
    ));

  const tool = (change: Record<string, unknown>) => ({
    name: 't',
    description: 'd',
    inputSchema: { type: 'object' },
    effect: 'read',
    ...change,
  });
  const tools = (list: unknown[]) => manifest({ capabilities: ['tools'], tools: list });
  it('a tool effect other than read or write', () =>
    refused(tools([tool({ effect: 'delete' })]), 'tools[0].effect', /read|write/));
  it('duplicate tool names', () => refused(tools([tool({}), tool({})]), 'tools[1]', /duplicate "t"/));
  it('a tool input schema that is not JSON Schema', () =>
    refused(
      tools([tool({ inputSchema: { type: 'object', properties: { n: { type: 'strng' } } } })]),
      'tools[0].inputSchema',
      /not a JSON Schema: properties\.n\.type "strng" is not a JSON Schema type/,
    ));
  it('a tool input schema that is not an object schema', () =>
    refused(tools([tool({ inputSchema: { type: 'string' } })]), 'tools[0].inputSchema', /must be "object"/));

  it('an action params schema that is not JSON Schema', () =>
    refused(
      manifest({ actions: [{ key: 'a', paramsSchema: { type: 'object', required: 'n' } }] }),
      'actions[0].paramsSchema',
      /required must be an array/,
    ));
  it('duplicate action, data and stream keys', () => {
    refused(
      manifest({
        actions: [
          { key: 'a', paramsSchema: { type: 'object' } },
          { key: 'a', paramsSchema: { type: 'object' } },
        ],
      }),
      'actions[1]',
      /duplicate "a"/,
    );
    refused(manifest({ data: [{ key: 'd' }, { key: 'd' }] }), 'data[1]', /duplicate "d"/);
    refused(manifest({ streams: [{ channel: 's' }, { channel: 's' }] }), 'streams[1]', /duplicate "s"/);
  });

  it('a config schema that is not JSON Schema', () =>
    refused(
      manifest({ configSchema: { type: 'object', properties: { n: { minimum: 'one' } } } }),
      'configSchema',
      /minimum must be a number/,
    ));
  it('a config field that would hold a secret value', () => {
    refused(
      manifest({
        capabilities: ['secrets.use'],
        configSchema: { type: 'object', properties: { key: { type: 'string', format: 'password' } } },
      }),
      'configSchema',
      /secret-ref/,
    );
    refused(
      manifest({ configSchema: { type: 'object', properties: { key: { type: 'string', writeOnly: true } } } }),
      'configSchema',
      /secret-ref/,
    );
  });
  it('secret references without secrets.use', () =>
    refused(
      manifest({ configSchema: { type: 'object', properties: { key: { type: 'string', format: 'secret-ref' } } } }),
      'configSchema',
      /`secrets.use` capability/,
    ));
  it('a remote $ref', () =>
    refused(
      manifest({ configSchema: { type: 'object', $ref: 'https://example.com/s.json' } }),
      'configSchema',
      /local reference/,
    ));

  it('a worker that is not one ES module file', () =>
    refused(manifest({ worker: './worker.ts' }), 'worker', /ES module/));
  it('a worker outside the package', () => {
    refused(manifest({ worker: '../outside.mjs' }), 'worker', /inside the package/);
    refused(manifest({ worker: '/etc/worker.mjs' }), 'worker', /inside the package/);
  });

  const ui = (capabilities: string[], slot: Record<string, unknown>) =>
    manifest({ capabilities, ui: { slots: [{ key: 's', title: 'S', slot: 'dashboardWidget', ...slot }] } });
  it('a UI slot without its UI capability', () => {
    refused(ui([], {}), 'ui.slots[0].kind', /`ui.blocks` capability/);
    refused(
      ui(['ui.blocks'], { kind: 'frame', entry: './ui/index.html' }),
      'ui.slots[0].kind',
      /`ui.frame` capability/,
    );
  });
  it('a frame slot with no page, a detail tab with no entity, an unknown slot', () => {
    refused(ui(['ui.frame'], { kind: 'frame' }), 'ui.slots[0].entry', /names its HTML page/);
    refused(ui(['ui.blocks'], { slot: 'detailTab' }), 'ui.slots[0].entity', /names its entity/);
    refused(ui(['ui.blocks'], { slot: 'sidebarTakeover' }), 'ui.slots[0].slot', /dashboardWidget/);
  });

  it('a blocks slot names a declared data key; a frame slot has none', () => {
    const withData = (slot: Record<string, unknown>, capabilities = ['ui.blocks']) =>
      manifest({
        capabilities,
        data: [{ key: 'summary' }],
        ui: { slots: [{ key: 's', title: 'S', slot: 'dashboardWidget', ...slot }] },
      });
    refused(withData({}), 'ui.slots[0].data', /names the data key that feeds it/);
    refused(withData({ data: 'sumary' }), 'ui.slots[0].data', /"sumary" is not a declared data key/);
    refused(
      withData({ kind: 'frame', entry: './ui/index.html', data: 'summary' }, ['ui.frame']),
      'ui.slots[0].data',
      /only a blocks slot has a data key/,
    );
    assert.equal(parseManifest(withData({ data: 'summary' })).ui.slots[0]?.data, 'summary');
  });

  it('lists every wrong field, not only the first', () => {
    const err = refusal(manifest({ capabilities: ['sql', 'files'], jobs: [{ key: 'j', cron: '0 2 * * *' }] }));
    const fields = (err.details as { issues: { field: string }[] }).issues.map((i) => i.field);
    assert.deepEqual(fields, ['capabilities[0]', 'capabilities[1]', 'jobs']);
    assert.match(err.message, /and 2 more/);
  });
});

describe('the JSON Schema check', () => {
  it('accepts draft 2020-12 and draft-07 shapes, boolean schemas and unknown keywords', () => {
    const schema = {
      type: 'object',
      $defs: { name: { type: 'string', pattern: '^[a-z]+$' } },
      properties: {
        name: { $ref: '#/$defs/name' },
        tags: { type: 'array', items: { type: 'string' }, minItems: 0 },
        pair: { type: 'array', items: [{ type: 'string' }, { type: ['number', 'null'] }] },
        any: true,
        choice: { oneOf: [{ const: 1 }, { enum: [2, 3] }] },
      },
      required: ['name'],
      additionalProperties: false,
      'x-widget': 'fancy',
    };
    assert.equal(checkJsonSchema(schema, { rootType: 'object' }).problem, null);
  });
  it('refuses an invalid pattern and an empty anyOf', () => {
    assert.match(checkJsonSchema({ type: 'string', pattern: '(' }).problem?.message ?? '', /regular expression/);
    assert.match(checkJsonSchema({ anyOf: [] }).problem?.message ?? '', /non-empty array/);
  });
});
