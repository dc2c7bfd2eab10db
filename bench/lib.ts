// Shared pieces of the benchmarks: an app on a fresh database listening on loopback, autocannon
// runs summarised the same way, and a line-per-result report.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { configWith, type Config } from '../src/config.js';
import { createDatabase, type DatabaseHandle } from '../src/db/index.js';
import { migrateToLatest } from '../src/db/migrate.js';

export interface BenchServer {
  app: FastifyInstance;
  database: DatabaseHandle;
  url: string;
  config: Config;
  close(): Promise<void>;
}

/** An app on a new database (SQLite in a temp folder, or DATABASE_URL from the environment) on a free loopback port. */
export async function startBenchServer(overrides: Partial<Config> = {}, options: { loadGeoData?: boolean } = {}): Promise<BenchServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-bench-'));
  const config = configWith({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: 0, DATABASE_URL: process.env.DATABASE_URL, ...overrides });
  const database = createDatabase(config);
  await migrateToLatest(database.db);
  const app = await buildApp({ config, database, logger: false, loadGeoData: options.loadGeoData ?? false, startWorkers: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    app,
    database,
    config,
    url: `http://127.0.0.1:${port}`,
    async close() {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

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
 * else (this process, the data generators, autocannon, which inherit the affinity) the other
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
  if (cores < 2 || !taskset) return { server: [], placement: `not pinned (${cores} core(s), taskset ${taskset ? 'present' : 'missing'})` };
  const rest = cores === 2 ? '1' : `1-${cores - 1}`;
  try {
    execFileSync('taskset', ['-a', '-p', '-c', rest, String(process.pid)], { stdio: 'ignore' });
  } catch {
    return { server: [], placement: 'not pinned (taskset could not set this process\'s cores here)' };
  }
  return { server: ['taskset', '-c', '0'], placement: `server process (and the bare ceiling server) on core 0; wrk, this process and the data generator on core ${rest}` };
}

export interface ServerProcess {
  /** The service's own database handle, for filling the database and making tokens. */
  database: DatabaseHandle;
  url: string;
  pid: number;
  placement: string;
  close(): Promise<void>;
}

/**
 * The service as it runs in production (`node dist/server.js`, built when stale) in a process of
 * its own, on a migrated database (SQLite in a temp folder, or DATABASE_URL) that this process
 * fills through its own connection while the server runs.
 */
export async function startServerProcess(env: Record<string, string> = {}, options: { discardStdout?: boolean } = {}): Promise<ServerProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-bench-'));
  const config = configWith({ DATA_DIR: dataDir, DATABASE_URL: process.env.DATABASE_URL });
  const database = createDatabase(config);
  await migrateToLatest(database.db);
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build.mjs'), '--if-stale', '--quiet'], { stdio: 'inherit' });
  const { server: prefix, placement } = pinCores();
  const port = await freePort();
  const command = [...prefix, process.execPath, path.join(root, 'dist', 'server.js')];
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
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; ) {
    if (child.exitCode !== null) break;
    try {
      if ((await fetch(`${url}/health`)).ok) return { database, url, pid: child.pid!, placement, close };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await close();
  throw new Error(`the server process did not answer /health within 120 s (exit code ${child.exitCode})`);
}

export interface LoadResult {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

const autocannonCli = path.join(root, 'node_modules', 'autocannon', 'autocannon.js');

/** Options that only exist in-process (functions, per-request definitions). */
function needsInProcess(options: autocannon.Options): boolean {
  return Boolean(options.requests?.length) || Object.values(options).some((v) => typeof v === 'function');
}

/**
 * Runs autocannon in its own process when the options allow it, so the load generator does not
 * share an event loop (and, on two cores, a core) with a server under test in this process.
 */
async function runAutocannon(options: autocannon.Options): Promise<autocannon.Result> {
  if (needsInProcess(options)) return autocannon(options);
  const args = [autocannonCli, '--json', '-c', String(options.connections ?? 32), '-d', String(options.duration ?? 10)];
  if (options.method) args.push('-m', options.method);
  for (const [key, value] of Object.entries(options.headers ?? {})) args.push('-H', `${key}=${value}`);
  if (options.body !== undefined) args.push('-b', String(options.body));
  args.push(String(options.url));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      try {
        resolve(JSON.parse(out) as autocannon.Result);
      } catch {
        reject(new Error(`autocannon exited ${code} without a JSON result`));
      }
    });
  });
}

/**
 * One measured run. It follows an unmeasured warm-up of the same requests (3 s unless told), so
 * the figures are of a warm server, as in production, not of V8 compiling the handlers: the first
 * seconds after a start showed p99 twice as high and single requests of 150-200 ms. A run whose
 * requests change the data (creating records) should pass 0 and count only its own work.
 */
export async function load(name: string, options: autocannon.Options, warmupSeconds = 3): Promise<LoadResult> {
  if (warmupSeconds > 0) await runAutocannon({ connections: 32, ...options, duration: warmupSeconds });
  const result = await runAutocannon({ duration: 10, connections: 32, ...options });
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

export function report(results: LoadResult[]): void {
  const rows = results.map((r) => `| ${r.name} | ${r.requestsPerSecond} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} |`);
  process.stdout.write(['| case | req/s | p50 ms | p99 ms | errors | non-2xx |', '|---|---|---|---|---|---|', ...rows].join('\n') + '\n');
}
