// `boardroom plugin init <dir>`: a working plugin to start from. The worker runs sandboxed and reads
// only its own folder, so the SDK is copied into the plugin as one file (boardroom-plugin-sdk.mjs,
// with its types) rather than imported from Boardroom; the test imports the harness from
// `boardroom/plugin-sdk/testing`, a dev dependency on the Boardroom that made the scaffold
// (`file:` its folder), which the harness uses to start a server.
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseManifest } from '../modules/plugins/manifest.ts';
import { PLUGIN_SDK_DIR, PROJECT_DIR, VERSION } from '../paths.ts';

export interface PluginInitOptions {
  /** The manifest id; default `local.<folder name>`. */
  id?: string;
  /** Shown to operators; default from the folder name. */
  displayName?: string;
}

export const SDK_FILE = 'boardroom-plugin-sdk.mjs';
/** Its types: `.d.mts` is where TypeScript and editors look for those of an `.mjs` file. */
const SDK_TYPES = 'boardroom-plugin-sdk.d.mts';

/** The folder name as a key: lowercase letters, digits and `-`. */
function slugOf(dir: string): string {
  const slug = path
    .basename(path.resolve(dir))
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return slug || 'my-plugin';
}

const titleOf = (slug: string) =>
  slug
    .split('-')
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

function manifestFor(id: string, displayName: string) {
  return {
    id,
    apiVersion: 1,
    version: '0.1.0',
    displayName,
    description: `${displayName}: a Boardroom plugin.`,
    engines: { boardroom: `>=${VERSION}` },
    capabilities: ['tools'],
    tools: [
      {
        name: 'hello',
        description: 'Greets someone by name',
        inputSchema: {
          type: 'object',
          properties: { name: { type: 'string', minLength: 1, maxLength: 100 } },
          required: ['name'],
          additionalProperties: false,
        },
        effect: 'read',
      },
    ],
    worker: './worker.mjs',
  };
}

const WORKER = `// The plugin's worker: one handler per surface its manifest (boardroom.plugin.json) declares.
// It runs in its own process, sandboxed, and reaches Boardroom only through \`ctx.host\` (the host
// calls its capabilities allow), so it imports nothing but the SDK copied beside it.
import { definePlugin, runWorker } from './${SDK_FILE}';

const plugin = definePlugin({
  tools: {
    /** The \`hello\` tool: agents call it with { name } (checked against its inputSchema first). */
    hello: (input) => ({ message: \`Hello, \${input.name}!\` }),
  },
});

runWorker(plugin);
`;

const TEST = `// Runs the plugin on a real Boardroom server: installed from this folder, enabled for a company of
// its own, called over HTTP as agents call it. The harness starts a server on a fresh data directory
// unless BOARDROOM_TEST_URL and BOARDROOM_TEST_TOKEN name a running one (and an owner's board key).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createTestHarness } from 'boardroom/plugin-sdk/testing';

let harness;
before(async () => {
  harness = await createTestHarness({ pluginDir: fileURLToPath(new URL('..', import.meta.url)) });
});
after(() => harness?.close());

test('the hello tool greets by name', async () => {
  assert.deepEqual(await harness.tool('hello', { name: 'Ada' }), { message: 'Hello, Ada!' });
});

test('the worker runs and answers health', async () => {
  await harness.tool('hello', { name: 'health check' });
  const worker = await harness.health();
  assert.equal(worker.status, 'running');
  assert.equal(worker.health.status, 'ok');
});
`;

function readme(displayName: string, id: string): string {
  return `# ${displayName}

A Boardroom plugin (\`${id}\`), scaffolded by \`boardroom plugin init\`.

| file | what |
|---|---|
| \`boardroom.plugin.json\` | the manifest: what the plugin declares and the capabilities it asks for (docs/plugins.md in Boardroom) |
| \`worker.mjs\` | the worker: a handler per declared surface, written with the SDK |
| \`${SDK_FILE}\`, \`${SDK_TYPES}\` | boardroom/plugin-sdk ${VERSION}, copied here: the worker runs sandboxed and reads only this folder. Do not edit; to update, copy it from a newer Boardroom (\`plugin-sdk/index.mjs\`) |
| \`test/worker.test.mjs\` | a test on a real server through \`boardroom/plugin-sdk/testing\` |

## Develop

\`\`\`sh
npm install        # links the Boardroom this was made with (devDependencies), for the test harness
npm test           # starts a Boardroom server, installs this folder, calls the hello tool
\`\`\`

Add a surface by declaring it in the manifest (with the capability it needs) and adding its handler
in \`worker.mjs\`: \`tools\`, \`data\` (UI blocks, built with \`blocks.*\`), \`actions\`, \`jobs\`,
\`webhooks\`, \`events\`. Each handler gets \`(input, ctx)\`: \`ctx.host\` makes the host calls
(\`ctx.host.issues.create(...)\`, \`ctx.host.state.get(...)\`), \`ctx.signal\` aborts when the host cancels,
\`ctx.config\` is the plugin's config. The kitchen-sink example shipped with Boardroom declares every
surface.

## Install

In the board: Plugins → Install → from a path (this folder), then enable it for a company. Or
\`POST /api/plugins/install\` with \`{ "packageName": "<this folder>", "isLocalPath": true }\`. Install
from a copy without \`node_modules\` (a package holds regular files only; \`npm pack\` makes one).
`;
}

/** Writes the scaffold into `dir` (created; refused when it holds anything). Returns the files written. */
export async function initPlugin(dir: string, options: PluginInitOptions = {}): Promise<string[]> {
  const root = path.resolve(dir);
  await mkdir(root, { recursive: true });
  const present = await readdir(root);
  if (present.length > 0) throw new Error(`${root} is not empty: plugin init writes into a new or empty folder`);
  const slug = slugOf(root);
  const id = options.id ?? `local.${slug}`;
  const displayName = options.displayName ?? titleOf(slug);
  const manifest = manifestFor(id, displayName);
  // The scaffold passes the same checks an install does, or nothing is written.
  parseManifest(manifest);

  const sdk = await readFile(path.join(PLUGIN_SDK_DIR, 'index.mjs'), 'utf8');
  const files: Record<string, string> = {
    'package.json': json({
      name: slug,
      version: '0.1.0',
      private: true,
      description: manifest.description,
      type: 'module',
      boardroom: { plugin: './boardroom.plugin.json' },
      files: ['boardroom.plugin.json', 'worker.mjs', SDK_FILE, SDK_TYPES, 'README.md'],
      scripts: { test: 'node --test' },
      devDependencies: { boardroom: `file:${PROJECT_DIR}` },
    }),
    'boardroom.plugin.json': json(manifest),
    'worker.mjs': WORKER,
    [SDK_FILE]: `// boardroom/plugin-sdk ${VERSION}, copied by \`boardroom plugin init\`: do not edit.\n${sdk}`,
    'README.md': readme(displayName, id),
    'test/worker.test.mjs': TEST,
  };
  await mkdir(path.join(root, 'test'));
  for (const [name, content] of Object.entries(files)) await writeFile(path.join(root, name), content);
  await copyFile(path.join(PLUGIN_SDK_DIR, 'index.d.ts'), path.join(root, SDK_TYPES));
  return [...Object.keys(files), SDK_TYPES].sort();
}
