// `state.get/set/delete/list` (the `state` capability): a plugin's own JSON values by key, per plugin
// and company (the slot's: a worker never names another), bounded so one plugin cannot fill the
// database: keys up to 200 characters, values up to 64 KiB of JSON, 1,000 keys per plugin and company.
import { and, asc, count, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { pluginState } from '../../db/schema/index.ts';
import { type CallScope, type HostCall, HostCallError, hostCall } from './call.ts';

export const STATE_LIMITS = { keyChars: 200, valueBytes: 64 * 1024, keys: 1000 } as const;

const key = z.string().min(1).max(STATE_LIMITS.keyChars, `a key is at most ${STATE_LIMITS.keyChars} characters`);

const ofSlot = (scope: CallScope) =>
  and(eq(pluginState.pluginId, scope.actor.pluginId), eq(pluginState.companyId, scope.companyId));

export const STATE_CALLS: Record<string, HostCall> = {
  'state.get': hostCall('state', z.object({ key }), async (scope, p) => {
    const [row] = await scope.db
      .select({ value: pluginState.value })
      .from(pluginState)
      .where(and(ofSlot(scope), eq(pluginState.key, p.key)));
    return { value: row?.value ?? null };
  }),
  'state.set': hostCall('state', z.object({ key, value: z.json() }), async (scope, p) => {
    const bytes = Buffer.byteLength(JSON.stringify(p.value));
    if (bytes > STATE_LIMITS.valueBytes)
      throw new HostCallError(
        'STATE_LIMIT',
        `a value is at most ${STATE_LIMITS.valueBytes} bytes of JSON (this one is ${bytes}): keep larger data in a document`,
      );
    await scope.db.transaction(async (tx) => {
      // One writer per plugin and company at a time, so concurrent sets cannot pass the key bound together.
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtextextended(${`plugin_state:${scope.actor.pluginId}:${scope.companyId}`}, 0))`,
      );
      const [existing] = await tx
        .select({ key: pluginState.key })
        .from(pluginState)
        .where(and(ofSlot(scope), eq(pluginState.key, p.key)));
      if (!existing) {
        const [held] = await tx.select({ n: count() }).from(pluginState).where(ofSlot(scope));
        if ((held?.n ?? 0) >= STATE_LIMITS.keys)
          throw new HostCallError(
            'STATE_LIMIT',
            `at most ${STATE_LIMITS.keys} keys per plugin and company: delete one before setting a new key`,
          );
      }
      await tx
        .insert(pluginState)
        .values({ pluginId: scope.actor.pluginId, companyId: scope.companyId, key: p.key, value: p.value })
        .onConflictDoUpdate({
          target: [pluginState.pluginId, pluginState.companyId, pluginState.key],
          set: { value: p.value, updatedAt: sql`now()` },
        });
    });
    return { ok: true };
  }),
  'state.delete': hostCall('state', z.object({ key }), async (scope, p) => {
    const deleted = await scope.db
      .delete(pluginState)
      .where(and(ofSlot(scope), eq(pluginState.key, p.key)))
      .returning({ key: pluginState.key });
    return { deleted: deleted.length > 0 };
  }),
  'state.list': hostCall('state', z.object({}), async (scope) => {
    const rows = await scope.db
      .select({ key: pluginState.key, updatedAt: pluginState.updatedAt })
      .from(pluginState)
      .where(ofSlot(scope))
      .orderBy(asc(pluginState.key));
    return { keys: rows.map((r) => ({ key: r.key, updatedAt: r.updatedAt.toISOString() })) };
  }),
};
