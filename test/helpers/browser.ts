// The board as its users meet it: the real server (`bin/boardroom.js run`, the bundle and the built
// UI) on a fresh database and data directory, in authenticated mode, and Debian's Chromium driven by
// playwright-core. Every page the tests open collects its console errors and warnings and failed API calls; the
// file's tests fail at the end on any of them, on any 5xx, and on any server log line at level 50.
// A test that fails prints what its pages did lately (./page-trace.ts) and keeps their screenshots.
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, afterEach } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.ts';
import { PROJECT_DIR } from '../../src/paths.ts';
import { PageTrace } from './page-trace.ts';
import { freshDatabase, runCli, spawnServer, tempDir, type ServerProcess } from './server-process.ts';

const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
/** Where screenshots go: `.build/screenshots`, or docs/screenshots with `npm run ui:screenshots`. */
const SCREENSHOTS_DIR = process.env.SCREENSHOTS_DIR ?? path.join(PROJECT_DIR, '.build', 'screenshots');
/** Where a failing test's pages are photographed (never into docs/). */
const FAILURE_SCREENSHOTS_DIR = path.join(PROJECT_DIR, '.build', 'screenshots', 'failed');

export interface BoardServer {
  baseUrl: string;
  dataDir: string;
  databaseUrl: string;
  /** The server process now running (a new one after `restart`). */
  server: ServerProcess;
  /** Stops the server (SIGTERM) and starts it again on the same port, data and database: a drop every open page sees. */
  restart(): Promise<void>;
  /** A board key of the instance owner, for arranging data through the API. */
  ownerToken: string;
  /** An API call as the owner; fails the test on any answer but `expect` (default 2xx). */
  api<T = any>(method: string, url: string, body?: unknown, expect?: number): Promise<T>;
  browser: Browser;
  /** A new browser context (its own cookies) and page, signed in with a fresh login link. */
  signedInPage(viewport?: { width: number; height: number }): Promise<Page>;
  /** A new page with no session. */
  anonymousPage(viewport?: { width: number; height: number }): Promise<Page>;
}

export async function startBoard(env: Record<string, string> = {}): Promise<BoardServer> {
  const dataDir = await tempDir('boardroom-ui-');
  const databaseUrl = await freshDatabase();
  const serverEnv = {
    DATABASE_URL: databaseUrl,
    BOARDROOM_DEPLOYMENT_MODE: 'authenticated',
    BOARDROOM_REQUIRE_BUNDLE: '1',
    ...env,
  };
  const servers = [spawnServer(['--data-dir', dataDir, '--port', '0'], serverEnv)];
  const current = () => servers.at(-1)!;
  const baseUrl = await current().baseUrl();
  const key = await runCli(['board-key', 'create', '--data-dir', dataDir, '--name', 'ui-tests'], serverEnv);
  assert.equal(key.code, 0, key.stderr);
  const ownerToken = key.stdout.match(/svc_board_\S+/)?.[0];
  assert.ok(ownerToken, `no board key in: ${key.stdout}`);

  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  const problems: string[] = [];
  const contexts: BrowserContext[] = [];
  after(async () => {
    await browser.close();
    current().child.kill('SIGTERM');
    await current().exited;
    const errorLines = servers
      .flatMap((server) => server.output().split('\n'))
      .filter((line) => line.startsWith('{') && (JSON.parse(line) as { level?: number }).level! >= 50);
    const found = [...problems, ...errorLines];
    // The message names each one: a custom message replaces assert's own diff.
    assert.equal(
      found.length,
      0,
      `the board had console errors, failed calls or server error lines:\n${found.join('\n')}`,
    );
  });

  // The pages opened since the last test ended: a failing test reports them.
  let traces: PageTrace[] = [];
  afterEach(async (t) => {
    const opened = traces;
    traces = [];
    // Node 20.20 has TestContext.passed; @types/node 20.19 does not name it yet.
    if ((t as { passed?: boolean }).passed !== false) return;
    for (const [index, trace] of opened.entries()) {
      const name = `${path.basename(process.argv[1] ?? 'test', '.test.ts')}-${t.name.replace(/\W+/g, '-').slice(0, 60)}-${index + 1}`;
      console.log(
        `--- what page ${index + 1} of the failed test "${t.name}" did ---\n${await trace.report(FAILURE_SCREENSHOTS_DIR, name, current().output())}`,
      );
    }
  });

  const newPage = async (viewport = { width: 1280, height: 800 }) => {
    const context = await browser.newContext({ baseURL: baseUrl, viewport, reducedMotion: 'reduce' });
    contexts.push(context);
    const page = await context.newPage();
    traces.push(new PageTrace(page));
    page.on('pageerror', (error) => problems.push(`page error on ${page.url()}: ${error.message}`));
    page.on('console', (message) => {
      // A failed fetch logs a console error too; the response check below names those. A warning
      // counts as much as an error: the production build logs none unless something is amiss.
      const type = message.type();
      if ((type === 'error' || type === 'warning') && !message.text().startsWith('Failed to load resource'))
        problems.push(`console ${type} on ${page.url()}: ${message.text()}`);
    });
    page.on('response', (response) => {
      if (response.status() >= 500)
        problems.push(`${response.request().method()} ${response.url()} answered ${response.status()}`);
    });
    return page;
  };

  const api = async (method: string, url: string, body?: unknown, expect?: number) => {
    const res = await fetch(`${baseUrl}${url}`, {
      method,
      headers: {
        authorization: `Bearer ${ownerToken}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (expect !== undefined) assert.equal(res.status, expect, `${method} ${url}: ${text}`);
    else assert.ok(res.status >= 200 && res.status < 300, `${method} ${url} answered ${res.status}: ${text}`);
    return text ? JSON.parse(text) : null;
  };

  return {
    baseUrl,
    dataDir,
    databaseUrl,
    get server() {
      return current();
    },
    async restart() {
      current().child.kill('SIGTERM');
      await current().exited;
      servers.push(spawnServer(['--data-dir', dataDir, '--port', new URL(baseUrl).port, '--strict-port'], serverEnv));
      await current().baseUrl();
    },
    ownerToken,
    api,
    browser,
    anonymousPage: newPage,
    async signedInPage(viewport) {
      const page = await newPage(viewport);
      await signIn(page, dataDir, serverEnv);
      return page;
    },
  };
}

/** Signs a page in as the instance owner through a one-time login link, as a person would. */
async function signIn(page: Page, dataDir: string, env: Record<string, string>): Promise<void> {
  const link = await newLoginLink(dataDir, env);
  await page.goto(link);
  await page.waitForURL((url) => !url.pathname.startsWith('/api/auth'));
}

/** A fresh one-time login link (`boardroom login-link`), the path-and-query part. */
export async function newLoginLink(dataDir: string, env: Record<string, string>): Promise<string> {
  const out = await runCli(['login-link', '--data-dir', dataDir], env);
  assert.equal(out.code, 0, out.stderr);
  const url = new URL(out.stdout.trim());
  return url.pathname + url.search;
}

/** The two colour schemes every accessibility check covers. */
const SCHEMES = ['light', 'dark'] as const;
/** The axe rules whose outcome depends on the colours. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * axe-core inside the page, in the light and the dark scheme: fails on any serious or critical
 * violation, naming each with its scheme. The scheme is switched with `data-theme` on <html> (what
 * the user menu's choice does, and it wins over the emulated system scheme), then put back as it was.
 * A scheme changes only colours, so the second runs only the colour rules: a full second run doubled
 * the check's time, which journeys with a short-lived run to look at cannot spare on a loaded machine.
 */
export async function checkAccessibility(page: Page, what: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window)))
    await page.addScriptTag({ content: await readFile(AXE_SOURCE, 'utf8') });
  const picked = await page.evaluate(() => document.documentElement.dataset.theme ?? null);
  const violations: string[] = [];
  try {
    for (const [index, scheme] of SCHEMES.entries()) {
      await page.evaluate((theme) => {
        document.documentElement.dataset.theme = theme;
      }, scheme);
      const found = await axeViolations(page, index === 0 ? null : COLOUR_RULES);
      violations.push(...found.map((violation) => `${scheme}: ${violation}`));
    }
  } finally {
    await page.evaluate((theme) => {
      if (theme === null) delete document.documentElement.dataset.theme;
      else document.documentElement.dataset.theme = theme;
    }, picked);
  }
  assert.deepEqual(violations, [], `accessibility of ${what}`);
}

/** The serious and critical violations axe finds in the page as it is now (all rules, or `rules`), one line each. */
function axeViolations(page: Page, rules: string[] | null): Promise<string[]> {
  return page.evaluate(async (only) => {
    const result = await (
      window as unknown as {
        axe: {
          run(
            context: Document,
            options: { runOnly?: { type: 'rule'; values: string[] } },
          ): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe.run(document, only ? { runOnly: { type: 'rule', values: only } } : {});
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `${v.impact} ${v.id}: ${v.help} (${v.nodes.length}: ${v.nodes
            .slice(0, 3)
            .map((n) => n.target.join(' '))
            .join(', ')})`,
      );
  }, rules);
}

/**
 * A screenshot of the viewport named for what it shows; a name with a folder (`pages/dashboard-1440-light`)
 * goes into that folder of the screenshots directory.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const file = path.join(SCREENSHOTS_DIR, `${name}.png`);
  await mkdir(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage: false });
}

/**
 * Picks `option` in the board's Select/Combobox named `name` inside `scope` (what `selectOption` did
 * for a native select): opens it by its combobox role, then clicks the option by role in the list,
 * which renders in a popover outside `scope`. A string matches the whole name.
 */
export async function pickOption(scope: Page | Locator, name: string | RegExp, option: string | RegExp): Promise<void> {
  await scope.getByRole('combobox', { name, exact: typeof name === 'string' }).click();
  const page = 'page' in scope ? scope.page() : scope;
  // The chosen option's name ends with its check mark's label ("selected").
  const named =
    typeof option === 'string' ? new RegExp(`^${option.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( selected)?$`) : option;
  await page.getByRole('listbox').getByRole('option', { name: named }).click();
}
