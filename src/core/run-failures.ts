// Why a run ended without success: one closed list of codes, each with its plain meaning and what
// the operator should do about it. A failed, timed-out or cancelled run carries one code
// (heartbeat_runs.error_code, `errorCode` in the API) beside its free-text detail (`error`), so
// operators, notifications and plugins tell causes apart without parsing English; the board shows
// these words, never the code.
//
// Who sets each code: the executor's one end of a run (engine/executor.ts: a preparation step that
// fails, or the adapter's outcome), the reaper (modules/runs/reap.ts), cancels (modules/runs/
// lifecycle.ts) and the `http` receiver's completion (modules/runs/complete.ts). Adapters report the
// codes only they can know (a command that does not exist, silence, a receiver's refusal) on their
// outcome; an external adapter's code outside this list is not trusted (the executor infers one).
import { z } from 'zod';

export interface RunFailureWords {
  /** What happened, in a sentence a board member understands. */
  meaning: string;
  /** What the operator should do about it. */
  action: string;
}

const RUN_FAILURES = {
  // Preparing the run: nothing was started.
  agent_deleted: {
    meaning: 'The agent was deleted, so its run was stopped.',
    action: 'Nothing to do, unless the agent was deleted by mistake: then hire it again.',
  },
  adapter_not_found: {
    meaning: "The agent's adapter is not installed on the server that picked up the run.",
    action:
      "Install the adapter on every server (Instance settings, Adapters), or change the agent's adapter in its Configuration.",
  },
  adapter_disabled: {
    meaning: "The agent's adapter is disabled on this instance.",
    action: "Enable the adapter (Instance settings, Adapters), or change the agent's adapter in its Configuration.",
  },
  adapter_config_invalid: {
    meaning: "The agent's adapter settings are not valid, so nothing was started.",
    action: "Fix the settings the detail names in the agent's Configuration, then wake it again.",
  },
  secret_unresolved: {
    meaning: "A secret the agent's environment refers to could not be read (deleted, or its version is gone).",
    action: "Create the secret again (Secrets) or change the reference in the agent's Configuration, then wake it.",
  },
  credentials_missing: {
    meaning:
      'The agent has no usable credential for its adapter (for instance no signing secret for an HTTP receiver).',
    action: "Generate the agent's signing secret (or set its API key as a secret), then wake it again.",
  },
  workspace_unavailable: {
    meaning: "The run's working directory could not be prepared or does not exist.",
    action:
      "Check the project's workspace or the agent's working directory (Configuration): the path must exist and be writable by the server.",
  },
  skills_unavailable: {
    meaning: "The agent's skills could not be written out for the run.",
    action: "Check that the server's data directory has space and is writable, then wake the agent again.",
  },
  // Starting and running the work.
  command_not_found: {
    meaning: "The command the agent runs does not exist on the server (or is not on the run's PATH).",
    action: "Install the command on the server, or fix the command or PATH in the agent's Configuration.",
  },
  process_start_failed: {
    meaning: "The agent's command exists but could not be started (for instance it is not executable).",
    action: 'Read the detail: fix the permissions of the command, or free resources on the server.',
  },
  process_exit_nonzero: {
    meaning: "The agent's process ended with an error (a non-zero exit code).",
    action: "Read the run's transcript for the process's own reason, fix it, then retry.",
  },
  process_killed: {
    meaning: "The agent's process was killed by a signal Boardroom did not send (for instance out of memory).",
    action: "Check the server's memory and logs, then retry.",
  },
  agent_reported_failure: {
    meaning: 'The agent finished, but reported that its work failed.',
    action: "Read the run's transcript and result for the agent's reason, then retry or reassign the work.",
  },
  timeout: {
    meaning: 'The run passed its deadline and was stopped.',
    action: "Split the work into smaller issues, or raise the agent's timeout in its Configuration.",
  },
  inactivity_timeout: {
    meaning: 'The agent printed nothing new for too long (stuck, or retrying the same thing) and was stopped.',
    action:
      "Read the end of the transcript for what it waited on (network, a prompt); raise the agent's inactivity limit only if the work is legitimately quiet.",
  },
  http_rejected: {
    meaning: "The agent's HTTP receiver refused the run (it answered with an error status).",
    action: "Check the receiver's logs and its URL in the agent's Configuration, then retry.",
  },
  http_unreachable: {
    meaning: "The agent's HTTP receiver could not be reached, or did not answer in time.",
    action: 'Check that the receiver is running and reachable from the server, then retry.',
  },
  adapter_error: {
    meaning: 'The adapter itself failed while running the work (a defect in the adapter).',
    action: "Read the detail and report it to the adapter's maintainers; retry once it is fixed or updated.",
  },
  // Stopped by someone.
  cancelled_by_board: {
    meaning: 'A board member cancelled the run.',
    action: 'Nothing to do; wake the agent again when the work should go on.',
  },
  cancelled_by_agent: {
    meaning: 'The agent cancelled its own run.',
    action: "Nothing to do; read the transcript if the agent's reason matters.",
  },
  interrupted_by_comment: {
    meaning: 'A board comment interrupted the run; a fresh run reads the comment.',
    action: 'Nothing to do: the new run carries on.',
  },
  agent_paused: {
    meaning: 'The agent was paused, which stopped its run.',
    action: 'Resume the agent when it should work again.',
  },
  agent_terminated: {
    meaning: 'The agent was terminated, which stopped its run.',
    action: 'Nothing to do; assign its open work to another agent.',
  },
  budget_hard_stop: {
    meaning: 'A budget reached its hard limit, so the run was stopped at once.',
    action: 'Raise the budget or resolve the incident (Budgets), then resume the paused agents or projects.',
  },
  // The engine or the server.
  lease_lost: {
    meaning: 'The server running the run stopped reporting on it (crashed, killed or cut off from the database).',
    action: "Check that server's health and logs, then retry the run.",
  },
  server_restart: {
    meaning: 'The server running the run restarted (after a crash or kill) before the run finished.',
    action: "Retry the run; if it happens again, check the server's logs for why it stopped.",
  },
  server_shutdown: {
    meaning: 'The server running the run was shut down before the run finished.',
    action: 'Retry the run once the server is back.',
  },
  checkout_run_lapsed: {
    meaning: 'The agent stopped using a run it had started on its own (no checkout with it for a long time).',
    action: 'Nothing to do: the issue it held is free for the next run.',
  },
  engine_error: {
    meaning: 'Boardroom hit an unexpected error while running the work.',
    action: "Retry the run; if it happens again, report it with the server's log.",
  },
} as const satisfies Record<string, RunFailureWords>;

export type RunErrorCode = keyof typeof RUN_FAILURES;

/** Every code, in the order above (a tuple, so it can make a zod enum). */
export const RUN_ERROR_CODES = Object.keys(RUN_FAILURES) as [RunErrorCode, ...RunErrorCode[]];

export function isRunErrorCode(value: unknown): value is RunErrorCode {
  return typeof value === 'string' && Object.hasOwn(RUN_FAILURES, value);
}

/** The API's errorCode: one of the list, documented with each code's meaning. */
export const runErrorCodeField = z
  .enum(RUN_ERROR_CODES)
  .describe(
    `why the run did not succeed, one code of a closed list (the free-text detail is \`error\`): ${RUN_ERROR_CODES.map((code) => `\`${code}\`: ${RUN_FAILURES[code].meaning}`).join(' ')}`,
  );

/** The API's errorHelp: the code in words, for people. */
export const runFailureWordsField = z
  .object({
    meaning: z.string().describe('what happened, in plain words'),
    action: z.string().describe('what the operator should do about it'),
  })
  .describe(
    'errorCode in plain words, as the board shows it: what happened and what to do (the same for every run with the code)',
  );

/**
 * errorCode and errorHelp of a stored run. A code this server does not know (written by a newer
 * replica during a rolling upgrade) is shown as none rather than failing the response.
 */
export function presentRunFailure(stored: string | null): {
  errorCode: RunErrorCode | null;
  errorHelp: RunFailureWords | null;
} {
  return isRunErrorCode(stored)
    ? { errorCode: stored, errorHelp: RUN_FAILURES[stored] }
    : { errorCode: null, errorHelp: null };
}

/** A step of a run that could not be done: the run ends failed with this code and the message as its detail. */
export class RunFailure extends Error {
  constructor(
    readonly code: RunErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'RunFailure';
  }
}
