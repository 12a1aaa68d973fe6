// What the HTTP app is built from, and the app's type: one module that both app.ts (which assembles)
// and every area's routes.ts (which register) import, so neither imports the other.
import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Database } from '../db/client.ts';
import type { AdapterRegistry } from '../adapters/registry.ts';
import type { Supervision } from '../db/embedded.ts';
import type { Notifications } from '../db/notifications.ts';
import type { Storage } from '../storage/storage.ts';
import type { Config } from '../core/config.ts';

export interface AppDeps {
  config: Config;
  database: Database;
  storage: Storage;
  /** The replica's LISTEN connection (shared with the engine): live streams hear the database through it. */
  notifications: Notifications;
  /** The board user that local_trusted requests act as (the instance owner). */
  localBoardUserId: string | null;
  /**
   * The adapter registry the engine runs with (startEngine's `registry`), so an adapter installed
   * through the API runs the next wake. Without one (an app with no engine) the app keeps its own.
   */
  adapters?: AdapterRegistry;
  /** The supervised embedded database's state for the health route; null (or absent) with DATABASE_URL. */
  embeddedDatabase?: () => Supervision | null;
  /** Bounds of the live event streams over their defaults (tests shorten them). */
  eventLimits?: Partial<StreamLimits>;
  /** false: no logs (tests); a logger: use it (the server shares its own); default: JSON to stdout. */
  logger?: boolean | FastifyBaseLogger;
  /** How a plugin's http.fetch resolves a host name; default the system resolver (tests answer names offline). */
  pluginNetLookup?: (hostname: string) => Promise<{ address: string; family: number }[]>;
}

/** Bounds of a live event stream (modules/events/streams.ts holds the defaults). */
export interface StreamLimits {
  /** A client's backlog (bytes sent it has not taken) at which activity writing waits; twice this drops it. */
  maxBufferedBytes: number;
  /** A client with a backlog that took nothing for this long is dropped. */
  stallMs: number;
  /** Entries replayed after a Last-Event-ID; more written since: `reset`. */
  replayLimit: number;
  /** Entries per read of the live stream. */
  readBatch: number;
  keepaliveMs: number;
  /** How often a stream's credential and company access are checked again. */
  recheckMs: number;
  /** At most one run_log event per run per this many milliseconds. */
  runLogIntervalMs: number;
}

export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;
