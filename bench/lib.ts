// Shared pieces of the benchmarks: an app on a fresh database listening on loopback, autocannon
// runs summarised the same way, and a line-per-result report.
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

export async function load(name: string, options: autocannon.Options): Promise<LoadResult> {
  const result = await autocannon({ duration: 10, connections: 32, ...options });
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
