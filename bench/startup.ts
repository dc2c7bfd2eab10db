// npm run bench -- startup [--runs N] [--skip-first] [--project DIR]
// Time from spawning the service to its first 200 from GET /health and from GET /api/provinces, on
// SQLite with the bundled data, beside the ceiling: a bare node:http server's time to its first
// answer, spawned and polled the same way in the same run.
//   first start: a copy of the project's files as a fresh clone has them (no dist/, no data; the
//     installed node_modules linked in, as after `npm install`), started with `npm start` (which
//     builds dist/, migrates and loads the bundled geographic data);
//   later starts: the same copy again, with `npm start` and with `node dist/server.js` (npm start's
//     node flags), its database already there.
// --project DIR measures another checkout of the service instead of this one (an older commit, for
// a comparison in the same sitting: `git archive <commit> | tar -x -C DIR`, with node_modules).
// Targets: first start ready in < 8 s, later starts in < 1 s. Each figure is the median of the runs,
// with the CPU time the server's processes had used when /api/provinces first answered 200 (wall
// time on a busy machine waits for a core; CPU time does not).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from '../harness/ports.js';
import { projectRoot } from '../harness/server.js';
import { median as medianOrNull } from '../src/core/percentile.js';
import { treeCpuMicros } from './lib/proc.js';
import { startFlags } from './lib/server.js';
import { copyForFirstStart, runGit } from './lib/startup.js';

const FIRST_TARGET_MS = 8_000;
const LATER_TARGET_MS = 1_000;

interface Timing {
  healthMs: number;
  provincesMs: number;
  cpuMs: number;
}

/** One GET; resolves with the status, or 0 when nothing answered (connection refused, reset). */
function status(port: number, urlPath: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: urlPath, agent: false, timeout: 10_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.on('error', () => resolve(0));
    req.on('timeout', () => req.destroy());
  });
}

/** Polls every 5 ms until the path answers 200; the time since `since`, ms. */
async function firstOk(child: ChildProcess, port: number, urlPath: string, since: number, log: () => string) {
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(
        `the process exited (${child.exitCode ?? child.signalCode}) before ${urlPath} answered: ${log().slice(-2000)}`,
      );
    if ((await status(port, urlPath)) === 200) return performance.now() - since;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** Spawns the command with PORT and DATA_DIR and times its first answers (the ceiling answers every path). */
async function timeStart(command: string[], cwd: string, env: Record<string, string>): Promise<Timing> {
  const port = await freePort();
  let output = '';
  const started = performance.now();
  const child = spawn(command[0]!, command.slice(1), {
    cwd,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  try {
    const healthMs = await firstOk(child, port, '/health', started, () => output);
    const provincesMs = await firstOk(child, port, '/api/provinces', started, () => output);
    const cpuMs = treeCpuMicros(child.pid!) / 1000;
    return { healthMs, provincesMs, cpuMs };
  } finally {
    await stop(child);
  }
}

const CEILING_SCRIPT =
  "require('node:http').createServer((q, s) => s.end('{}')).listen(Number(process.env.PORT), process.env.HOST)";

const median = (values: number[]) => medianOrNull(values) ?? Number.NaN;

function row(name: string, timings: Timing[], target?: number): string {
  const health = median(timings.map((t) => t.healthMs));
  const provinces = median(timings.map((t) => t.provincesMs));
  const cpu = median(timings.map((t) => t.cpuMs));
  const verdict = target === undefined ? '' : provinces < target ? `met (< ${target} ms)` : `NOT met (< ${target} ms)`;
  return `| ${name} | ${timings.length} | ${health.toFixed(0)} | ${provinces.toFixed(0)} | ${cpu.toFixed(0)} | ${verdict} |`;
}

export default async function startupBenchmark(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      runs: { type: 'string', default: '5' },
      'skip-first': { type: 'boolean', default: false },
      project: { type: 'string', default: projectRoot },
    },
  });
  const runs = Math.max(1, Number(values.runs));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-startup-'));
  const rows: string[] = [];
  let met = true;
  try {
    const ceiling: Timing[] = [];
    for (let i = 0; i < runs; i++) ceiling.push(await timeStart([process.execPath, '-e', CEILING_SCRIPT], work, {}));
    rows.push(row('bare node:http (ceiling)', ceiling));

    const copy = path.join(work, 'clone');
    copyForFirstStart(path.resolve(values.project), copy);
    const dataDir = path.join(work, 'data');
    const env = { DATA_DIR: dataDir };
    const npmStart = ['npm', 'start', '--silent'];
    if (!values['skip-first']) {
      const first = await timeStart(npmStart, copy, env);
      met &&= first.provincesMs < FIRST_TARGET_MS;
      rows.push(
        row('first start: `npm start` (builds dist/, migrates, loads the geographic data)', [first], FIRST_TARGET_MS),
      );
    } else {
      await timeStart(npmStart, copy, env);
    }
    const later: Timing[] = [];
    for (let i = 0; i < runs; i++) later.push(await timeStart(npmStart, copy, env));
    rows.push(row('later start: `npm start`', later, LATER_TARGET_MS));
    const flags = startFlags(copy);
    const direct: Timing[] = [];
    for (let i = 0; i < runs; i++)
      direct.push(await timeStart([process.execPath, ...flags, 'dist/server.js'], copy, env));
    rows.push(row(`later start: \`node ${[...flags, 'dist/server.js'].join(' ')}\``, direct, LATER_TARGET_MS));
    met &&= median(later.map((t) => t.provincesMs)) < LATER_TARGET_MS;
    met &&= median(direct.map((t) => t.provincesMs)) < LATER_TARGET_MS;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  const measured =
    values.project === projectRoot ? `commit ${runGit(['rev-parse', '--short', 'HEAD'])}` : values.project;
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  process.stdout.write(
    [
      `startup on SQLite with the bundled data, ${measured}, node ${process.version}, ` +
        `${os.availableParallelism()} cores, load average ${load}`,
      '',
      '| Command | Runs | First 200 /health, ms (median) | First 200 /api/provinces, ms (median) | Server CPU at that point, ms | Target |',
      '|---|---|---|---|---|---|',
      ...rows,
      '',
      `targets (first start < ${FIRST_TARGET_MS} ms, later starts < ${LATER_TARGET_MS} ms, to /api/provinces): ${met ? 'met' : 'NOT met'}`,
      '',
    ].join('\n'),
  );
  return met ? 0 : 1;
}
