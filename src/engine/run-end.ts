// How an engine run ends, decided in one place from what happened to it: a step that could not be
// done (run-preparation.ts throws a RunFailure; anything else thrown is the engine's own error), or
// the adapter's outcome. Every end that is not a success carries a code (core/run-failures.ts).
import { isRunErrorCode, RunFailure, type RunErrorCode } from '../core/run-failures.ts';
import type { AdapterOutcome } from '../adapters/types.ts';
import type { RunEnd } from '../modules/runs/lifecycle.ts';
import type { AdapterRunResult } from './adapter-run.ts';

/** A step threw: a RunFailure ends the run with its code, anything else is engine_error. */
export function endOfFailure(err: unknown): RunEnd {
  if (err instanceof RunFailure) return { status: 'failed', errorCode: err.code, error: err.message };
  return {
    status: 'failed',
    errorCode: 'engine_error',
    error: `engine error: ${err instanceof Error ? err.message : String(err)}`,
  };
}

/**
 * The adapter's outcome, with the log, usage and result it left. A run stopped because this server
 * shuts down failed for the server's reason, not the work's (and no one asked for a cancel).
 */
export function endOfWork(work: AdapterRunResult, context: { timeoutSec: number; serverStopping: boolean }): RunEnd {
  const { outcome } = work;
  const facts = {
    exitCode: outcome.exitCode,
    signal: outcome.signal,
    error: outcome.error,
    logBytes: work.logBytes,
    logTruncated: work.logTruncated,
    usageJson: work.usageJson,
    resultJson: work.resultJson,
  };
  if (outcome.status === 'succeeded') return { ...facts, status: 'succeeded' };
  if (outcome.status === 'cancelled' && context.serverStopping)
    return {
      ...facts,
      status: 'failed',
      errorCode: 'server_shutdown',
      error: 'the server shut down while the run was live',
    };
  const { status } = outcome;
  return {
    ...facts,
    status,
    errorCode: failureCodeOf(status, outcome),
    error: outcome.error ?? (status === 'timed_out' ? `deadline of ${context.timeoutSec}s passed` : null),
  };
}

/** The adapter's own code when it gave one from the list; else what its status, exit code and signal say. */
function failureCodeOf(status: 'failed' | 'timed_out' | 'cancelled', outcome: AdapterOutcome): RunErrorCode {
  if (isRunErrorCode(outcome.errorCode)) return outcome.errorCode;
  switch (status) {
    case 'timed_out':
      return 'timeout';
    case 'cancelled':
      // The engine aborts the work only for a run that already ended elsewhere (its end, and code,
      // stand); an adapter that reports a cancel no one asked for has gone wrong itself.
      return 'adapter_error';
    case 'failed':
      if (outcome.signal) return 'process_killed';
      if (outcome.exitCode !== null && outcome.exitCode !== 0) return 'process_exit_nonzero';
      return 'agent_reported_failure';
  }
}
