// The engine: the loops that run with no HTTP request behind them (wakeup dispatcher, run reaper,
// timers, routine scheduler). Each replica runs one engine; every coordination between replicas
// goes through the database. Loops act as the system actor and call the same services as routes.
//
// This is the frame the loops plug into: start registers them, stop ends them before the database
// closes so no loop ever runs against a closed pool.
import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';

export interface EngineDeps {
  database: Database;
  logger: Logger;
}

export interface Engine {
  stop(): Promise<void>;
}

/** A loop: started once, stopped once; `stop` resolves when its current iteration has finished. */
export interface EngineLoop {
  name: string;
  start(deps: EngineDeps): void;
  stop(): Promise<void>;
}

// No loops yet: the dispatcher and the reaper come with the engine issue.
const LOOPS: EngineLoop[] = [];

export function startEngine(deps: EngineDeps, loops: EngineLoop[] = LOOPS): Engine {
  for (const loop of loops) loop.start(deps);
  if (loops.length > 0) deps.logger.info({ loops: loops.map((l) => l.name) }, 'engine started');
  let stopping: Promise<void> | null = null;
  return {
    stop() {
      stopping ??= Promise.all(loops.map((l) => l.stop())).then(() => undefined);
      return stopping;
    },
  };
}

export function stopEngine(engine: Engine | null): Promise<void> {
  return engine ? engine.stop() : Promise.resolve();
}
