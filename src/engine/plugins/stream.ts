// `stream.emit { channel, data }`: a worker publishes on one of the streams its manifest declares,
// for the slot's company only (the payload carries the slot's plugin and company, never the
// worker's word). Published with NOTIFY so every replica's stream route hears it; NOTIFY bounds a
// payload at 8,000 bytes, so `data` is at most 7 KiB of JSON.
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { notifyCall } from '../../db/channels.ts';
import { CallRefused, type HostCall, HostCallError, hostCall } from './call.ts';

export const STREAM_DATA_BYTES = 7 * 1024;

export const STREAM_CALLS: Record<string, HostCall> = {
  'stream.emit': hostCall(null, z.object({ channel: z.string().min(1).max(200), data: z.json() }), async (scope, p) => {
    if (!scope.manifest.streams.some((s) => s.channel === p.channel))
      throw new CallRefused(`stream ${JSON.stringify(p.channel)} is not declared in the manifest's streams`);
    const bytes = Buffer.byteLength(JSON.stringify(p.data));
    if (bytes > STREAM_DATA_BYTES)
      throw new HostCallError(
        'STREAM_LIMIT',
        `stream data is at most ${STREAM_DATA_BYTES} bytes of JSON (this is ${bytes})`,
      );
    await scope.db.execute(
      sql`select ${notifyCall('pluginStream', {
        pluginId: scope.actor.pluginId,
        companyId: scope.companyId,
        channel: p.channel,
        data: p.data,
      })}`,
    );
    return { ok: true };
  }),
};
