// The first start of a fresh checkout, as `npm start` runs it (`node bin/boardroom.js run`): the
// board (ui/) has never been built, so bin/boardroom.js builds it before the server starts. The
// build runs in a child process (`node bin/ui-build.js`): Vite, rolldown and lightningcss are never
// loaded into the process that then serves, which would otherwise keep their memory for its whole
// life. A failed build is reported, and the API still starts.
//
// Each test works in a checkout of its own (bin/, ui/ and package.json copied, src/ and
// node_modules linked), so its .build/ starts empty and the build shared by the other test files is
// never touched.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, cp, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { PROJECT_DIR } from '../src/paths.ts';
import { sleep, tempDir, waitForHealth } from './helpers/server-process.ts';

// The serving process after a first start, measured: 126-130 MB with the build in a child process
// (132 MB for a later start whose build already existed), against 397-411 MB when Vite built the
// board inside it. 300 MB leaves room for a busy machine and some growth of the server without
// letting an in-process build pass.
const MAX_SERVER_RSS_MB = 300;
// Native parts of the build tools: a process that loaded Vite has them mapped.
const BUILD_TOOL_LIBRARIES = /rolldown|lightningcss/;
// A Vite build and an esbuild bundle on a loaded 2-core machine, then the database's first start.
const FIRST_START_TIMEOUT_MS = 300_000;

async function freshCheckout(): Promise<string> {
  const root = await tempDir('boardroom-fresh-checkout-');
  await cp(path.join(PROJECT_DIR, 'bin'), path.join(root, 'bin'), { recursive: true });
  await cp(path.join(PROJECT_DIR, 'ui'), path.join(root, 'ui'), { recursive: true });
  await copyFile(path.join(PROJECT_DIR, 'package.json'), path.join(root, 'package.json'));
  await symlink(path.join(PROJECT_DIR, 'src'), path.join(root, 'src'));
  await symlink(path.join(PROJECT_DIR, 'node_modules'), path.join(root, 'node_modules'));
  return root;
}

/** `node <checkout>/bin/boardroom.js run ...`, as `npm start` execs it; output collected. */
function start(root: string, args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [path.join(root, 'bin', 'boardroom.js'), 'run', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? root, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

async function listeningUrl(server: ReturnType<typeof start>): Promise<string> {
  const deadline = Date.now() + FIRST_START_TIMEOUT_MS;
  for (;;) {
    const url = /"msg":"listening on (http:\/\/[^"]+)"/.exec(server.stdout())?.[1];
    if (url) return url;
    assert.ok(server.child.exitCode === null, `the server exited:\n${server.stdout()}\n${server.stderr()}`);
    assert.ok(Date.now() < deadline, `the server did not start:\n${server.stdout()}\n${server.stderr()}`);
    await sleep(100);
  }
}

async function rssMegabytes(pid: number): Promise<number> {
  const kilobytes = /^VmRSS:\s+(\d+) kB$/m.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1];
  assert.ok(kilobytes, `no VmRSS for pid ${pid}`);
  return Number(kilobytes) / 1024;
}

describe('the first start of a fresh checkout', { skip: process.platform !== 'linux' && 'reads /proc' }, () => {
  it('builds the board in a child process: the serving process holds no build tools, and serves the board', async () => {
    const root = await freshCheckout();
    const dataDir = await tempDir('boardroom-first-start-');
    const server = start(root, ['--data-dir', dataDir, '--port', '0'], { BOARDROOM_REQUIRE_BUNDLE: '1' });
    try {
      const base = await listeningUrl(server);
      await waitForHealth(base);
      const pid = server.child.pid;
      assert.ok(pid);
      const rss = await rssMegabytes(pid);
      const loaded = (await readFile(`/proc/${pid}/maps`, 'utf8'))
        .split('\n')
        .filter((line) => BUILD_TOOL_LIBRARIES.test(line));
      console.log(
        `serving process after a first start with a build: VmRSS ${rss.toFixed(0)} MB, ${loaded.length} build-tool mappings`,
      );
      assert.ok(rss < MAX_SERVER_RSS_MB, `the serving process holds ${rss.toFixed(0)} MB (bound ${MAX_SERVER_RSS_MB})`);
      assert.deepEqual(loaded, [], 'no build tool is loaded in the serving process');

      assert.ok(existsSync(path.join(root, '.build', 'ui', 'index.html')), 'the board was built');
      assert.match(server.stderr(), /building the board web UI/);
      const page = await fetch(`${base}/`);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /<div id="root">/);

      server.child.kill('SIGTERM');
      assert.equal(await server.exited, 0);
    } finally {
      server.child.kill('SIGKILL');
    }
  });

  it('a build that fails is reported, and the API starts without the board (an exit with BOARDROOM_REQUIRE_BUNDLE=1)', async () => {
    const root = await freshCheckout();
    // An entry module Vite cannot find.
    const index = path.join(root, 'ui', 'index.html');
    await writeFile(index, (await readFile(index, 'utf8')).replace('/src/main.tsx', '/src/missing.tsx'));

    const required = start(root, ['--data-dir', await tempDir('boardroom-first-start-'), '--port', '0'], {
      BOARDROOM_REQUIRE_BUNDLE: '1',
    });
    assert.equal(await required.exited, 1, required.stderr());
    assert.match(required.stderr(), /missing\.tsx/, 'the build error is shown');
    assert.match(required.stderr(), /could not build the board web UI/);

    const server = start(root, ['--data-dir', await tempDir('boardroom-first-start-'), '--port', '0']);
    try {
      const base = await listeningUrl(server);
      assert.match(server.stderr(), /could not build the board web UI \(ui\/\); the API still runs/);
      assert.equal((await fetch(`${base}/api/health`)).status, 200);
      assert.equal((await fetch(`${base}/`)).status, 503);
      server.child.kill('SIGTERM');
      assert.equal(await server.exited, 0);
    } finally {
      server.child.kill('SIGKILL');
    }
  });
});
