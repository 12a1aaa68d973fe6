// The adapterConfig fields several built-in adapters share, and the JSON Schema of a config:
// GET /api/adapters/{type}/config-schema is derived from the very zod schema the adapter parses
// with (z.toJSONSchema), so the form the board builds and what the adapter accepts cannot drift.
import { z } from 'zod';

/** A run's deadline and grace when adapterConfig sets none (the engine reads them for every adapter). */
export const DEFAULT_TIMEOUT_SEC = 1800;
export const DEFAULT_GRACE_SEC = 15;
const MAX_TIMEOUT_SEC = 7 * 24 * 3600;

/** timeoutSec and graceSec: the engine's limits of any run, whatever the adapter. */
export const runLimitFields = {
  timeoutSec: z
    .number()
    .positive()
    .max(MAX_TIMEOUT_SEC)
    .default(DEFAULT_TIMEOUT_SEC)
    .describe("the run's deadline in seconds: the work is stopped then (the run is timed_out)"),
  graceSec: z
    .number()
    .nonnegative()
    .max(3600)
    .default(DEFAULT_GRACE_SEC)
    .describe('seconds between SIGTERM and SIGKILL when a run is stopped'),
};

/** What every adapter that starts a local process accepts besides its command. */
export const localProcessFields = {
  cwd: z
    .string()
    .min(1)
    .max(4096)
    .optional()
    .describe("working directory; unset: the project workspace or the agent's own"),
  // Stored form: values may still be secret references; the engine resolves them into the run's env.
  env: z
    .record(z.string().max(256), z.unknown())
    .optional()
    .describe(
      'extra environment variables: each a string, {"type":"plain","value"} or a secret reference {"type":"secret_ref","secretId","version"?}',
    ),
  ...runLimitFields,
};

/** The config's JSON Schema as a client writes it (input side: a field with a default is optional). */
export function configJsonSchema(schema: z.ZodType): Record<string, unknown> {
  return z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
}
