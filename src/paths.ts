// Every file that ships beside the code is found from here, and only from here. The server runs in
// two forms: the TypeScript sources (tests, tsx) and the esbuild bundle `npm start` runs
// (.build/cli.mjs, see bin/boardroom.js). A path relative to a module's own `import.meta.url`
// means another folder once that module is inside the bundle; this file and the bundle both sit
// one level below the project root, so PROJECT_DIR, and every path built on it, is right in both.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The skills shipped with the server, one folder per slug (read at run time, never bundled). */
export const BUNDLED_SKILLS_DIR = path.join(PROJECT_DIR, 'src', 'skills', 'bundled');

/** The release, from package.json: shown by `--version`, the health route and the API document. */
export const VERSION = (JSON.parse(readFileSync(path.join(PROJECT_DIR, 'package.json'), 'utf8')) as { version: string }).version;
