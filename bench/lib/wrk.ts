// The load generator of every benchmark but `load`: wrk (C, one thread), with exact latency
// percentiles from a Lua `done` hook, and the client's ceiling: the same wrk against a bare
// node:http server (bench/bare-server.mjs) answering the same bytes and headers, in the same run,
// in alternating rounds (service, ceiling, ceiling, service, ...) so a burst of load from
// elsewhere on the machine hits both sides. A service figure within 20 % of the ceiling is
// reported as "client-bound": it says more about the client (and node:http) than the service.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { median as medianOrNull } from '../../src/core/percentile.js';
import { processCpuMicros, threadCpuMicros } from './proc.js';
import { serverCores } from './server.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** wrk on the PATH, installed with apt-get when missing and allowed; otherwise a clear error. */
export function ensureWrk(): void {
  if (spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined) return;
  process.stderr.write('wrk is missing: installing it with apt-get (Debian package "wrk")...\n');
  const asRoot = process.getuid?.() === 0;
  const install = asRoot
    ? spawnSync('sh', ['-c', 'apt-get install -y wrk || (apt-get update && apt-get install -y wrk)'], {
        stdio: 'ignore',
      })
    : undefined;
  if (install?.status === 0 && spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined) return;
  throw new Error(
    'the benchmarks need wrk (https://github.com/wg/wrk) and it could not be installed' +
      (asRoot ? ' with apt-get' : ' (not root)') +
      ': install it (Debian/Ubuntu: sudo apt-get install wrk) and run again',
  );
}

export interface Request {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Lua defining `request = function() ... end` (and `init`), for URLs or bodies that change per request. */
  lua?: string;
}

/** Lua that sends the JSON bodies in turn, one per request (Request.lua). */
export function rotatingBodies(bodies: string[]): string {
  const quoted = bodies.map((b) => `"${b.replace(/[\\"]/g, (c) => `\\${c}`)}"`);
  return (
    `local bodies = {${quoted.join(', ')}}\nlocal i = 0\nrequest = ` +
    `function()\n  i = i % #bodies + 1\n  return wrk.format(nil, nil, nil, bodies[i])\nend`
  );
}

export interface WrkResult {
  requestsPerSecond: number;
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  errors: number;
  non2xx: number;
  /** wrk's CPU time over the run's wall time (1 = one core). */
  clientCpu: number;
  /** The server process's CPU time per answered request, µs (when its pid is known). */
  serverCpuMicros?: number;
}

const DONE_HOOK = `
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK {"requests":%d,"us":%d,"errors":%d,"status":%d,"p50":%d,"p90":%d,"p99":%d,"p999":%d}\\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9)))
end
`;

function luaString(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

/** One wrk run: -t1, N connections, S seconds; its CPU time is read from the shell that waited for it. */
export async function wrk(base: string, request: Request, connections: number, seconds: number): Promise<WrkResult> {
  const setup = [
    request.method ? `wrk.method = ${luaString(request.method)}` : '',
    request.body !== undefined ? `wrk.body = ${luaString(request.body)}` : '',
  ]
    .concat(Object.entries(request.headers ?? {}).map(([k, v]) => `wrk.headers[${luaString(k)}] = ${luaString(v)}`))
    .join('\n');
  const script = path.join(os.tmpdir(), `platform-wrk-${process.pid}-${Math.random().toString(36).slice(2)}.lua`);
  fs.writeFileSync(script, `${setup}\n${request.lua ?? ''}\n${DONE_HOOK}`);
  const started = performance.now();
  // `cat /proc/$$/stat` after wrk: the shell's cutime/cstime are wrk's user and system time.
  const shell = 'wrk -t1 -c"$1" -d"$2"s --timeout 10s -s "$3" "$4" && cat /proc/$$/stat';
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn('sh', ['-c', shell, 'sh', String(connections), String(seconds), script, base + request.path], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (text += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(text) : reject(new Error(`wrk exited ${code}: ${err.trim() || text.trim()}`)),
    );
  });
  const wall = (performance.now() - started) / 1000;
  fs.rmSync(script, { force: true });
  const line = out.split('\n').find((l) => l.startsWith('WRK '));
  if (!line) throw new Error(`wrk printed no result:\n${out}`);
  const r = JSON.parse(line.slice(4)) as {
    requests: number;
    us: number;
    errors: number;
    status: number;
    p50: number;
    p90: number;
    p99: number;
    p999: number;
  };
  const stat = out.trim().split('\n').at(-1)!.split(') ')[1]!.split(' ');
  const ticks = Number(stat[13]) + Number(stat[14]); // cutime, cstime (fields 16 and 17), 100 per second
  const ms = (us: number) => Math.round(us / 10) / 100;
  return {
    requestsPerSecond: Math.round(r.requests / (r.us / 1e6)),
    p50: ms(r.p50),
    p90: ms(r.p90),
    p99: ms(r.p99),
    p999: ms(r.p999),
    errors: r.errors,
    non2xx: r.status,
    clientCpu: ticks / 100 / wall,
  };
}

export interface Ceiling {
  url: string;
  pid: number;
  record(path: string, status: number, headers: Record<string, string>, body: Buffer): Promise<void>;
  close(): Promise<void>;
}

// Headers that differ per response or that node:http writes itself.
const SKIPPED_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/** The bare node:http server, in its own process on the service's core (taskset, as the service). */
export async function startCeiling(): Promise<Ceiling> {
  const command = [...serverCores(), process.execPath, path.join(here, '..', 'bare-server.mjs')];
  const child = spawn(command[0]!, command.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    pid: child.pid!,
    async record(at, status, headers, body) {
      const kept = Object.fromEntries(Object.entries(headers).filter(([k]) => !SKIPPED_HEADERS.has(k)));
      const res = await fetch(`${url}/__reply?path=${encodeURIComponent(at)}`, {
        method: 'PUT',
        body: JSON.stringify({ status, headers: kept, body: body.toString('base64') }),
      });
      if (!res.ok) throw new Error(`bare server refused the reply for ${at}`);
    },
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface CaseOptions {
  connections: number;
  duration: number;
  rounds: number;
  warmup: number;
}

/** --duration S (10), --connections N (32), --rounds R (3), --warmup S (3) from parsed arguments. */
export function caseOptions(
  values: Record<string, string | boolean | undefined>,
  defaults: Partial<CaseOptions> = {},
): CaseOptions {
  const number = (name: keyof CaseOptions, fallback: number) =>
    typeof values[name] === 'string' ? Number(values[name]) : (defaults[name] ?? fallback);
  const options = {
    connections: number('connections', 32),
    duration: number('duration', 10),
    rounds: number('rounds', 3),
    warmup: number('warmup', 3),
  };
  if (!(options.connections >= 1 && options.duration > 0 && options.rounds >= 1 && options.warmup >= 0))
    throw new Error('--connections, --duration, --rounds must be positive, --warmup >= 0');
  return options;
}

/** The parseArgs declarations of caseOptions. */
export const CASE_ARGS = {
  duration: { type: 'string' },
  connections: { type: 'string' },
  rounds: { type: 'string' },
  warmup: { type: 'string' },
} as const;

export interface CaseResult {
  name: string;
  rounds: WrkResult[];
  ceiling: WrkResult[];
}

const median = (values: number[]) => medianOrNull(values) ?? Number.NaN;

/**
 * Records the service's answer to the request on the ceiling server, warms both up, then runs
 * `rounds` alternating pairs. Returns every round of both sides.
 */
export async function measureCase(
  name: string,
  service: { url: string; pid: number },
  ceiling: Ceiling,
  request: Request,
  options: CaseOptions,
): Promise<CaseResult> {
  const sample = await fetch(service.url + request.path, {
    method: request.method ?? 'GET',
    headers: request.headers,
    body: request.body,
  });
  const headers: Record<string, string> = {};
  for (const [key, value] of sample.headers) headers[key] = value;
  await ceiling.record(request.path, sample.status, headers, Buffer.from(await sample.arrayBuffer()));
  if (options.warmup > 0) {
    await wrk(service.url, request, options.connections, options.warmup);
    await wrk(ceiling.url, request, options.connections, options.warmup);
  }
  const result: CaseResult = { name, rounds: [], ceiling: [] };
  // The share of the service's CPU its JavaScript thread took in the round; the rest is V8's
  // compiler and collector threads, worker threads and libuv's pool.
  let mainShare = 1;
  for (let round = 0; round < options.rounds; round += 1) {
    const serviceFirst = round % 2 === 0;
    for (const side of serviceFirst ? ['service', 'ceiling'] : ['ceiling', 'service']) {
      const [url, pid] = side === 'service' ? [service.url, service.pid] : [ceiling.url, ceiling.pid];
      const before = processCpuMicros(pid);
      const mainBefore = threadCpuMicros(pid, pid);
      const run = await wrk(url, request, options.connections, options.duration);
      const used = processCpuMicros(pid) - before;
      run.serverCpuMicros = used / (run.requestsPerSecond * options.duration);
      if (side === 'service') mainShare = used > 0 ? (threadCpuMicros(pid, pid) - mainBefore) / used : 1;
      (side === 'service' ? result.rounds : result.ceiling).push(run);
    }
    process.stderr.write(
      `  ${name} round ${round + 1}: service ${result.rounds.at(-1)!.requestsPerSecond} req/s (its JavaScript thread ${(mainShare * 100).toFixed(0)} % of its CPU), ceiling ${result.ceiling.at(-1)!.requestsPerSecond} req/s\n`,
    );
  }
  return result;
}

/** The ratio of each round's service figure to the same round's ceiling, median over rounds. */
export function ratioOf(c: CaseResult): number {
  return median(c.rounds.map((r, i) => r.requestsPerSecond / c.ceiling[i]!.requestsPerSecond));
}

/** A copyable Markdown table: every round of both sides, the median ratio and the verdict. */
export function printSummary(title: string, cases: CaseResult[], note: string): void {
  const list = (runs: WrkResult[], pick: (r: WrkResult) => number | string) => runs.map(pick).join(' / ');
  const cpu = (runs: WrkResult[]) => median(runs.map((r) => r.serverCpuMicros ?? NaN));
  const rows = cases.map((c) => {
    const ratio = ratioOf(c);
    const verdict = ratio >= 0.8 ? 'client-bound (within 20 % of the ceiling)' : "server's figure";
    const clientCpu = Math.max(...c.rounds.concat(c.ceiling).map((r) => r.clientCpu));
    const faults = c.rounds.reduce((s, r) => s + r.errors + r.non2xx, 0);
    return (
      `| ${c.name} | ${list(c.rounds, (r) => r.requestsPerSecond)} | ${c.rounds.map((r) => `${r.p50}/${r.p99}/${r.p999}`).join(' · ')} ` +
      `| ${list(c.ceiling, (r) => r.requestsPerSecond)} | ${(100 * ratio).toFixed(1)} % | ` +
      `${cpu(c.rounds).toFixed(1)} / ${cpu(c.ceiling).toFixed(1)} µs (${((100 * cpu(c.ceiling)) / cpu(c.rounds)).toFixed(0)} %) ` +
      `| ${Math.round(100 * clientCpu)} % | ${faults} | ${verdict} |`
    );
  });
  process.stdout.write(
    [
      '',
      `## ${title}`,
      note,
      '',
      '| case | service req/s (rounds) | p50/p99/p99.9 ms (rounds) | ceiling req/s (rounds) | service/ceiling ' +
        'req/s (median) | server CPU per request service / ceiling (ceiling/service) | wrk CPU (max, of a core) | errors + non-2xx | reading |',
      '|---|---|---|---|---|---|---|---|---|',
      ...rows,
      '',
    ].join('\n'),
  );
}
