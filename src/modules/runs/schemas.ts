// Request shapes of the run routes, shared with the issues area's list of the issues a run touched.
import { z } from 'zod';
import { RUN_LIST_MAX } from './service.ts';

export const limitQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(RUN_LIST_MAX)
    .default(50)
    .describe(`items returned, newest first: 1 to ${RUN_LIST_MAX} (default 50)`),
});
export const runParams = z.object({
  runId: z.string().trim().min(1).max(200).describe('heartbeat run UUID (the `X-Service-Run-Id` an agent sends)'),
});
