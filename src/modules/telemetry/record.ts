// Product telemetry, kept local: events are rows in telemetry_events, written in the transaction of
// the change they describe, and never sent anywhere. Each company keeps TELEMETRY_RETENTION_DAYS.
import { and, eq, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { telemetryEvents } from '../../db/schema/index.ts';

export const TELEMETRY_RETENTION_DAYS = 90;

export async function recordTelemetry(tx: DbOrTx, companyId: string, name: string, properties: Record<string, unknown>): Promise<void> {
  await tx.insert(telemetryEvents).values({ companyId, name, properties });
  await tx.delete(telemetryEvents).where(and(eq(telemetryEvents.companyId, companyId), lt(telemetryEvents.createdAt, sql`now() - make_interval(days => ${TELEMETRY_RETENTION_DAYS})`)));
}
