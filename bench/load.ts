// npm run bench -- load [--db sqlite|postgres] [--duration 120] [--connections N] [--step 10] [--users 200]
// A mixed workload over the four areas against a real server process (node --import tsx
// src/server.ts), so its memory can be read from /proc/<pid>/status. First it steps the number of
// connections (2, 4, 8, ...) for --step seconds each until errors appear, p99 blows up or more
// connections bring no more requests per second; then it runs --duration seconds at the last good
// step (or at --connections N, skipping the search). Reports req/s, p50/p99 per request type and
// overall, errors, and VmRSS sampled at start, every 10 s and at end with its slope.
// PostgreSQL (--db postgres, the default when DATABASE_URL is set): a new schema in DATABASE_URL
// (default postgres://postgres@127.0.0.1:5432/test), dropped at the end.
// The parts: load/options.ts (arguments), load/http.ts (the client), load/mix.ts (the requests and
// their shares), load/seed.ts (the data before the run), load/run-mix.ts (running and tallying),
// load/phases.ts (the search for the rate and the long run).
import os from 'node:os';
import { scratchDatabase } from '../harness/database.js';
import { launchServer, type ServerProcess } from '../harness/server.js';
import { agent } from './load/http.js';
import { parseOptions } from './load/options.js';
import { findConnections, loadAverage, longRun } from './load/phases.js';
import { seed } from './load/seed.js';

export default async function run(args: string[]): Promise<void> {
  const options = parseOptions(args);
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const database = await scratchDatabase({
    dialect: options.db,
    url: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
    config: { DATABASE_POOL_SIZE: 2 },
    label: 'load',
  });
  let server: ServerProcess | undefined;
  try {
    // One process (no tsx launcher in between), so its pid is the server's.
    server = await launchServer({
      env: { ...database.env, TRUST_PROXY: 'true' },
      output: 'inherit',
      timeoutMs: 120_000,
    });
    out(`# load: ${options.db}, server pid ${server.pid}, ${os.cpus().length} cores, load average ${loadAverage()}`);
    const world = await seed(server.url, database.db, options.users);
    out(`seeded ${options.users} users: 3 tickets, 2 notifications and 1 conversation each`);
    const connections = options.connections ?? (await findConnections(server, world, options.step, out));
    await longRun(server, world, connections, options.duration, out);
    out(`load average after: ${loadAverage()}`);
  } finally {
    await server?.stop();
    agent.destroy();
    await database.destroy();
  }
}
