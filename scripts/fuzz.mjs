// npm run fuzz: the in-process hostile suite with a fresh seed (FUZZ_RUNS requests per route,
// 2000 by default). npm run fuzz -- --socket: the socket suite instead, against node dist/server.js
// (SOCKET_FUZZ_RUNS per route, 2000 by default), on SQLite, or on PostgreSQL with TEST_DB=postgres
// and TEST_DATABASE_URL. Other arguments go to vitest. Replay a failure with FUZZ_SEED=<seed>.
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const socket = args.includes('--socket');
const extra = args.filter((a) => a !== '--socket');
const env = { ...process.env };
if (socket) env.SOCKET_FUZZ_RUNS = env.SOCKET_FUZZ_RUNS ?? '2000';
else env.FUZZ_RUNS = env.FUZZ_RUNS ?? '2000';
const file = socket ? 'test/hostile/socket.test.ts' : 'test/hostile/fuzz.test.ts';
const result = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', file, ...extra], {
  stdio: 'inherit',
  env,
});
process.exit(result.status ?? 1);
