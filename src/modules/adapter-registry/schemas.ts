import { z } from 'zod';
import { FREEFORM_CONFIG_BYTES, freeformObject } from '../../core/json.ts';

// The registry's own rule for a type (src/adapters/registry.ts checkShape); anything else cannot exist.
export const typeParams = z.object({
  type: z
    .string()
    .max(64)
    .regex(
      /^[a-z0-9][a-z0-9_-]{0,63}$/,
      'an adapter type: lowercase letters, digits, `_` and `-`, at most 64 characters',
    )
    .describe('adapter type, e.g. `process` or the `type` an installed package creates'),
});

export const installBody = z
  .object({
    packageName: z
      .string()
      .trim()
      .min(1)
      .max(1000)
      .describe(
        'an npm package name (`my-adapter`, `@scope/my-adapter`) or an absolute local path to a package directory',
      ),
    version: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .describe('npm version or range (ignored for a local path, whose package.json says its version)'),
    isLocalPath: z
      .boolean()
      .optional()
      .describe('true: `packageName` is a local path; default: true exactly when it is an absolute path'),
  })
  .strict();

export const configBody = z
  .object({
    config: freeformObject({ maxBytes: FREEFORM_CONFIG_BYTES }).describe(
      'the instance config of the adapter type (replaces the previous one); passed to its testEnvironment(). At most 32 levels deep and 64 KiB serialised.',
    ),
  })
  .strict();

export const overrideBody = z
  .object({
    disabled: z
      .boolean()
      .optional()
      .describe('force-disable: runs of agents with this adapter type fail with `adapter type <type> is disabled`'),
    pinnedVersion: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .nullable()
      .optional()
      .describe('reinstall fetches this version and refuses another (422); null removes the pin'),
  })
  .strict();
