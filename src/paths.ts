// The project root, for files that ship beside the code (migrations, SQL, the postgres binaries
// under node_modules). This file sits one level below the root, and so does the start-up bundle
// (.build/cli.mjs, see bin/boardroom.js), so the same relative step works in both.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The release, from package.json: shown by `--version`, the health route and the API document. */
export const VERSION = (JSON.parse(readFileSync(path.join(PROJECT_DIR, 'package.json'), 'utf8')) as { version: string }).version;
