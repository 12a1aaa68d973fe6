// Server logs: readable lines on a terminal (a real pseudo-terminal through util-linux `script`),
// JSON otherwise; the readable formatter on its own (request lines, errors, colour).
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { formatLogLine } from '../src/server/log-format.ts';
import { createLogger } from '../src/server/logger.ts';
import { isAlive, spawnServer, tempDir, waitForHealth } from './helpers/server-process.ts';
import { waitFor } from './helpers/wait.ts';

const BIN = fileURLToPath(new URL('../bin/boardroom.js', import.meta.url));
const hasScript = (() => {
  try {
    return execFileSync('script', ['--version'], { encoding: 'utf8' }).includes('util-linux');
  } catch {
    return false;
  }
})();

/** What a logger writes for `log`, as the destination receives it (one JSON line per entry). */
function jsonLinesOf(log: (logger: ReturnType<typeof createLogger>) => void): string[] {
  const lines: string[] = [];
  log(createLogger('info', { write: (line: string) => void lines.push(line) }));
  return lines;
}

describe('the readable log format', () => {
  it('shows time, level, message and the key fields of a request line, credentials still masked', () => {
    const [line] = jsonLinesOf((logger) =>
      logger.info(
        {
          reqId: 'req-7',
          req: { method: 'GET', url: '/api/auth/login?token=secret123', socket: {} },
          res: { statusCode: 302 },
          responseTime: 1.234,
        },
        'request completed',
      ),
    );
    const at = new Date(JSON.parse(line!).time as number);
    const hhmmss = [at.getHours(), at.getMinutes(), at.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
    assert.equal(
      formatLogLine(line!, false),
      `${hhmmss} INFO  request completed GET /api/auth/login?token=[redacted] 302 1.2ms reqId=req-7\n`,
    );
    assert.doesNotMatch(formatLogLine(line!, true), /secret123/);
  });

  it('shows control characters from requests and agents as \\xNN: no escape sequence or forged line reaches the terminal', () => {
    const err = new Error('bad\x1b]52;c;cGFzdGU=\x07');
    const [line] = jsonLinesOf((logger) =>
      logger.warn({ err, agentText: '\x1b[2Jcleared', bare: 'a\x1bb' }, 'run said\nFAKE 00:00:00 ERROR forged'),
    );
    const plain = formatLogLine(line!, false);
    assert.doesNotMatch(plain, /[\x00-\x08\x0b-\x1f\x7f]/);
    assert.equal(plain.split('\n')[0]!.includes('run said\\x0aFAKE'), true);
    assert.match(plain, /agentText="\\u001b\[2Jcleared"/);
    assert.match(plain, /bare="a\\u001bb"/);
    assert.match(plain, /\n {4}Error: bad\\x1b\]52;c;cGFzdGU=\\x07\n/);
  });

  it('colours the level, prints an error with its stack indented below, and passes a non-JSON line through', () => {
    const err = new Error('boom');
    const [line] = jsonLinesOf((logger) =>
      logger.error({ err, runId: 'r1', detail: 'two words' }, 'engine: run failed'),
    );
    const text = formatLogLine(line!, true);
    assert.match(text, /^\x1b\[90m\d\d:\d\d:\d\d\x1b\[0m \x1b\[31mERROR\x1b\[0m engine: run failed /);
    assert.match(text, /\x1b\[90mrunId=\x1b\[0mr1 \x1b\[90mdetail=\x1b\[0m"two words"\n {4}Error: boom\n {8}at /);
    const plain = formatLogLine(line!, false);
    assert.doesNotMatch(plain, /\x1b/);
    assert.equal(formatLogLine('not json', false), 'not json\n');
  });
});

describe('the log format of a running server', () => {
  it('is JSON when standard output is not a terminal', async () => {
    const server = spawnServer(['--data-dir', await tempDir('boardroom-logs-'), '--port', '0']);
    try {
      await waitForHealth(await server.baseUrl());
      const listening = server
        .output()
        .split('\n')
        .find((l) => l.includes('listening on'))!;
      assert.equal(JSON.parse(listening).level, 30);
      server.child.kill('SIGTERM');
      assert.equal((await server.exited).code, 0);
    } finally {
      server.child.kill('SIGKILL');
    }
  });

  it('is readable, level-coloured lines on a terminal (a real pseudo-terminal)', {
    skip: !hasScript && 'util-linux script is not installed',
  }, async () => {
    const dataDir = await tempDir('boardroom-logs-tty-');
    // script runs the server on a new pseudo-terminal and copies what it prints to our pipe.
    const command = [process.execPath, BIN, 'run', '--data-dir', dataDir, '--port', '0'].map((a) => `'${a}'`).join(' ');
    const env = { ...process.env };
    for (const name of [
      'DATABASE_URL',
      'BOARDROOM_HOME',
      'BOARDROOM_PORT',
      'BOARDROOM_HOST',
      'BOARDROOM_DEPLOYMENT_MODE',
      'BOARDROOM_LOG_LEVEL',
      'NO_COLOR',
    ])
      delete env[name];
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      await waitFor('the listening line', () => /listening on http/.test(out) && /one-time link/.test(out), 120_000);
      const listening = out.split(/\r?\n/).find((l) => l.includes('listening on'))!;
      assert.match(
        listening,
        /^\x1b\[90m\d\d:\d\d:\d\d\x1b\[0m \x1b\[32mINFO \x1b\[0m listening on http:\/\/127\.0\.0\.1:\d+ .*deploymentMode=\x1b\[0mauthenticated/,
      );
      assert.doesNotMatch(out, /\{"level"/, 'no JSON line on the terminal');
      const pidFile = path.join(dataDir, 'boardroom.pid');
      const serverPid = Number(await readFile(pidFile, 'utf8'));
      process.kill(serverPid, 'SIGTERM');
      await exited;
      assert.match(out, /INFO \x1b\[0m shut down in \d+ ms/);
      assert.equal(isAlive(serverPid), false);
      assert.equal(existsSync(pidFile), false);
    } finally {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // the group is gone
      }
    }
  });
});
