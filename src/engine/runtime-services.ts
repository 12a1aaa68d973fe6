// Supervision of workspace runtime services (the workspace's `runtimeConfig.command`). The loop
// converges what runs here on what the database asks for:
// - a workspace with desiredState `running` and no live owner is claimed (row + lease in
//   workspace_runtime_services, so two replicas never both start it) and its command started in the
//   workspace cwd, in its own process group;
// - desiredState `stopped` (or the workspace gone, or the lease lost) kills the group: SIGTERM, then
//   SIGKILL after the grace;
// - a requested `restart` operation kills and starts it again;
// - a crash starts it again after an exponential backoff (reset once it stayed up for a while).
// Output is kept as a bounded tail in the row, so any replica serves the logs.
import { spawn, type ChildProcess } from 'node:child_process';
import { and, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import { projectWorkspaces, workspaceOperations, workspaceRuntimeServices } from '../db/schema/index.ts';
import { LOG_TAIL_CHARS, parseRuntimeConfig } from '../modules/projects/workspaces.ts';
import { groupAlive, signalGroup, sleep } from '../adapters/supervise.ts';
import { killMarkedProcessGroup } from './process-groups.ts';
import type { ReplicaIdentity } from './replica.ts';
import { safeBaseEnv } from '../adapters/run-env.ts';

/** Workspaces claimed per tick: bounds one tick's work. */
const CLAIM_BATCH = 20;
/** The env entry that marks a service's processes, so a previous boot's leftovers are recognised. */
const MARKER = 'BOARDROOM_RUNTIME_SERVICE';

export interface RuntimeServiceSettings {
  leaseSec: number;
  /** SIGTERM to SIGKILL on stop. */
  graceMs: number;
  /** First restart delay after a crash; doubles per consecutive crash up to maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
  /** A service up this long before it crashes starts its backoff over. */
  stableMs: number;
}

interface Local {
  workspaceId: string;
  child: ChildProcess | null;
  pgid: number | null;
  startedAt: number;
  crashes: number;
  backoff: NodeJS.Timeout | null;
  stopping: boolean;
  exited: Promise<void>;
  pendingLog: string;
}

export interface RuntimeServices {
  tick(): Promise<void>;
  /** Kills every service this replica runs and releases their rows (desiredState stays). */
  stop(): Promise<void>;
}

/**
 * After a crash: the count of consecutive crashes (a run that stayed up `stableMs` starts it over)
 * and the delay before the next start, doubling from `backoffMs` up to `maxBackoffMs`.
 */
export function nextBackoff(
  crashes: number,
  upMs: number,
  settings: Pick<RuntimeServiceSettings, 'backoffMs' | 'maxBackoffMs' | 'stableMs'>,
): { crashes: number; delayMs: number } {
  const count = upMs >= settings.stableMs ? 1 : crashes + 1;
  return { crashes: count, delayMs: Math.min(settings.backoffMs * 2 ** (count - 1), settings.maxBackoffMs) };
}

export async function startRuntimeServices(
  db: Db,
  identity: ReplicaIdentity,
  settings: RuntimeServiceSettings,
  logger: Logger,
): Promise<RuntimeServices> {
  const locals = new Map<string, Local>();
  const mine = eq(workspaceRuntimeServices.ownerBoot, identity.boot);
  const lease = sql`now() + make_interval(secs => ${settings.leaseSec})`;
  const setRow = (workspaceId: string, values: PgUpdateSetSource<typeof workspaceRuntimeServices>, onlyIf?: SQL) =>
    db
      .update(workspaceRuntimeServices)
      .set({ ...values, updatedAt: sql`now()` })
      .where(and(eq(workspaceRuntimeServices.workspaceId, workspaceId), mine, onlyIf));

  await reapPreviousBoot(db, identity);

  const flushLog = async (local: Local) => {
    if (!local.pendingLog) return;
    const chunk = local.pendingLog;
    local.pendingLog = '';
    await db
      .update(workspaceRuntimeServices)
      .set({
        log: sql`right(${workspaceRuntimeServices.log} || ${chunk}, ${LOG_TAIL_CHARS})`,
        logWritten: sql`${workspaceRuntimeServices.logWritten} + length(${chunk})`,
      })
      .where(eq(workspaceRuntimeServices.workspaceId, local.workspaceId));
  };
  const appendLog = (local: Local, chunk: string) => {
    // PostgreSQL text holds no NUL; the pending buffer is bounded like the stored tail.
    local.pendingLog = (local.pendingLog + chunk.replace(/\0/g, '')).slice(-LOG_TAIL_CHARS);
  };

  const killGroup = async (pgid: number) => {
    signalGroup(pgid, 'SIGTERM');
    const killAt = Date.now() + settings.graceMs;
    while ((await groupAlive(pgid)) && Date.now() < killAt) await sleep(50);
    signalGroup(pgid, 'SIGKILL');
    const giveUp = Date.now() + 2000;
    while ((await groupAlive(pgid)) && Date.now() < giveUp) await sleep(50);
  };

  type End = { code: number | null; signal: string | null; error: string | null };
  /** A process that ended on its own (or never started): counted, and started again after the backoff. */
  const crashed = async (local: Local, end: End) => {
    const { crashes, delayMs: delay } = nextBackoff(local.crashes, Date.now() - local.startedAt, settings);
    local.crashes = crashes;
    const lastError = end.error ?? (end.signal ? `killed by ${end.signal}` : `exited with code ${end.code}`);
    await setRow(local.workspaceId, {
      status: 'backoff',
      pid: null,
      exitCode: end.code,
      lastError,
      restarts: sql`${workspaceRuntimeServices.restarts} + 1`,
    });
    logger.warn(
      { workspaceId: local.workspaceId, lastError, delay },
      'runtime services: service ended, starting it again after backoff',
    );
    local.backoff = setTimeout(
      () => void launch(local).catch((err) => logger.warn({ err }, 'runtime services: restart failed')),
      delay,
    );
  };

  const launch = async (local: Local): Promise<void> => {
    local.backoff = null;
    if (local.stopping) return;
    const [ws] = await db.select().from(projectWorkspaces).where(eq(projectWorkspaces.id, local.workspaceId));
    if (!ws || ws.desiredState !== 'running' || local.stopping) return; // the next tick stops it
    local.startedAt = Date.now();
    const config = parseRuntimeConfig(ws.runtimeConfig);
    // Fixed by a PATCH of the workspace: retried with the backoff like a crash.
    if (!ws.cwd || !config)
      return crashed(local, {
        code: null,
        signal: null,
        error: 'the workspace has no local cwd or runtimeConfig.command',
      });
    await setRow(local.workspaceId, { status: 'starting', pid: null });
    if (local.stopping) return;
    const child = spawn('/bin/sh', ['-c', config.command], {
      cwd: ws.cwd,
      // The allow-listed base, never the server's own environment (its BOARDROOM_* secrets).
      env: { ...safeBaseEnv(), ...config.env, [MARKER]: local.workspaceId },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    local.child = child;
    child.stdout.setEncoding('utf8').on('data', (c: string) => appendLog(local, c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => appendLog(local, c));
    let resolveExit!: () => void;
    local.exited = new Promise((resolve) => (resolveExit = resolve));
    const ended = new Promise<End>((resolve) => {
      child.once('exit', (code, signal) => resolve({ code, signal, error: null }));
      child.once('error', (err) => resolve({ code: null, signal: null, error: `could not start: ${err.message}` }));
    });
    child.once('spawn', () => {
      local.pgid = child.pid ?? null;
      // Only over 'starting': a process that died at once may already have recorded its backoff.
      setRow(
        local.workspaceId,
        { status: 'running', pid: child.pid ?? null, startedAt: new Date(), exitCode: null, lastError: null },
        eq(workspaceRuntimeServices.status, 'starting'),
      ).catch((err) =>
        logger.warn({ err, workspaceId: local.workspaceId }, 'runtime services: recording the start failed'),
      );
    });
    void ended.then(async (end) => {
      try {
        if (local.pgid !== null) await killGroup(local.pgid); // the leader's leftovers go with it
        local.child = null;
        local.pgid = null;
        await flushLog(local);
        if (!local.stopping) await crashed(local, end);
      } catch (err) {
        logger.warn({ err, workspaceId: local.workspaceId }, 'runtime services: handling an exit failed');
      } finally {
        resolveExit();
      }
    });
  };

  /** Kills the local process (if any) and forgets it; `release` also frees the row for anyone. */
  const halt = async (local: Local, release: boolean) => {
    local.stopping = true;
    if (local.backoff) clearTimeout(local.backoff);
    if (local.child) {
      if (local.pgid !== null) await killGroup(local.pgid);
      await Promise.race([local.exited, sleep(settings.graceMs + 3000)]);
    }
    locals.delete(local.workspaceId);
    await flushLog(local);
    if (release)
      await setRow(local.workspaceId, {
        status: 'stopped',
        pid: null,
        ownerReplica: null,
        ownerBoot: null,
        leaseExpiresAt: null,
      });
  };

  const newLocal = (workspaceId: string): Local => ({
    workspaceId,
    child: null,
    pgid: null,
    startedAt: 0,
    crashes: 0,
    backoff: null,
    stopping: false,
    exited: Promise.resolve(),
    pendingLog: '',
  });

  const claim = async (): Promise<string[]> => {
    const rows = await db.execute<{ workspace_id: string }>(sql`
      insert into workspace_runtime_services (workspace_id, company_id, owner_replica, owner_boot, lease_expires_at, status, pid)
      select w.id, w.company_id, ${identity.replica}, ${identity.boot}, ${lease}, 'starting', null
      from project_workspaces w
      left join workspace_runtime_services s on s.workspace_id = w.id
      where w.desired_state = 'running' and w.cwd is not null and w.source_type <> 'remote_managed'
        and (s.workspace_id is null or s.owner_boot is null or s.lease_expires_at < now())
        -- never this boot's own row: a service it still runs (a tick that outlasted the lease) is renewed, not started twice
        and s.owner_boot is distinct from ${identity.boot}
      limit ${CLAIM_BATCH}
      on conflict (workspace_id) do update set owner_replica = excluded.owner_replica, owner_boot = excluded.owner_boot,
        lease_expires_at = excluded.lease_expires_at, status = 'starting', pid = null, updated_at = now()
      where (workspace_runtime_services.owner_boot is null or workspace_runtime_services.lease_expires_at < now())
        and workspace_runtime_services.owner_boot is distinct from ${identity.boot}
      returning workspace_id`);
    return rows.rows.map((r) => r.workspace_id);
  };

  const tick = async () => {
    const ids = [...locals.keys()];
    if (ids.length > 0) {
      const renewed = await db
        .update(workspaceRuntimeServices)
        .set({ leaseExpiresAt: lease })
        .where(and(mine, inArray(workspaceRuntimeServices.workspaceId, ids)))
        .returning({ id: workspaceRuntimeServices.workspaceId });
      const held = new Set(renewed.map((r) => r.id));
      const wanted = await db
        .select({ id: projectWorkspaces.id })
        .from(projectWorkspaces)
        .where(and(inArray(projectWorkspaces.id, ids), eq(projectWorkspaces.desiredState, 'running')));
      const running = new Set(wanted.map((r) => r.id));
      // Only operations of services this replica still holds: one for a service another replica
      // took over is that replica's to apply.
      const restarts =
        held.size === 0
          ? []
          : await db
              .update(workspaceOperations)
              .set({ status: 'applied' })
              .where(
                and(inArray(workspaceOperations.workspaceId, [...held]), eq(workspaceOperations.status, 'requested')),
              )
              .returning({ workspaceId: workspaceOperations.workspaceId, action: workspaceOperations.action });
      const restart = new Set(restarts.filter((op) => op.action === 'restart').map((op) => op.workspaceId));
      // Side by side: a stop waits up to its grace, and the tick must stay well inside the lease.
      await Promise.all(
        ids.map(async (id) => {
          const local = locals.get(id);
          if (!local) return; // halted meanwhile, by stop()
          if (!held.has(id) || !running.has(id)) {
            await halt(local, held.has(id));
          } else if (restart.has(id)) {
            await halt(local, false);
            const fresh = newLocal(id);
            locals.set(id, fresh);
            await launch(fresh);
          } else {
            await flushLog(local);
          }
        }),
      );
    }
    for (const id of await claim()) {
      // Operations asked before this start are what it fulfils.
      await db
        .update(workspaceOperations)
        .set({ status: 'applied' })
        .where(and(eq(workspaceOperations.workspaceId, id), eq(workspaceOperations.status, 'requested')));
      const local = newLocal(id);
      locals.set(id, local);
      await launch(local);
    }
  };

  return {
    tick,
    async stop() {
      await Promise.all(
        [...locals.values()].map((local) =>
          halt(local, true).catch((err) =>
            logger.warn({ err, workspaceId: local.workspaceId }, 'runtime services: stopping failed'),
          ),
        ),
      );
    },
  };
}

/** Services this replica ran in its previous life: their leftovers are killed and the rows freed to be claimed again. */
async function reapPreviousBoot(db: Db, identity: ReplicaIdentity): Promise<void> {
  const previous = and(
    eq(workspaceRuntimeServices.ownerReplica, identity.replica),
    ne(workspaceRuntimeServices.ownerBoot, identity.boot),
  );
  const rows = await db
    .select({ id: workspaceRuntimeServices.workspaceId, pid: workspaceRuntimeServices.pid })
    .from(workspaceRuntimeServices)
    .where(previous);
  for (const row of rows) if (row.pid) await killMarkedProcessGroup(row.pid, `${MARKER}=${row.id}`);
  await db
    .update(workspaceRuntimeServices)
    .set({
      status: 'crashed',
      pid: null,
      ownerReplica: null,
      ownerBoot: null,
      leaseExpiresAt: null,
      lastError: 'the replica supervising it stopped',
      updatedAt: sql`now()`,
    })
    .where(previous);
}
