// npm run bench -- load [--db sqlite|postgres] [--duration 120] [--connections N] [--step 10] [--users 200]
// A mixed workload over the four areas against a real server process (node --import tsx
// src/server.ts), so its memory can be read from /proc/<pid>/status. First it steps the number of
// connections (2, 4, 8, ...) for --step seconds each until errors appear, p99 blows up or more
// connections bring no more requests per second; then it runs --duration seconds at the last good
// step (or at --connections N, skipping the search). Reports req/s, p50/p99 per request type and
// overall, errors, and VmRSS sampled at start, every 10 s and at end with its slope.
// PostgreSQL (--db postgres, the default when DATABASE_URL is set): a new schema in DATABASE_URL
// (default postgres://postgres@127.0.0.1:5432/test), dropped at the end.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { configWith } from '../src/config.js';
import { createDatabase } from '../src/db/index.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { insertUser } from '../src/modules/users/repository.js';
import { createToken } from '../src/modules/users/tokens.js';
import { freePort } from './lib.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Options {
  db: 'sqlite' | 'postgres';
  duration: number;
  step: number;
  connections?: number;
  users: number;
}

function parseOptions(args: string[]): Options {
  const value = (name: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  // Like the other benchmarks, DATABASE_URL set means PostgreSQL unless --db says otherwise.
  const db = value('db') ?? (process.env.DATABASE_URL ? 'postgres' : 'sqlite');
  if (db !== 'sqlite' && db !== 'postgres') throw new Error('--db must be sqlite or postgres');
  const connections = value('connections');
  return {
    db,
    duration: Number(value('duration') ?? 120),
    step: Number(value('step') ?? 10),
    connections: connections ? Number(connections) : undefined,
    users: Number(value('users') ?? 200),
  };
}

// ---------------------------------------------------------------------------------------------
// The server process and its memory

interface Server {
  child: ChildProcess;
  url: string;
  pid: number;
}

async function startServer(env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  // One process (no tsx launcher in between), so its pid is the server's.
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src', 'server.ts')], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; ) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/health`)).ok) return { child, url, pid: child.pid! };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGKILL');
  throw new Error('server did not become healthy in 120 s');
}

/** VmRSS of the process in MiB. */
function rssMiB(pid: number): number {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'))!;
  return Math.round((Number(line.split(/\s+/)[1]) / 1024) * 10) / 10;
}

/** User + system CPU seconds of the process. */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Least-squares slope of y over x. */
function slope(points: Array<[number, number]>): number {
  const n = points.length;
  const mx = points.reduce((s, p) => s + p[0], 0) / n;
  const my = points.reduce((s, p) => s + p[1], 0) / n;
  const num = points.reduce((s, p) => s + (p[0] - mx) * (p[1] - my), 0);
  const den = points.reduce((s, p) => s + (p[0] - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

// ---------------------------------------------------------------------------------------------
// Requests

const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });

interface Answer {
  status: number;
  body: string;
}

function request(
  base: string,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = http.request(
      `${base}${url}`,
      {
        method,
        agent,
        headers: {
          ...headers,
          ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error('timeout after 30 s')));
    req.on('error', reject);
    req.end(payload);
  });
}

interface Client {
  headers: Record<string, string>;
  ticketIds: number[];
  notificationIds: string[];
  conversationId?: number;
  userId: number;
}

interface World {
  clients: Client[];
  admin: Record<string, string>;
  provinceIds: number[];
  countyIds: number[];
  districtIds: number[];
  projectIds: Array<{ id: number; ownerId: number }>;
}

type Op = (base: string, world: World, c: Client, n: number) => Promise<Answer>;
const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)]!;
const PROJECT_STATUSES = ['approved', 'rejected', 'under_review', 'archived'];

/** The mix: name, share in per cent, the request. */
const MIX: Array<[string, number, Op]> = [
  [
    'geo read',
    35,
    (b, w) => {
      const r = Math.random();
      if (r < 0.3) return request(b, 'GET', '/api/provinces', {});
      if (r < 0.6) return request(b, 'GET', `/api/counties/${pick(w.provinceIds)}`, {});
      if (r < 0.8) return request(b, 'GET', `/api/geographic/section/${pick(w.districtIds)}/children`, {});
      if (r < 0.9) return request(b, 'GET', `/api/districts/${pick(w.countyIds)}`, {});
      return request(b, 'GET', '/api/geographic/continents', {});
    },
  ],
  ['notifications list', 15, (b, _w, c) => request(b, 'GET', '/api/notifications', c.headers)],
  ['ticket list', 10, (b, _w, c) => request(b, 'GET', '/api/tickets', c.headers)],
  ['ticket detail', 10, (b, _w, c) => request(b, 'GET', `/api/tickets/${pick(c.ticketIds)}`, c.headers)],
  [
    'chat',
    10,
    (b, _w, c, n) =>
      request(b, 'POST', '/api/assistant/chat', c.headers, {
        message: `How do I withdraw my investment? (${n})`,
        ...(n % 2 && c.conversationId ? { conversation_id: c.conversationId } : {}),
      }),
  ],
  ['conversation list', 5, (b, _w, c) => request(b, 'GET', '/api/assistant/conversations', c.headers)],
  [
    'ticket create',
    5,
    async (b, _w, c, n) => {
      const res = await request(b, 'POST', '/api/tickets', c.headers, {
        subject: `Load test ${n}`,
        message: `A question asked under load, number ${n}.`,
      });
      if (res.status === 201 && c.ticketIds.length < 50) c.ticketIds.push(JSON.parse(res.body).data.id);
      return res;
    },
  ],
  [
    'comment',
    3,
    (b, _w, c, n) =>
      request(b, 'POST', `/api/tickets/${pick(c.ticketIds)}/comments`, c.headers, {
        message: `A follow-up, number ${n}.`,
      }),
  ],
  ['mark read', 4, (b, _w, c) => request(b, 'POST', `/api/notifications/${pick(c.notificationIds)}`, c.headers)],
  [
    'escalate',
    1,
    (b, _w, c, n) => request(b, 'POST', '/api/assistant/escalate', c.headers, { reason: `Escalated under load ${n}` }),
  ],
  [
    'feedback',
    1,
    (b, _w, c, n) =>
      request(b, 'POST', '/api/assistant/feedback', c.headers, {
        type: 'improvement',
        subject: 'Load',
        content: `Feedback ${n}`,
        rating: 4,
      }),
  ],
  // Keeps notifications coming, so mark read and the unread list keep working on fresh rows.
  [
    'admin project status',
    1,
    (b, w, _c, n) => {
      const project = pick(w.projectIds);
      return request(b, 'PUT', `/api/admin/projects/${project.id}`, w.admin, {
        title: `Project ${project.id}`,
        owner_id: project.ownerId,
        status: PROJECT_STATUSES[n % 4],
      });
    },
  ],
];
const TOTAL_SHARE = MIX.reduce((s, m) => s + m[1], 0);

function chooseOp(): [string, Op] {
  let r = Math.random() * TOTAL_SHARE;
  for (const [name, share, op] of MIX) {
    r -= share;
    if (r < 0) return [name, op];
  }
  return [MIX[0]![0], MIX[0]![2]];
}

// ---------------------------------------------------------------------------------------------
// Setup: users and tokens straight into the database, then data through the API.

async function seed(url: string, db: ReturnType<typeof createDatabase>['db'], users: number): Promise<World> {
  const now = new Date().toISOString();
  const adminUser = await insertUser(db, {
    email: `load-admin-${randomBytes(3).toString('hex')}@example.com`,
    first_name: 'Load',
    last_name: 'Admin',
    is_admin: true,
    locale: 'en',
  });
  const admin = { authorization: `Bearer ${(await createToken(db, adminUser.id)).plaintext}` };
  const clients: Client[] = [];
  for (let i = 0; i < users; i++) {
    const user = await insertUser(db, {
      email: `load-${i}-${now.slice(11, 19)}@example.com`,
      first_name: 'Load',
      last_name: `User ${i}`,
      is_admin: false,
      locale: i % 5 === 0 ? 'fa' : 'en',
    });
    const token = (await createToken(db, user.id)).plaintext;
    // Each simulated user comes from an address of its own (TRUST_PROXY=true on the server).
    clients.push({
      headers: {
        authorization: `Bearer ${token}`,
        'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      },
      ticketIds: [],
      notificationIds: [],
      userId: user.id,
    });
  }
  const projectIds: World['projectIds'] = [];
  await Promise.all(
    clients.map(async (c, i) => {
      for (let t = 0; t < 3; t++) {
        const res = await request(url, 'POST', '/api/tickets', c.headers, {
          subject: `Seed ticket ${t}`,
          message: `Seeded before the load run, ticket ${t}.`,
        });
        c.ticketIds.push(JSON.parse(res.body).data.id);
      }
      for (let p = 0; p < 2; p++) {
        const id = 1_000_000 + i * 10 + p;
        const res = await request(url, 'PUT', `/api/admin/projects/${id}`, admin, {
          title: `Project ${id}`,
          owner_id: c.userId,
          status: 'under_review',
        });
        c.notificationIds.push(...(JSON.parse(res.body).notification_ids as string[]));
        projectIds.push({ id, ownerId: c.userId });
      }
      const chat = await request(url, 'POST', '/api/assistant/chat', c.headers, { message: 'Hello, what can you do?' });
      c.conversationId = JSON.parse(chat.body).conversation_id;
    }),
  );
  const provinces = JSON.parse((await request(url, 'GET', '/api/provinces', {})).body).data as Array<{ id: number }>;
  const provinceIds = provinces.map((p) => p.id);
  const countyIds = (
    await Promise.all(
      provinceIds
        .slice(0, 10)
        .map(
          async (id) =>
            JSON.parse((await request(url, 'GET', `/api/counties/${id}`, {})).body).data as Array<{ id: number }>,
        ),
    )
  )
    .flat()
    .map((c) => c.id);
  const districtIds = (
    await Promise.all(
      countyIds
        .slice(0, 20)
        .map(
          async (id) =>
            JSON.parse((await request(url, 'GET', `/api/districts/${id}`, {})).body).data as Array<{ id: number }>,
        ),
    )
  )
    .flat()
    .map((d) => d.id);
  if (!provinceIds.length || !countyIds.length || !districtIds.length) throw new Error('no geographic data to read');
  return { clients, admin, provinceIds, countyIds, districtIds, projectIds };
}

// ---------------------------------------------------------------------------------------------
// Running the mix

interface Stats {
  latencies: Map<string, number[]>;
  errors: Map<string, number>;
  firstErrors: string[];
  total: number;
  seconds: number;
}

async function runMix(
  server: Server,
  world: World,
  connections: number,
  seconds: number,
  onTick?: (elapsed: number) => void,
): Promise<Stats> {
  const stats: Stats = { latencies: new Map(), errors: new Map(), firstErrors: [], total: 0, seconds };
  const started = Date.now();
  const end = started + seconds * 1000;
  let counter = 0;
  const ticker = onTick ? setInterval(() => onTick((Date.now() - started) / 1000), 10_000) : undefined;
  const worker = async () => {
    while (Date.now() < end) {
      const [name, op] = chooseOp();
      const n = counter++;
      const t0 = performance.now();
      let failure: string | undefined;
      try {
        const res = await op(server.url, world, pick(world.clients), n);
        if (res.status < 200 || res.status >= 300) failure = `${name}: ${res.status} ${res.body.slice(0, 200)}`;
      } catch (error) {
        failure = `${name}: ${(error as Error).message}`;
      }
      const ms = performance.now() - t0;
      stats.total += 1;
      if (failure) {
        stats.errors.set(name, (stats.errors.get(name) ?? 0) + 1);
        if (stats.firstErrors.length < 5) stats.firstErrors.push(failure);
      } else {
        let list = stats.latencies.get(name);
        if (!list) {
          list = [];
          stats.latencies.set(name, list);
        }
        list.push(ms);
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  if (ticker) clearInterval(ticker);
  stats.seconds = (Date.now() - started) / 1000;
  return stats;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function summary(stats: Stats) {
  const all = [...stats.latencies.values()].flat().sort((a, b) => a - b);
  const errors = [...stats.errors.values()].reduce((s, n) => s + n, 0);
  return { rps: Math.round(stats.total / stats.seconds), p50: percentile(all, 50), p99: percentile(all, 99), errors };
}

const ms = (v: number) => (Number.isNaN(v) ? '-' : v < 10 ? v.toFixed(1) : Math.round(v).toString());

function table(stats: Stats): string {
  const rows = MIX.map(([name]) => {
    const list = (stats.latencies.get(name) ?? []).sort((a, b) => a - b);
    const count = list.length + (stats.errors.get(name) ?? 0);
    return `| ${name} | ${count} | ${(count / stats.seconds).toFixed(1)} | ${ms(percentile(list, 50))} | ${ms(percentile(list, 99))} | ${stats.errors.get(name) ?? 0} |`;
  });
  const s = summary(stats);
  return [
    '| request | count | req/s | p50 ms | p99 ms | errors |',
    '|---|---|---|---|---|---|',
    ...rows,
    `| **all** | ${stats.total} | ${s.rps} | ${ms(s.p50)} | ${ms(s.p99)} | ${s.errors} |`,
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------

export default async function run(args: string[]): Promise<void> {
  const options = parseOptions(args);
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-load-'));
  const pgUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
  const schema = options.db === 'postgres' ? `load_${randomBytes(5).toString('hex')}` : undefined;
  if (schema) {
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.end();
  }
  const config = configWith({ DATA_DIR: dataDir, DATABASE_URL: schema ? pgUrl : undefined, DATABASE_POOL_SIZE: 2 });
  const database = createDatabase(config, schema ? { pgSchema: schema } : {});
  await migrateToLatest(database.db);
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    RATE_LIMIT_PER_MINUTE: '0',
    TRUST_PROXY: 'true',
    ...(schema ? { DATABASE_URL: pgUrl, PGOPTIONS: `-c search_path=${schema}` } : { DATABASE_URL: '' }),
  };
  let server: Server | undefined;
  try {
    server = await startServer(env);
    const s = server;
    out(
      `# load: ${options.db}, server pid ${s.pid}, ${os.cpus().length} cores, load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    const world = await seed(s.url, database.db, options.users);
    out(`seeded ${options.users} users: 3 tickets, 2 notifications and 1 conversation each`);

    let connections = options.connections;
    if (!connections) {
      out(`\n## finding the rate: ${options.step} s per step`);
      out('| connections | req/s | p50 ms | p99 ms | errors |\n|---|---|---|---|---|');
      let best: { connections: number; rps: number; p99: number } | undefined;
      for (let c = 2; c <= 256; c *= 2) {
        const step = summary(await runMix(s, world, c, options.step));
        out(`| ${c} | ${step.rps} | ${ms(step.p50)} | ${ms(step.p99)} | ${step.errors} |`);
        const blewUp =
          step.errors > 0 || step.p99 > 1000 || (best && step.p99 > 4 * best.p99 && step.rps < 1.1 * best.rps);
        if (blewUp) break;
        if (best && step.rps < 1.05 * best.rps) break; // saturated: more connections only queue
        best = { connections: c, rps: step.rps, p99: step.p99 };
      }
      if (!best) throw new Error('even 2 connections gave errors or a p99 over 1 s');
      connections = best.connections;
      out(`\nchosen: ${connections} connections (the last step before errors, a p99 blow-up or saturation)`);
    }

    out(`\n## long run: ${connections} connections for ${options.duration} s`);
    const samples: Array<[number, number]> = [[0, rssMiB(s.pid)]];
    const cpuStart = cpuSeconds(s.pid);
    const clientCpuStart = process.cpuUsage();
    const stats = await runMix(s, world, connections, options.duration, (elapsed) =>
      samples.push([elapsed, rssMiB(s.pid)]),
    );
    // The last tick may have fired at the very end: one sample per moment.
    if (stats.seconds - samples.at(-1)![0] < 1) samples.pop();
    samples.push([stats.seconds, rssMiB(s.pid)]);
    const cpu = cpuSeconds(s.pid) - cpuStart;
    const clientCpu = process.cpuUsage(clientCpuStart);
    out(table(stats));
    if (stats.firstErrors.length) out(`first errors:\n${stats.firstErrors.map((e) => `  ${e}`).join('\n')}`);
    const half = samples.filter(([t]) => t >= stats.seconds / 2);
    out(
      `\nserver CPU: ${cpu.toFixed(1)} s over ${stats.seconds.toFixed(0)} s (${((cpu / stats.seconds) * 100).toFixed(0)} % of one core), ${((cpu / stats.total) * 1e6).toFixed(0)} µs per request`,
    );
    out(
      `load generator CPU (this process): ${((clientCpu.user + clientCpu.system) / 1e6).toFixed(1)} s (${(((clientCpu.user + clientCpu.system) / 1e6 / stats.seconds) * 100).toFixed(0)} % of one core)`,
    );
    out(`VmRSS MiB (t s: MiB): ${samples.map(([t, v]) => `${Math.round(t)}: ${v}`).join(', ')}`);
    // RSS swings with garbage collection; the lowest value of each third is the floor it returns to.
    const thirds = [0, 1, 2].map((i) =>
      samples.filter(([t]) => t >= (i * stats.seconds) / 3 && t <= ((i + 1) * stats.seconds) / 3).map(([, v]) => v),
    );
    out(
      `VmRSS per third of the run (min-max MiB): ${thirds.map((v) => (v.length ? `${Math.min(...v)}-${Math.max(...v)}` : '-')).join(', ')}`,
    );
    out(
      `VmRSS start ${samples[0]![1]} MiB, end ${samples.at(-1)![1]} MiB; slope ${(slope(samples) * 60).toFixed(1)} MiB/min overall, ${(slope(half) * 60).toFixed(1)} MiB/min over the second half`,
    );
    out(
      `load average after: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    if (server) {
      server.child.kill('SIGTERM');
      await new Promise((r) => server!.child.once('exit', r));
    }
    agent.destroy();
    await database.close();
    if (schema) {
      const client = new pg.Client({ connectionString: pgUrl });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
