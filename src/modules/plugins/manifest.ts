// The plugin manifest (issue 27 section 1): a static JSON file the package's package.json points to
// (`"boardroom": { "plugin": "./boardroom.plugin.json" }`), read as data and never executed. Every
// rule that can be checked without running the plugin is checked here, and a refusal is a 422 that
// names the field (`jobs[1].cron`) and the value: unknown apiVersion, unknown or never-grantable
// capabilities, duplicate keys, schemas that are not JSON Schema, capabilities the declared surfaces
// need. That the worker file exists inside the package is checked where the package is read
// (package.ts), from `referencedFiles`.
import { z } from 'zod';
import { unprocessable } from '../../core/errors.ts';
import { NPM_VERSION } from '../../core/package-staging.ts';
import { assertValidSchedule, isValidTimezone } from '../routines/schedule.ts';
import { type Capability, isCapability, NEVER_GRANTABLE } from './capabilities.ts';
import { checkJsonSchema } from './json-schema.ts';

export const MANIFEST_API_VERSION = 1;
/** The package.json field that names the manifest file. */
export const MANIFEST_POINTER = 'boardroom.plugin';
export const MAX_MANIFEST_BYTES = 256 * 1024;

const KEY_RULE = 'lowercase letters, digits, `_` and `-`, starting with a letter or digit, at most 64 characters';
const key = () => z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, KEY_RULE);
const SEMVER = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;
// A DNS name with at least two labels whose last starts with a letter: no IP literal, no port, no wildcard.
const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;
// Activity actions (`issue.created`), optionally ending in `*` for a family (`issue.*`).
const EVENT = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*(\.\*)?$/;
// A file inside the package: relative, no `..` segment, no backslash.
const RELATIVE_FILE = /^(?!\/)(?!.*(^|\/)\.\.(\/|$))(?:\.\/)?[A-Za-z0-9._@/-]+$/;
const jsonObject = () => z.record(z.string(), z.unknown());

export const WEBHOOK_SIGNINGS = ['bearer', 'hmac_sha256', 'codehost_hmac', 'none'] as const;
export const UI_SLOTS = [
  'dashboardWidget',
  'detailTab',
  'companyPage',
  'toolbarAction',
  'commentAnnotation',
  'settingsPage',
] as const;

const uiSlot = z.strictObject({
  key: key(),
  slot: z.enum(UI_SLOTS),
  title: z.string().trim().min(1).max(100),
  /** blocks: typed JSON the board renders with its own components; frame: the plugin's page in a sandboxed iframe. */
  kind: z.enum(['blocks', 'frame']).default('blocks'),
  /** What a detail tab attaches to. */
  entity: z.enum(['issue', 'project', 'agent', 'run']).optional(),
  /** The frame's HTML page, a file inside the package (frame slots only). */
  entry: z.string().max(300).regex(RELATIVE_FILE, 'a relative path inside the package').optional(),
  /** The declared data key (`data[].key`) whose answer a blocks slot shows (blocks slots only). */
  data: key().optional(),
});

const manifestShape = z.strictObject({
  id: z
    .string()
    .regex(/^[a-z0-9][a-z0-9._-]{0,99}$/, 'lowercase letters, digits, `.`, `_` and `-`, at most 100 characters'),
  apiVersion: z.literal(MANIFEST_API_VERSION, {
    error: (issue) =>
      `unsupported apiVersion ${JSON.stringify(issue.input)}: this server speaks apiVersion ${MANIFEST_API_VERSION}`,
  }),
  version: z.string().max(100).regex(SEMVER, 'a semantic version such as 1.2.3'),
  displayName: z.string().trim().min(1).max(100),
  description: z.string().trim().min(1).max(2000),
  engines: z.strictObject({
    boardroom: z.string().min(1).max(100).regex(NPM_VERSION, 'a version range such as >=0.1.0'),
  }),
  capabilities: z.array(z.string().max(100)).max(50),
  net: z.array(z.string().max(253)).max(50).default([]),
  configSchema: jsonObject().optional(),
  events: z
    .array(z.string().max(200).regex(EVENT, 'an activity action such as issue.created or issue.*'))
    .max(100)
    .default([]),
  jobs: z
    .array(
      z.strictObject({
        key: key(),
        cron: z.string().min(1).max(200),
        timezone: z.string().min(1).max(100).default('UTC'),
        timeoutSec: z.number().int().min(1).max(3600).default(300),
      }),
    )
    .max(50)
    .default([]),
  webhooks: z
    .array(z.strictObject({ key: key(), signing: z.enum(WEBHOOK_SIGNINGS) }))
    .max(50)
    .default([]),
  tools: z
    .array(
      z.strictObject({
        name: key(),
        description: z.string().trim().min(1).max(2000),
        inputSchema: jsonObject(),
        effect: z.enum(['read', 'write']),
      }),
    )
    .max(50)
    .default([]),
  data: z
    .array(z.strictObject({ key: key(), description: z.string().max(2000).optional() }))
    .max(50)
    .default([]),
  actions: z
    .array(z.strictObject({ key: key(), paramsSchema: jsonObject(), confirm: z.boolean().default(false) }))
    .max(50)
    .default([]),
  streams: z
    .array(z.strictObject({ channel: key(), description: z.string().max(2000).optional() }))
    .max(50)
    .default([]),
  ui: z.strictObject({ slots: z.array(uiSlot).max(50).default([]) }).default({ slots: [] }),
  /** Server folders the plugin reads, each mounted read-only only once the instance owner picks its path per company. */
  localFolders: z
    .array(z.strictObject({ key: key(), description: z.string().trim().min(1).max(2000) }))
    .max(10)
    .default([]),
  worker: z
    .string()
    .max(300)
    .regex(RELATIVE_FILE, 'a relative path inside the package')
    .refine((file) => /\.m?js$/.test(file), 'one ES module file: .mjs, or .js in a package of type module'),
});

export type PluginManifest = z.output<typeof manifestShape>;

type Issue = { path: (string | number)[]; message: string };

/** What the declared surfaces need: declaring one without its capability is refused. */
const SURFACE_NEEDS: { field: keyof PluginManifest; capability: Capability; what: string }[] = [
  { field: 'jobs', capability: 'jobs', what: 'jobs' },
  { field: 'webhooks', capability: 'webhooks', what: 'webhooks' },
  { field: 'tools', capability: 'tools', what: 'tools' },
  { field: 'net', capability: 'http.outbound', what: 'outbound hosts' },
  { field: 'events', capability: 'events.subscribe', what: 'events' },
  { field: 'localFolders', capability: 'folders.read', what: 'local folders' },
];

/** The rules across fields, each reported at the field it is about. */
function crossFieldIssues(m: PluginManifest): Issue[] {
  const issues: Issue[] = [];
  const add = (path: (string | number)[], message: string) => issues.push({ path, message });
  const declared = new Set<string>();
  for (const [i, name] of m.capabilities.entries()) {
    if (declared.has(name)) add(['capabilities', i], `"${name}" is listed twice`);
    declared.add(name);
    if (isCapability(name)) continue;
    const never = NEVER_GRANTABLE[name];
    add(
      ['capabilities', i],
      never
        ? `"${name}" is never grantable to a plugin: ${never}`
        : `unknown capability "${name}" (see docs/plugins.md for the list)`,
    );
  }
  const has = (capability: Capability) => declared.has(capability);
  for (const need of SURFACE_NEEDS) {
    const list = m[need.field] as unknown[];
    if (list.length > 0 && !has(need.capability))
      add([need.field], `declares ${need.what} but not the \`${need.capability}\` capability`);
  }
  if (has('http.outbound') && m.net.length === 0)
    add(['net'], 'the `http.outbound` capability needs at least one host in `net`');

  const unique = (field: string, keys: string[]) => {
    const seen = new Set<string>();
    for (const [i, k] of keys.entries()) {
      if (seen.has(k)) add([field, i], `duplicate ${JSON.stringify(k)}`);
      seen.add(k);
    }
  };
  unique('net', m.net);
  unique('events', m.events);
  unique(
    'jobs',
    m.jobs.map((j) => j.key),
  );
  unique(
    'webhooks',
    m.webhooks.map((w) => w.key),
  );
  unique(
    'tools',
    m.tools.map((t) => t.name),
  );
  unique(
    'data',
    m.data.map((d) => d.key),
  );
  unique(
    'actions',
    m.actions.map((a) => a.key),
  );
  unique(
    'streams',
    m.streams.map((s) => s.channel),
  );
  unique(
    'localFolders',
    m.localFolders.map((f) => f.key),
  );
  if (has('folders.read') && m.localFolders.length === 0)
    add(['localFolders'], 'the `folders.read` capability needs at least one folder in `localFolders`');

  for (const [i, host] of m.net.entries())
    if (!HOSTNAME.test(host))
      add(['net', i], `${JSON.stringify(host)} is not an exact host name (lowercase, no scheme, port, wildcard or IP)`);

  for (const [i, job] of m.jobs.entries()) {
    if (!isValidTimezone(job.timezone)) {
      add(['jobs', i, 'timezone'], `unknown timezone ${JSON.stringify(job.timezone)}: use an IANA name such as UTC`);
      continue;
    }
    try {
      assertValidSchedule(job.cron, job.timezone);
    } catch (err) {
      add(['jobs', i, 'cron'], `${JSON.stringify(job.cron)}: ${(err as Error).message}`);
    }
  }

  const schema = (path: (string | number)[], value: unknown, secrets: boolean) => {
    const { problem, facts } = checkJsonSchema(value, { rootType: 'object', secrets });
    if (problem) add(path, `not a JSON Schema: ${problem.at ? `${problem.at.slice(1)} ` : ''}${problem.message}`);
    return facts;
  };
  if (m.configSchema !== undefined) {
    const facts = schema(['configSchema'], m.configSchema, true);
    if (facts.usesSecretRefs && !has('secrets.use'))
      add(['configSchema'], 'references secrets but the manifest lacks the `secrets.use` capability');
  }
  for (const [i, tool] of m.tools.entries()) schema(['tools', i, 'inputSchema'], tool.inputSchema, false);
  for (const [i, action] of m.actions.entries()) schema(['actions', i, 'paramsSchema'], action.paramsSchema, false);

  unique(
    'ui.slots',
    m.ui.slots.map((s) => s.key),
  );
  const dataKeys = new Set(m.data.map((d) => d.key));
  for (const [i, slot] of m.ui.slots.entries()) {
    const at = ['ui', 'slots', i];
    const needs: Capability = slot.kind === 'frame' ? 'ui.frame' : 'ui.blocks';
    if (!has(needs)) add([...at, 'kind'], `a ${slot.kind} slot needs the \`${needs}\` capability`);
    if (slot.kind === 'frame' && !slot.entry) add([...at, 'entry'], 'a frame slot names its HTML page');
    if (slot.kind === 'blocks' && slot.entry) add([...at, 'entry'], 'only a frame slot has an HTML page');
    if (slot.slot === 'detailTab' && !slot.entity) add([...at, 'entity'], 'a detail tab names its entity');
    if (slot.slot !== 'detailTab' && slot.entity) add([...at, 'entity'], 'only a detail tab has an entity');
    if (slot.kind === 'blocks' && !slot.data) add([...at, 'data'], 'a blocks slot names the data key that feeds it');
    if (slot.kind === 'frame' && slot.data) add([...at, 'data'], 'only a blocks slot has a data key');
    if (slot.data && !dataKeys.has(slot.data))
      add([...at, 'data'], `${JSON.stringify(slot.data)} is not a declared data key (\`data[].key\`)`);
  }
  return issues;
}

/** `jobs[1].cron`, `ui.slots[0].kind`: the field as a manifest author reads it. */
export function fieldName(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || '(the manifest)';
}

/**
 * The manifest, parsed with defaults filled in, or a 422 naming every field that is wrong:
 * `error` says the first, `details.issues` lists them all as `{ field, message }`.
 */
export function parseManifest(raw: unknown): PluginManifest {
  const parsed = manifestShape.safeParse(raw);
  const issues: { field: string; message: string }[] = parsed.success
    ? crossFieldIssues(parsed.data).map((i) => ({ field: fieldName(i.path), message: i.message }))
    : parsed.error.issues.map((issue) =>
        issue.code === 'unrecognized_keys'
          ? { field: fieldName([...issue.path, issue.keys[0] ?? '']), message: 'is not a manifest field' }
          : { field: fieldName(issue.path), message: issue.message },
      );
  const [first] = issues;
  if (first || !parsed.success)
    throw unprocessable(
      `the plugin manifest is invalid: ${first ? `${first.field}: ${first.message}` : 'unreadable'}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ''}`,
      { issues },
    );
  return parsed.data;
}

/** The files the manifest names, by field: each must exist inside the package. */
export function referencedFiles(m: PluginManifest): { field: string; file: string }[] {
  return [
    { field: 'worker', file: m.worker },
    ...m.ui.slots.flatMap((slot, i) => (slot.entry ? [{ field: `ui.slots[${i}].entry`, file: slot.entry }] : [])),
  ];
}
