// The service under benchmark: `node dist/server.js` with npm start's node flags, in a process of
// its own on its own core, on a fresh migrated database (a SQLite file in a temporary folder, or a
// new schema in DATABASE_URL) that the benchmark fills through its own connection while the server
// runs. The process itself is harness/server.ts's; the client (wrk) and its ceiling are in wrk.ts.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { scratchDatabase, type ScratchDatabase } from '../../harness/database.js';
import { launchServer, projectRoot } from '../../harness/server.js';
import type { DatabaseHandle } from '../../src/db/index.js';

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

/**
 * BENCH_THREADS_APART=1: every thread of the server but its JavaScript thread (V8's compiler and
 * collector threads, the worker threads started with it) moved to the other cores, as on a machine
 * that gives the service more than one core; threads started later stay on core 0. Linux only.
 */
function threadsApart(pid: number): string {
  const { server } = pinCores();
  const tasks = `/proc/${pid}/task`;
  if (server.length === 0 || !fs.existsSync(tasks)) return '; BENCH_THREADS_APART ignored (not pinned, or no /proc)';
  // Every core of the machine, not this process's (pinCores moved it off core 0).
  const cores = os.cpus().length;
  const rest = cores === 2 ? '1' : `1-${cores - 1}`;
  const others = fs.readdirSync(tasks).filter((tid) => Number(tid) !== pid);
  for (const tid of others) execFileSync('taskset', ['-p', '-c', rest, tid], { stdio: 'ignore' });
  return `; the server's ${others.length} other threads (BENCH_THREADS_APART) on core ${rest}`;
}

export interface ServerProcess {
  /** The service's own database handle, for filling the database and making tokens. */
  database: DatabaseHandle;
  dataDir: string;
  url: string;
  pid: number;
  placement: string;
  /** Milliseconds from the spawn to /health (harness/server.ts). */
  readyMs: number;
  close(): Promise<void>;
  /** The database, for a second instance on it. */
  scratch: ScratchDatabase;
}

/**
 * The node flags of `npm start` (package.json's start script in `dir`, e.g. V8's semi-space size),
 * so the benchmarks run the server as production does.
 */
export function startFlags(dir = projectRoot): string[] {
  const start = (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { scripts: { start: string } })
    .scripts.start;
  return start.split(/\s+/).filter((word) => word.startsWith('--'));
}

/** PostgreSQL settings given to the benchmark reach the server. */
function passedSettings(): Record<string, string> {
  return Object.fromEntries(
    ['DATABASE_POOL_SIZE', 'DATABASE_STATEMENT_TIMEOUT_MS']
      .filter((k) => process.env[k])
      .map((k) => [k, process.env[k]!]),
  );
}

/**
 * Starts the service (built first when stale) on a new database, or, with `besides`, a second
 * instance on the database and DATA_DIR of a running one. close() stops the process, and for the
 * first instance removes the database.
 */
export async function startServerProcess(
  env: Record<string, string> = {},
  options: {
    /** stdout to /dev/null: at the default log level every request is logged. */
    discardStdout?: boolean;
    besides?: ServerProcess;
  } = {},
): Promise<ServerProcess> {
  const pgUrl = process.env.DATABASE_URL;
  const scratch =
    options.besides?.scratch ??
    (await scratchDatabase({ dialect: pgUrl ? 'postgres' : 'sqlite', url: pgUrl, label: 'bench' }));
  const { server: prefix, placement } = pinCores();
  const close = async (server?: { stop(): Promise<unknown> }) => {
    await server?.stop();
    if (!options.besides) await scratch.destroy();
  };
  let server: Awaited<ReturnType<typeof launchServer>>;
  try {
    server = await launchServer({
      entry: 'built',
      prefix,
      nodeFlags: startFlags(),
      env: { ...scratch.env, ...passedSettings(), ...env },
      output: options.discardStdout ? 'stderr' : 'inherit',
      timeoutMs: 120_000,
      // Often enough for a start's time (readyMs) to be read to 20 ms.
      pollMs: 20,
    });
  } catch (error) {
    await close();
    throw error;
  }
  const pool = pgUrl
    ? `; PostgreSQL (not pinned: it shares the cores with everything else), pool ${process.env.DATABASE_POOL_SIZE ?? 10}`
    : '';
  const apart = process.env.BENCH_THREADS_APART === '1' ? threadsApart(server.pid) : '';
  return {
    database: scratch.handle,
    dataDir: scratch.dataDir,
    url: server.url,
    pid: server.pid,
    placement: placement + pool + apart,
    readyMs: server.readyMs,
    scratch,
    close: () => close(server),
  };
}
