// Two clients creating issues back to back against a running `boardroom run`, every answer recorded
// with its time, and how long the service takes to come back when its embedded database is killed
// under them. One protocol for both: test/platform.test.ts holds its claims (only 503 meanwhile, no
// acknowledged write lost, back at all), bench/platform.ts reports the times against the 5 s target.

export interface Answer {
  /** Date.now() when the answer was read. */
  at: number;
  status: number;
  retryAfter: string | null;
  body: string;
}

// Generous on purpose: these catch a restart that never comes, not a slow one (the bench times those).
const PATIENCE_MS = 60_000;
// A SIGKILLed postmaster's backends may still answer for a moment: "back" is only decided once the
// restart is reported and this many more issues were created.
const SETTLED_201S = 20;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class IssueWriteLoad {
  readonly answers: Answer[] = [];
  /** Ids of the issues whose creation answered 201. */
  readonly acknowledged: string[] = [];
  #loading = true;
  readonly #clients: Promise<void>[];

  /** Starts `clients` loops POSTing issues to `companyId` with `headers` (credential and JSON content type). */
  constructor(
    readonly base: string,
    readonly headers: Record<string, string>,
    readonly companyId: string,
    clients = 2,
  ) {
    this.#clients = Array.from({ length: clients }, (_, i) => this.#client(String.fromCharCode(97 + i)));
  }

  async #client(name: string): Promise<void> {
    for (let i = 0; this.#loading && i < 100_000; i++) {
      const res = await fetch(`${this.base}/api/companies/${this.companyId}/issues`, {
        method: 'POST',
        headers: this.headers,
        body: JSON.stringify({ title: `${name} ${i}` }),
      });
      const body = await res.text();
      this.answers.push({ at: Date.now(), status: res.status, retryAfter: res.headers.get('retry-after'), body });
      if (res.status === 201) this.acknowledged.push(JSON.parse(body).id);
      else await sleep(20);
    }
  }

  /** Waits until `n` more issues were created. */
  async waitFor201s(n: number): Promise<void> {
    const created = () => this.answers.filter((a) => a.status === 201).length;
    const target = created() + n;
    const deadline = Date.now() + PATIENCE_MS;
    while (created() < target) {
      if (Date.now() > deadline) throw new Error(`the load clients created no ${n} issues in ${PATIENCE_MS} ms`);
      await sleep(20);
    }
  }

  /**
   * Kills the postmaster (`postmasterPid`, read from the data dir's postmaster.pid) with `signal` and
   * returns the milliseconds from the kill to the first 201 after the last failed answer, once
   * /api/health reports `restarts` restarts of the embedded database. `context` adds to a timeout's message.
   */
  async recoveryAfter(
    signal: NodeJS.Signals,
    restarts: number,
    postmasterPid: () => Promise<number>,
    context: () => string = () => '',
  ): Promise<number> {
    await this.waitFor201s(SETTLED_201S);
    const pid = await postmasterPid();
    const killedAt = Date.now();
    process.kill(pid, signal);
    const deadline = killedAt + PATIENCE_MS;
    while ((await (await fetch(`${this.base}/api/health`)).json()).database.embedded.restarts < restarts) {
      if (Date.now() > deadline) throw new Error(`no restart within ${PATIENCE_MS} ms of ${signal}:\n${context()}`);
      await sleep(20);
    }
    await this.waitFor201s(SETTLED_201S);
    const after = this.answers.filter((a) => a.at > killedAt);
    const lastFailure = after.findLastIndex((a) => a.status !== 201);
    if (lastFailure < 0) throw new Error(`the clients saw no outage after ${signal}`);
    return after.slice(lastFailure).find((a) => a.status === 201)!.at - killedAt;
  }

  /** Ends the loops once their requests in flight have answered. */
  async stop(): Promise<void> {
    this.#loading = false;
    await Promise.all(this.#clients);
  }
}
