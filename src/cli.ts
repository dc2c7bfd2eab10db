// Operator commands: npm run --silent cli -- <command> [options]. Same environment as the server;
// safe to run while it serves (SQLite in WAL mode, PostgreSQL as usual).
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { CommandFailed, UsageError, type CliCommand } from './cli/command.js';
import { ConfigError, loadConfig } from './config.js';
import { createDatabase, describeDatabase } from './db/index.js';
import { loadEnvFile } from './env-file.js';
import { migrateToLatest } from './db/migrate.js';
import { modules } from './modules/index.js';

const commands: CliCommand[] = modules.flatMap((m) => m.commands);

function help(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = [
    'Usage: npm run --silent cli -- <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run a command with --help for its options; --verbose (any command) names the database it opened.',
  ];
  return lines.join('\n');
}

function commandHelp(command: CliCommand): string {
  const lines = [`Usage: npm run --silent cli -- ${command.name} ${command.usage}`.trimEnd(), '', command.summary];
  const names = Object.keys(command.options);
  if (names.length) {
    const width = Math.max(...names.map((n) => n.length)) + 2;
    lines.push('', 'Options:', ...names.map((n) => `  --${n.padEnd(width)} ${command.options[n]!.description}`));
  }
  return lines.join('\n');
}

/**
 * `--expires-in-days -1`: parseArgs would take -1 for an option of its own and answer with its own
 * wording; joined as --expires-in-days=-1 the value reaches the command, which says what it takes
 * (the same message as for 0).
 */
function joinNegativeValues(args: string[], command: CliCommand): string[] {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = args[i + 1];
    const name = arg.startsWith('--') ? arg.slice(2) : '';
    if (command.options[name]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      joined.push(`${arg}=${next}`);
      i++;
    } else joined.push(arg);
  }
  return joined;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${help()}\n`);
    return name ? 0 : 2;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) throw new UsageError(`unknown command "${name}"; run with --help to list the commands`);
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${commandHelp(command)}\n`);
    return 0;
  }

  // --verbose is every command's: it says which database the command opened.
  const verbose = rest.includes('--verbose');
  let values: Record<string, string | boolean | undefined>;
  try {
    let positionals: string[];
    ({ values, positionals } = parseArgs({
      args: joinNegativeValues(
        rest.filter((a) => a !== '--verbose'),
        command,
      ),
      options: command.options,
      strict: true,
      allowPositionals: command.positional !== undefined,
    }));
    if (positionals.length > 1) throw new UsageError(`${name} takes one ${command.positional}`);
    if (command.positional && positionals[0] !== undefined) values[command.positional] ??= positionals[0];
  } catch (error) {
    throw new UsageError(`${(error as Error).message.split('\n')[0]} (see ${name} --help)`);
  }

  loadEnvFile();
  const config = loadConfig();
  // Without DATA_DIR (and on SQLite) the database goes to ./data of the working directory: say so
  // when that folder is about to be created, as it is easy to run the CLI from the wrong place.
  if (!process.env.DATA_DIR && !config.DATABASE_URL && !fs.existsSync(config.DATA_DIR)) {
    process.stderr.write(
      `warning: DATA_DIR is not set: creating ${config.DATA_DIR} for the database (set DATA_DIR to the server's)\n`,
    );
  }
  const database = createDatabase(config);
  if (verbose) process.stderr.write(`database: ${database.dialect} ${describeDatabase(config, database.sqliteFile)}\n`);
  try {
    if (!command.ownsMigrations) await migrateToLatest(database.db);
    await command.run(values, {
      config,
      db: database.db,
      dialect: database.dialect,
      out: (line) => process.stdout.write(`${line}\n`),
      progress: (line) => process.stderr.write(`${line}\n`),
    });
  } finally {
    await database.close();
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const known = error instanceof UsageError || error instanceof CommandFailed || error instanceof ConfigError;
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    process.stderr.write(`error: ${known ? message : `unexpected failure: ${message}`}\n`);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
