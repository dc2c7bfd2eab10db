// npm run bench -- geo [--duration S] [--connections N] [--rounds R] [--warmup S]
// GET /api/provinces, GET /api/geographic/continents and a section children call against the
// service in production configuration (node dist/server.js, NODE_ENV=production, the default log
// level, security headers, the default rate limit from which these routes are exempt), pinned to
// its core, side by side with a bare node:http server answering the same bytes and headers
// (bench/lib/wrk.ts). Target: service >= 80 % of the bare server's req/s on every case.
import { parseArgs } from 'node:util';
import {
  CASE_ARGS,
  caseOptions,
  ensureWrk,
  measureCase,
  printSummary,
  ratioOf,
  startCeiling,
  type CaseResult,
} from './lib/wrk.js';
import { startServerProcess } from './lib/server.js';

const CASES = [
  { name: 'GET /api/provinces', path: '/api/provinces' },
  { name: 'GET /api/geographic/continents', path: '/api/geographic/continents' },
  { name: 'GET /api/geographic/section/785/children', path: '/api/geographic/section/785/children' },
];

export default async function geoBenchmark(args: string[]): Promise<void> {
  const options = caseOptions(parseArgs({ args, options: CASE_ARGS }).values);
  ensureWrk();
  // LOG_LEVEL empty = the default (info), RATE_LIMIT_PER_MINUTE empty = the default (600).
  const server = await startServerProcess(
    { NODE_ENV: 'production', LOG_LEVEL: '', RATE_LIMIT_PER_MINUTE: '' },
    { discardStdout: true },
  );
  const ceiling = await startCeiling();
  try {
    process.stdout.write(
      `${server.placement}; wrk -t1 -c${options.connections}, ${options.rounds} alternating rounds of ${options.duration} s after a ${options.warmup} s warm-up\n`,
    );
    const results: CaseResult[] = [];
    for (const c of CASES) {
      const sample = await fetch(server.url + c.path);
      if (sample.status !== 200) throw new Error(`${c.path} answered ${sample.status}`);
      results.push(await measureCase(c.name, server, ceiling, { path: c.path }, options));
    }
    printSummary(
      'geo: service vs bare node:http (ceiling), wrk',
      results,
      `Target: service/ceiling >= 80 % on every case. Here the ceiling is the bare node:http server on its core ` +
        `(wrk uses well under a core: see its CPU share), so reaching it is the goal.`,
    );
    const met = results.every((r) => ratioOf(r) >= 0.8);
    process.stdout.write(
      `target (>= 80 % of bare on every case): ${met ? 'met' : 'NOT met'}; load average ${(await import('node:os'))
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}\n`,
    );
  } finally {
    await ceiling.close();
    await server.close();
  }
}
