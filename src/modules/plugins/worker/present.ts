// The health and logs routes' response shapes.
import { z } from 'zod';
import { uuidOut } from '../../../http/openapi.ts';

export const workerHealthResponse = z.object({
  companyId: uuidOut(),
  status: z
    .enum(['starting', 'running', 'backoff', 'stopped', 'error'])
    .describe(
      '`running`; `starting`; `backoff` (crashed, restarting after a delay); `stopped` (not started yet, idle, or stopped); `error` (crashed repeatedly: `lastError` says why)',
    ),
  pid: z.number().int().nullable().describe('the process id on this replica while running'),
  uptimeMs: z.number().int().nullable(),
  restarts: z.number().int().describe('restarts after crashes since the worker was first started here'),
  sandbox: z
    .enum(['bwrap', 'unprivileged-user', 'none'])
    .describe('the confinement workers get on this replica (docs/plugins.md, "Worker runtime")'),
  lastError: z.string().nullable(),
  health: z.unknown().describe("the worker's own answer to `health` while running; null otherwise"),
});

export const workerLogResponse = z.object({
  companyId: uuidOut(),
  at: z.string().describe('ISO 8601 timestamp'),
  source: z
    .enum(['stderr', 'log', 'host'])
    .describe('`stderr` (a line the worker wrote), `log` (a `log` call), `host` (start, exit, restart)'),
  level: z.enum(['debug', 'info', 'warn', 'error']),
  message: z.string(),
});
