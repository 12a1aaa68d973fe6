// The run summary SPEC lists for the issue runs route.
import type { HeartbeatRun } from './service.ts';

export function presentRunSummary(run: HeartbeatRun) {
  return {
    runId: run.id,
    status: run.status,
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
