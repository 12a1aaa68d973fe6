// The run summary SPEC lists for the issue runs route, the list item of the company run list, the
// run detail and a page of the run log. Presenters are typed by their schemas.
import { z } from 'zod';
import { timestampOut, uuidOut } from '../../http/openapi.ts';
import type { HeartbeatRun } from '../../db/rows.ts';
import { RUN_WORKSPACE_KINDS } from '../../db/schema/index.ts';
import { LIVE_RUN_STATUSES, TERMINAL_RUN_STATUSES } from '../../core/statuses.ts';
import { presentRunFailure, runErrorCodeField, runFailureWordsField } from '../../core/run-failures.ts';

export const RUN_STATUSES = [...LIVE_RUN_STATUSES, ...TERMINAL_RUN_STATUSES] as const;

export const runStatus = z
  .enum(RUN_STATUSES)
  .describe(
    'queued and running are live (may hold a checkout); succeeded, failed, cancelled and timed_out are finished',
  );

export const runSummaryResponse = z
  .object({
    runId: uuidOut(),
    status: runStatus,
    agentId: uuidOut(),
    adapterType: z.string().nullable().describe('the adapter that ran it, e.g. `process`, `http`'),
    startedAt: timestampOut().nullable(),
    finishedAt: timestampOut().nullable(),
    createdAt: timestampOut(),
    invocationSource: z
      .string()
      .nullable()
      .describe('what started the run, e.g. `checkout` for a run first seen on a checkout'),
    usageJson: z.unknown().describe('token usage as reported by the adapter (JSON); null when none'),
    resultJson: z.unknown().describe('the result reported by the adapter (JSON); null when none'),
    logBytes: z
      .number()
      .int()
      .describe(
        'size of the run log in bytes: kept current with each store of the log while the run is live (within 250 ms of the output, one update per store, not per write), the whole log once it has ended',
      ),
  })
  .describe('A heartbeat run in brief');

export type RunSummaryResponse = z.output<typeof runSummaryResponse>;

export function presentRunSummary(run: HeartbeatRun): RunSummaryResponse {
  return {
    runId: run.id,
    status: run.status as RunSummaryResponse['status'],
    agentId: run.agentId,
    adapterType: run.adapterType,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    createdAt: run.createdAt,
    invocationSource: run.invocationSource,
    usageJson: run.usageJson,
    resultJson: run.resultJson,
    logBytes: run.logBytes,
  };
}

export const runListItemResponse = runSummaryResponse
  .extend({
    issueId: uuidOut()
      .nullable()
      .describe('the issue the run is about; null for a run first seen on a checkout, or a wake about no issue'),
    error: z
      .string()
      .nullable()
      .describe('why the run ended badly, in free text (the detail of errorCode); null while live or on success'),
    errorCode: runErrorCodeField
      .nullable()
      .describe(
        `${runErrorCodeField.description} Null while live, on success, or for a run that ended before codes were recorded.`,
      ),
    errorHelp: runFailureWordsField.nullable().describe(`${runFailureWordsField.description}; null when errorCode is`),
  })
  .describe('A heartbeat run in brief, with its issue and why it ended badly');

export type RunListItemResponse = z.output<typeof runListItemResponse>;

export function presentRunListItem(run: HeartbeatRun): RunListItemResponse {
  return { ...presentRunSummary(run), issueId: run.issueId, error: run.error, ...presentRunFailure(run.errorCode) };
}

export const runWorkspaceResponse = z
  .object({
    cwd: z.string().describe('the directory the work ran in'),
    kind: z
      .enum(RUN_WORKSPACE_KINDS)
      .describe(
        "where that directory came from: `execution_workspace` (the issue's isolated worktree), `agent_cwd` (the agent's adapterConfig.cwd), `project_workspace` (the primary workspace of the issue's project) or `agent_home` (the agent's own directory under the data directory)",
      ),
    git: z
      .object({
        branch: z.string().nullable().describe('the checked-out branch as the work started; null when detached'),
        baseCommit: z.string().describe('the commit HEAD pointed at as the work started'),
        diffStat: z
          .object({
            filesChanged: z.number().int(),
            insertions: z.number().int(),
            deletions: z.number().int(),
          })
          .nullable()
          .describe(
            '`git diff --shortstat` against baseCommit, taken as the work ended (commits made during the run and uncommitted edits of tracked files; new untracked files are not counted); null while live, or when git did not answer within 5 s',
          ),
      })
      .nullable()
      .describe('null when the directory is not a git work tree with a commit, or git did not answer within 5 s'),
  })
  .describe('Where the engine ran the work and what it changed there');

export const runDetailResponse = runListItemResponse
  .extend({
    wakeReason: z.string().nullable().describe('the reason given with the wakeup that started the run'),
    wakeupRequestId: uuidOut()
      .nullable()
      .describe('the wakeup request that became this run; null for a run first seen on a checkout'),
    exitCode: z.number().int().nullable().describe('exit code of the process, when it exited'),
    signal: z.string().nullable().describe('the signal that ended the process, when one did (e.g. `SIGTERM`)'),
    logTruncated: z.boolean().describe('the log reached the per-run size cap and ends with a truncation marker'),
    leaseExpiresAt: timestampOut()
      .nullable()
      .describe('while live: when the run is reaped unless its owner renews the lease'),
    deadlineAt: timestampOut()
      .nullable()
      .describe('while running: the hard end of the work (start plus adapterConfig.timeoutSec)'),
    updatedAt: timestampOut(),
    workspace: runWorkspaceResponse
      .nullable()
      .describe(
        `${runWorkspaceResponse.description}; null for a run that never reached its workspace (it failed before, or is still queued) and for a run first seen on a checkout`,
      ),
  })
  .describe('A heartbeat run');

export type RunDetailResponse = z.output<typeof runDetailResponse>;

export function presentRunDetail(run: HeartbeatRun): RunDetailResponse {
  return {
    ...presentRunListItem(run),
    wakeReason: run.wakeReason,
    wakeupRequestId: run.wakeupRequestId,
    exitCode: run.exitCode,
    signal: run.signal,
    logTruncated: run.logTruncated,
    leaseExpiresAt: run.leaseExpiresAt,
    deadlineAt: run.deadlineAt,
    updatedAt: run.updatedAt,
    workspace: run.workspace,
  };
}

/** A half-open range of a run log's bytes, in absolute offsets (the log route and the log stream). */
export const stderrRange = z
  .object({
    from: z.number().int().describe('byte offset of the first stderr byte'),
    to: z.number().int().describe('byte offset after the last stderr byte (half-open)'),
  })
  .describe('bytes [from, to) of the log came from stderr');

export const runLogPageResponse = z
  .object({
    runId: uuidOut(),
    offset: z
      .number()
      .int()
      .describe(
        'byte offset where `content` starts (the asked offset, moved back to the start of a character it would cut)',
      ),
    nextOffset: z.number().int().describe('byte offset to ask for next: the end of `content`'),
    stderr: z
      .array(stderrRange)
      .describe(
        'the byte ranges of `content` that the run wrote on stderr (absolute offsets within `offset`..`nextOffset`, in order, adjacent ones merged); every other byte is stdout. Empty when none is',
      ),
    content: z
      .string()
      .describe(
        'UTF-8 text of the log from `offset`: at most `limit` bytes, never a cut character; empty past the end',
      ),
    logBytes: z.number().int().describe('size of the log so far in bytes (it grows while the run is live)'),
    truncated: z.boolean().describe('the log reached the per-run size cap and ends with a truncation marker'),
    finished: z.boolean().describe('the run is finished (succeeded, failed, cancelled or timed_out)'),
    complete: z
      .boolean()
      .describe('the run is finished, its log will not grow, and `nextOffset` is its end: nothing more to read'),
  })
  .describe('A page of a run log');

export type RunLogPageResponse = z.output<typeof runLogPageResponse>;
