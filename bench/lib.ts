// Shared pieces of the benchmarks: the service in a process of its own on its own core, on a fresh
// database. The client (wrk) and its ceiling are in bench/client.ts.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { configWith } from '../src/config.js';
import { createDatabase, type DatabaseHandle } from '../src/db/index.js';
import { migrateToLatest } from '../src/db/migrate.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/** A free TCP port on loopback (listen on 0, read it, close). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * With two or more cores and taskset, the server under test gets core 0 to itself and everything
 * else (this process, the data generators and wrk, which inherit the affinity) the other
 * cores: the load generator then stands in for clients on another machine instead of taking CPU
 * time from the server it measures. Returns how the run was placed, for the report.
 */
function pinCores(): { server: string[]; placement: string } {
  if (pinned) return pinned;
  pinned = placeOnCores();
  return pinned;
}
let pinned: { server: string[]; placement: string } | undefined;

/** The command prefix that puts a server process on the server's core (empty when not pinned). */
export function serverCores(): string[] {
  return pinCores().server;
}

function placeOnCores(): { server: string[]; placement: string } {
  const cores = os.availableParallelism();
  const taskset = spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0;
  if (cores < 2 || !taskset)
    return { server: [], placement: `not pinned (${cores} core(s), taskset ${taskset ? 'present' : 'missing'})` };
  const rest = cores === 2 ? '1' : `1-${cores - 1}`;
  try {
    execFileSync('taskset', ['-a', '-p', '-c', rest, String(process.pid)], { stdio: 'ignore' });
  } catch {
    return { server: [], placement: "not pinned (taskset could not set this process's cores here)" };
  }
  return {
    server: ['taskset', '-c', '0'],
    placement: `server process (and the bare ceiling server) on core 0; wrk, this process and the data generator on core ${rest}`,
  };
}

export interface ServerProcess {
  /** The service's own database handle, for filling the database and making tokens. */
  database: DatabaseHandle;
  dataDir: string;
  url: string;
  pid: number;
  placement: string;
  close(): Promise<void>;
}

/**
 * The node flags of `npm start` (package.json's start script, e.g. V8's semi-space size), so the
 * benchmarks run the server as production does.
 */
function startFlags(): string[] {
  const start = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } })
    .scripts.start;
  return start.split(/\s+/).filter((word) => word.startsWith('--'));
}

/**
 * The service as it runs in production (`node dist/server.js`, built when stale) in a process of
 * its own, on a migrated database (SQLite in a temp folder, or DATABASE_URL) that this process
 * fills through its own connection while the server runs.
 */
export async function startServerProcess(
  env: Record<string, string> = {},
  options: {
    discardStdout?: boolean /** A second instance on the database (and DATA_DIR) of this one. */;
    besides?: ServerProcess;
  } = {},
): Promise<ServerProcess> {
  const dataDir = options.besides?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'platform-bench-'));
  const config = configWith({ DATA_DIR: dataDir, DATABASE_URL: process.env.DATABASE_URL });
  const database = createDatabase(config);
  if (!options.besides) await migrateToLatest(database.db);
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build.mjs'), '--if-stale', '--quiet'], {
    stdio: 'inherit',
  });
  const { server: prefix, placement } = pinCores();
  const port = await freePort();
  const command = [...prefix, process.execPath, ...startFlags(), path.join(root, 'dist', 'server.js')];
  const child: ChildProcess = spawn(command[0]!, command.slice(1), {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
      // PostgreSQL settings given to the benchmark reach the server.
      ...Object.fromEntries(
        ['DATABASE_POOL_SIZE', 'DATABASE_STATEMENT_TIMEOUT_MS']
          .filter((k) => process.env[k])
          .map((k) => [k, process.env[k]!]),
      ),
      ...env,
    },
    // At the default log level every request is logged: to /dev/null, not this terminal.
    stdio: ['ignore', options.discardStdout ? 'ignore' : 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  };
  const close = async () => {
    await stop();
    await database.close();
    if (!options.besides) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; ) {
    if (child.exitCode !== null) break;
    try {
      if ((await fetch(`${url}/health`)).ok) {
        const pool = process.env.DATABASE_URL
          ? `; PostgreSQL (not pinned: it shares the cores with everything else), pool ${process.env.DATABASE_POOL_SIZE ?? 10}`
          : '';
        return { database, dataDir, url, pid: child.pid!, placement: placement + pool, close };
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await close();
  throw new Error(`the server process did not answer /health within 120 s (exit code ${child.exitCode})`);
}
