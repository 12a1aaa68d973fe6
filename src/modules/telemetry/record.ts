// Product telemetry, kept local: events are rows in telemetry_events, written in the transaction of
// the change they describe, and never sent anywhere. Each company keeps TELEMETRY_RETENTION_DAYS.
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { telemetryEvents } from '../../db/schema/index.ts';

export const TELEMETRY_RETENTION_DAYS = 90;
/** Expired events removed per write: more than one write adds, so the backlog only shrinks. */
const PRUNE_BATCH = 100;

export async function recordTelemetry(
  tx: DbOrTx,
  companyId: string,
  name: string,
  properties: Record<string, unknown>,
): Promise<void> {
  await tx.insert(telemetryEvents).values({ companyId, name, properties });
  // A bounded batch per write, oldest first: a write after a long quiet spell never deletes (and
  // locks) the whole backlog inside the transaction it belongs to; later writes take the rest.
  const expired = tx
    .select({ id: telemetryEvents.id })
    .from(telemetryEvents)
    .where(
      and(
        eq(telemetryEvents.companyId, companyId),
        lt(telemetryEvents.createdAt, sql`now() - make_interval(days => ${TELEMETRY_RETENTION_DAYS})`),
      ),
    )
    .orderBy(telemetryEvents.createdAt)
    .limit(PRUNE_BATCH);
  await tx.delete(telemetryEvents).where(inArray(telemetryEvents.id, expired));
}
