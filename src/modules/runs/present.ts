// The run summary SPEC lists for the issue runs route. The presenter is typed by its schema.
import { z } from 'zod';
import { timestampOut, uuidOut } from '../../server/openapi.ts';
import { LIVE_RUN_STATUSES, TERMINAL_RUN_STATUSES, type HeartbeatRun } from './service.ts';

export const RUN_STATUSES = [...LIVE_RUN_STATUSES, ...TERMINAL_RUN_STATUSES] as const;

export const runStatus = z.enum(RUN_STATUSES).describe('queued and running are live (may hold a checkout); succeeded, failed, cancelled and timed_out are finished');

export const runSummaryResponse = z
  .object({
    runId: uuidOut(),
    status: runStatus,
    agentId: uuidOut(),
    adapterType: z.string().nullable().describe('the adapter that ran it, e.g. `process`, `http`'),
    startedAt: timestampOut().nullable(),
    finishedAt: timestampOut().nullable(),
    createdAt: timestampOut(),
    invocationSource: z.string().nullable().describe('what started the run, e.g. `checkout` for a run first seen on a checkout'),
    usageJson: z.unknown().describe('token usage as reported by the adapter (JSON); null when none'),
    resultJson: z.unknown().describe('the result reported by the adapter (JSON); null when none'),
    logBytes: z.number().int().describe('size of the run log in bytes'),
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
