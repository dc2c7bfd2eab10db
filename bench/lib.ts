// Shared pieces of the benchmarks: an app on a fresh database listening on loopback, autocannon
// runs summarised the same way, and a line-per-result report.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
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

export interface LoadResult {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

const autocannonCli = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'node_modules', 'autocannon', 'autocannon.js');

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

export async function load(name: string, options: autocannon.Options): Promise<LoadResult> {
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
