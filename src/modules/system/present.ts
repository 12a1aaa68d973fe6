// Response schemas of the instance-level routes (health, board keys, cli-auth) and their presenters.
import { z } from 'zod';
import type { boardApiKeys } from '../../db/schema/index.ts';
import { timestampOut, uuidOut } from '../../http/openapi.ts';

export const healthResponse = z.object({
  status: z.enum(['ok', 'unavailable']).describe('`ok` when the database answers, `unavailable` when it does not'),
  database: z.object({
    reachable: z.boolean().describe('whether the database answered within 3 s'),
    embedded: z
      .object({
        state: z
          .enum(['running', 'restarting', 'failed'])
          .describe(
            '`restarting` after it exited (the server restarts it, with back-off); `failed` once it could not be restarted (the server then exits with status 1)',
          ),
        restarts: z.number().int().describe('times it was restarted since the server started'),
        lastExitAt: timestampOut().nullable().describe('when it last exited under the running server'),
        lastRestartAt: timestampOut().nullable().describe('when it was last restarted'),
      })
      .nullable()
      .describe('the embedded PostgreSQL the server runs and supervises; null with DATABASE_URL'),
  }),
  version: z.string().describe('the server version'),
  deploymentMode: z
    .enum(['authenticated', 'local_trusted'])
    .describe(
      '`authenticated`: every request needs a credential; `local_trusted`: requests without one act as the local board user',
    ),
  authReady: z.boolean().describe('whether credentials can be checked (always true once the server answers)'),
  features: z.object({
    companyDeletion: z.boolean().describe('whether DELETE /api/companies/{companyId} is available'),
  }),
});

export type HealthResponse = z.output<typeof healthResponse>;

export const boardKeyResponse = z
  .object({
    id: uuidOut(),
    name: z.string(),
    prefix: z.string().describe('the first characters of the key (`svc_board_` and four more), to recognise it'),
    createdAt: timestampOut(),
    lastUsedAt: timestampOut().nullable(),
    revokedAt: timestampOut().nullable().describe('set once the key is revoked; a revoked key no longer authenticates'),
  })
  .describe('A board API key, without its secret');

export type BoardKeyResponse = z.output<typeof boardKeyResponse>;

export const createdBoardKeyResponse = boardKeyResponse
  .extend({ token: z.string().describe('the key itself (`svc_board_...`), shown only in this answer: store it now') })
  .describe('The new board key, with its token (shown once)');

export function presentBoardKey(key: typeof boardApiKeys.$inferSelect): BoardKeyResponse {
  return {
    id: key.id,
    name: key.name,
    prefix: key.displayPrefix,
    createdAt: key.createdAt,
    lastUsedAt: key.lastUsedAt,
    revokedAt: key.revokedAt,
  };
}

export const cliAuthResponse = z
  .object({
    user: z.object({
      id: uuidOut(),
      isInstanceOwner: z.boolean().describe('the instance owner has access to every company'),
    }),
    companyIds: z.array(uuidOut()).describe('companies the user is a member of (at most 1000)'),
    keyId: uuidOut().nullable().describe('the board key used; null for a session or local_trusted caller'),
    via: z.enum(['board_key', 'session', 'local_trusted']).describe('how the caller authenticated'),
  })
  .describe('The board caller behind this credential');

export type CliAuthResponse = z.output<typeof cliAuthResponse>;
