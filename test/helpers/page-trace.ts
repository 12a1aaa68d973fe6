// What a browser page did lately, kept so that a failing browser test can say why it failed: the
// requests still waiting for an answer (with their age), the last requests, answers, failures and
// console lines, and the server's last log lines. A journey that times out waiting for something
// to appear otherwise says only "Timeout exceeded", which cannot tell a request that never went,
// one that hangs, one that failed and a page that did not re-render apart.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page, Request } from 'playwright-core';

const KEPT_EVENTS = 80;
const SERVER_LINES = 25;
const SERVER_LINE_CHARS = 400;
/** Hashed bundle files: many per page load, never the story unless one fails. */
const isAsset = (request: Request) => new URL(request.url()).pathname.startsWith('/assets/');

export class PageTrace {
  private readonly events: string[] = [];
  private readonly waiting = new Map<Request, number>();
  private readonly startedAt = Date.now();

  constructor(readonly page: Page) {
    page.on('request', (request) => {
      this.waiting.set(request, Date.now());
      if (isAsset(request)) return;
      this.note(`→ ${request.method()} ${this.short(request.url())}`);
    });
    page.on('requestfinished', (request) => {
      const sentAt = this.waiting.get(request);
      this.waiting.delete(request);
      if (isAsset(request)) return;
      // The status is known once the headers are in; finished means the body is read too.
      void request
        .response()
        .then((response) =>
          this.note(
            `← ${response?.status() ?? '?'} ${request.method()} ${this.short(request.url())}${sentAt ? ` in ${Date.now() - sentAt} ms` : ''}`,
          ),
        )
        // The page or browser closed before the answer was read (a request finishing as a test
        // ends): nothing to note, and no unhandled rejection to fail the file with.
        .catch(() => undefined);
    });
    page.on('requestfailed', (request) => {
      this.waiting.delete(request);
      this.note(`✗ ${request.method()} ${this.short(request.url())}: ${request.failure()?.errorText ?? 'failed'}`);
    });
    page.on('console', (message) => this.note(`console.${message.type()}: ${message.text()}`));
    page.on('pageerror', (error) => this.note(`page error: ${error.message}`));
  }

  /** The report, with a screenshot saved under `dir` as `name`.png when the page is still open. */
  async report(dir: string, name: string, serverOutput: string): Promise<string> {
    const lines = [`page ${this.page.isClosed() ? '(closed)' : this.page.url()}`];
    if (!this.page.isClosed()) {
      const file = path.join(dir, `${name}.png`);
      await mkdir(dir, { recursive: true });
      await this.page.screenshot({ path: file }).then(
        () => lines.push(`screenshot: ${file}`),
        (error: Error) => lines.push(`no screenshot: ${error.message}`),
      );
    }
    const now = Date.now();
    lines.push(`requests without an answer (${this.waiting.size}):`);
    for (const [request, sentAt] of this.waiting)
      lines.push(`  ${request.method()} ${this.short(request.url())}, sent ${now - sentAt} ms ago`);
    lines.push(
      `the last ${this.events.length} events (ms since the page opened):`,
      ...this.events.map((event) => `  ${event}`),
    );
    const serverLines = serverOutput.trimEnd().split('\n').slice(-SERVER_LINES);
    lines.push(
      `the server's last ${serverLines.length} log lines:`,
      ...serverLines.map((line) => `  ${line.slice(0, SERVER_LINE_CHARS)}`),
    );
    return lines.join('\n');
  }

  private note(event: string): void {
    this.events.push(`${Date.now() - this.startedAt} ${event}`);
    if (this.events.length > KEPT_EVENTS) this.events.shift();
  }

  private short(url: string): string {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  }
}
