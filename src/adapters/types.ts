// The adapter contract (SPEC "Adapters"): what a runtime adapter, built-in or from an external
// package, gives the engine. Built-ins register exactly like an external package would.
//
// The engine owns the run record, the lease and the log; an adapter only turns one run into work
// somewhere (a child process, an HTTP receiver, a vendor CLI) and reports what happens through
// the callbacks, as it happens: usage reported mid-run is what lets a budget stop running work.

import type { RunErrorCode } from '../core/run-failures.ts';
import type { AdapterUsage } from './usage.ts';

/**
 * The abort reason of a run stopped by a budget hard stop: spend must end now, so an adapter
 * skips the run's grace period (a process group gets SIGTERM and, HARD_STOP_GRACE_MS later, SIGKILL).
 */
export const HARD_STOP = 'hard_stop';
export const HARD_STOP_GRACE_MS = 1_000;

export type { AdapterUsage };

export interface AdapterRunContext {
  runId: string;
  agent: { id: string; companyId: string; name: string; adapterType: string; adapterConfig: Record<string, unknown> };
  /** The issue the run is about, when it is about one. */
  issueId: string | null;
  wakeReason: string | null;
  /** The environment of the run: the SERVICE_* contract plus adapterConfig.env, secrets resolved. */
  env: Record<string, string>;
  /** The wake prompt: what to do, built from the heartbeat context. */
  prompt: string;
  /** Working directory chosen by the engine (adapterConfig.cwd, the project workspace, or the agent's own). */
  cwd: string;
  /** Hard deadline for the work; the adapter is stopped at deadline, then killed after grace. */
  timeoutSec: number;
  graceSec: number;
  /** Aborted on cancel (pause, terminate, POST .../cancel): stop the work, SIGTERM then SIGKILL after grace. */
  signal: AbortSignal;
  /** Output as it arrives (stdout/stderr of a process): the engine masks secrets and writes the run log. */
  onLog(stream: 'stdout' | 'stderr', chunk: string): void;
  onUsage(usage: AdapterUsage): void;
  onResult(result: { summary?: string; [key: string]: unknown }): void;
  /**
   * Called once the work has a process behind it, with its pid; adapters that spawn a process
   * group leader (the process adapter does) make pid == pgid. The engine records it on the run so
   * that after a server crash the reaper can still kill the whole group (`kill(-pgid)`).
   */
  onSpawn?(pid: number): void;
  /**
   * The agent's signing secret in the clear (POST /api/agents/{id}/signing-secret), handed only to
   * adapters that declare `usesSigningSecret`; null when the agent has none. The engine masks it
   * in the run log like any secret.
   */
  signingSecret?: string | null;
  /**
   * The runtime session this agent last used for this issue (or for runs without an issue) with
   * this adapter type; null when there is none or the wake asked for a fresh one (forceFreshSession).
   * Adapters that resume conversations (the local CLI runtimes) continue it.
   */
  sessionId: string | null;
  /**
   * The session the work ended up using, as soon as the adapter knows it: the engine keeps it per
   * (agent, issue, adapter type) for the next wake. null forgets the stored one (e.g. the runtime
   * rejected it).
   */
  onSession(sessionId: string | null): void;
}

export interface AdapterOutcome {
  /** succeeded: the work finished well; failed: it did not; timed_out / cancelled: the engine stopped it. */
  status: 'succeeded' | 'failed' | 'timed_out' | 'cancelled';
  exitCode: number | null;
  signal: string | null;
  error: string | null;
  /**
   * Why the work did not succeed, when the adapter knows better than its status and exit say (a
   * command that does not exist, silence, a receiver's refusal). Unset: the engine infers it from
   * the status, exit code and signal; a code outside the list (core/run-failures.ts) is ignored.
   */
  errorCode?: RunErrorCode;
}

export interface EnvironmentCheck {
  ok: boolean;
  checks: { name: string; ok: boolean; detail: string }[];
}

export interface ServerAdapter {
  type: string;
  label: string;
  models: { id: string; label: string }[];
  agentConfigurationDoc: string;
  /** The JSON Schema of adapterConfig (GET /api/adapters/{type}/config-schema): the board builds the agent's settings form from it. */
  configSchema?: Record<string, unknown>;
  /** The engine reads the agent's signing secret into ctx.signingSecret for this adapter (the `http` adapter signs with it). */
  usesSigningSecret?: boolean;
  execute(ctx: AdapterRunContext): Promise<AdapterOutcome>;
  testEnvironment(config: Record<string, unknown>): Promise<EnvironmentCheck>;
}
