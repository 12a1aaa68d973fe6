// Types of boardroom/plugin-sdk/testing (testing.mjs).
import type { Json } from './index.js';

export declare class HarnessError extends Error {
  readonly status: number;
  readonly body: any;
  /** A bridge error's code (WORKER_UNAVAILABLE, CAPABILITY_DENIED, WORKER_ERROR, TIMEOUT), else null. */
  readonly code: string | null;
}

export interface HarnessOptions {
  /** The plugin's package folder (default the current directory). */
  pluginDir?: string;
  /** A running server and an instance owner's board key; default BOARDROOM_TEST_URL / BOARDROOM_TEST_TOKEN, else one started for the test. */
  server?: { url: string; token: string };
  companyName?: string;
}

export interface TestHarness {
  url: string;
  token: string;
  /** The data directory of the server the harness started (removed by close()); null for a given server. */
  dataDir: string | null;
  companyId: string;
  pluginId: string;
  /** The install record (`id`, `pluginKey`, `version`, `status`, `manifest`, `lastError`). */
  plugin: any;
  request(method: string, url: string, body?: unknown): Promise<any>;
  tool(
    name: string,
    parameters?: Record<string, unknown>,
    runContext?: { agentId?: string; runId?: string; issueId?: string },
  ): Promise<any>;
  data(key: string, params?: Record<string, Json>): Promise<any>;
  action(key: string, params?: Record<string, Json>): Promise<any>;
  triggerJob(key: string): Promise<{ runId: string }>;
  health(): Promise<any>;
  close(): Promise<void>;
}

export declare function createTestHarness(options?: HarnessOptions): Promise<TestHarness>;
