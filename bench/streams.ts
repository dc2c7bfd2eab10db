// npm run bench -- streams [--streams 10000] [--users 2000] [--events 300] [--listeners 200]
//
// 1. Memory: one instance (node dist/server.js) holds --streams open GET /api/notifications/stream
//    connections of --users users; the server's RSS is read from /proc before and after (target:
//    >= 10,000 streams, RSS growth < 250 MB).
// 2. Latency across instances: a second instance on the same database holds one stream for each
//    of --listeners users; --events project status changes go one at a time through the first
//    instance's admin API, and each is timed from the moment the API call's answer arrived to the
//    moment the notification event arrived on the other instance's stream (target: p99 < 100 ms).
//    The client's ceiling: the same client and timing against a bare node:http server that writes
//    the event to its stream before it answers the push request.
// SQLite by default (instances learn of changes by polling every NOTIFICATION_STREAM_POLL_MS);
// DATABASE_URL=postgres://… for PostgreSQL (LISTEN/NOTIFY; the run gets a new schema in it).
// The file-descriptor limit is raised to the hard limit (the bench re-runs itself under
// `ulimit -n`); each stream is one descriptor in the server and one in this process.
import { spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { createToken } from '../src/modules/users/tokens.js';
import { percentile } from '../src/core/percentile.js';
import { rssMiB } from './lib/proc.js';
import { startServerProcess, type ServerProcess } from './lib/server.js';

interface OpenStream {
  req: http.ClientRequest;
  /** Resolves with the arrival time (performance.now()) of the next notification event. */
  nextNotification(): Promise<number>;
}

/** Opens a stream and resolves once its first unread_count has arrived. */
function openStream(url: string, headers: Record<string, string>): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const arrivals: number[] = [];
    let waiting: ((at: number) => void) | undefined;
    let started = false;
    let text = '';
    const req = http.get(url, { agent: false, headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const at = performance.now();
        text += chunk;
        if (!started && text.includes('event: unread_count')) {
          started = true;
          resolve(stream);
        }
        for (let index = text.indexOf('event: notification'); index >= 0; index = text.indexOf('event: notification')) {
          text = text.slice(index + 19);
          if (waiting) {
            const wake = waiting;
            waiting = undefined;
            wake(at);
          } else arrivals.push(at);
        }
        if (text.length > 4096) text = text.slice(-64);
      });
    });
    req.on('error', reject);
    const stream: OpenStream = {
      req,
      nextNotification: () =>
        arrivals.length > 0 ? Promise.resolve(arrivals.shift()!) : new Promise((wake) => (waiting = wake)),
    };
  });
}

async function inBatches<T>(
  count: number,
  batch: number,
  make: (i: number) => Promise<T>,
  progress?: (done: number) => void,
): Promise<T[]> {
  const out: T[] = [];
  for (let start = 0; start < count; start += batch) {
    out.push(...(await Promise.all(Array.from({ length: Math.min(batch, count - start) }, (_, i) => make(start + i)))));
    progress?.(out.length);
  }
  return out;
}

async function seedUsers(server: ServerProcess, users: number): Promise<{ tokens: string[]; admin: string }> {
  const db = server.database.db;
  const at = new Date().toISOString();
  for (let start = 1; start <= users; start += 500) {
    const ids = Array.from({ length: Math.min(500, users - start + 1) }, (_, i) => start + i);
    await db
      .insertInto('users')
      .values(
        ids.map((id) => ({
          id,
          first_name: 'Bench',
          last_name: `User ${id}`,
          email: `bench-${id}@example.com`,
          is_admin: 0,
          locale: 'en',
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();
  }
  const admin = await db
    .insertInto('users')
    .values({
      id: users + 1,
      first_name: 'Bench',
      last_name: 'Admin',
      email: 'bench-admin@example.com',
      is_admin: 1,
      locale: 'en',
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const tokens = await inBatches(users, 200, async (i) => (await createToken(db, i + 1, { name: 'bench' })).plaintext);
  return { tokens, admin: (await createToken(db, admin.id, { name: 'bench' })).plaintext };
}

/** The client's ceiling: a bare server that writes the event to the user's stream, then answers the push. */
async function bareCeiling(listeners: number, events: number): Promise<number[]> {
  const streams = new Map<string, http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const user = new URL(req.url!, 'http://x').searchParams.get('user')!;
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: unread_count\ndata: {"count":0}\n\n');
      streams.set(user, res);
      return;
    }
    req.resume();
    req.on('end', () => {
      streams.get(user)?.write(`id: 1\nevent: notification\ndata: {"id":"x"}\n\n`);
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const open = await inBatches(listeners, 100, (i) => openStream(`${base}/stream?user=${i}`, {}));
  const latencies: number[] = [];
  for (let e = 0; e < events; e++) {
    const user = e % listeners;
    const arrival = open[user]!.nextNotification();
    const res = await fetch(`${base}/push?user=${user}`, { method: 'POST', body: '{}' });
    await res.text();
    const answered = performance.now();
    latencies.push((await arrival) - answered);
  }
  for (const s of open) s.req.destroy();
  server.closeAllConnections();
  server.close();
  return latencies;
}

function summary(latencies: number[]): string {
  const sorted = [...latencies].sort((a, b) => a - b);
  const f = (v: number | null) => `${(v ?? Number.NaN).toFixed(1)} ms`;
  return (
    `p50 ${f(percentile(sorted, 0.5))}, p99 ${f(percentile(sorted, 0.99))}, max ${f(sorted.at(-1)!)} ` +
    `(${sorted.length} events; negative = the event arrived before the API's answer)`
  );
}

export default async function streamsBench(args: string[]): Promise<void> {
  // Each stream is a descriptor here and in the server: run again under the hard limit.
  if (process.env.BENCH_FD_RAISED !== '1') {
    const again = spawn(
      'sh',
      [
        '-c',
        'ulimit -n "$(ulimit -Hn)" && exec "$@"',
        'sh',
        process.execPath,
        ...process.execArgv,
        process.argv[1]!,
        ...process.argv.slice(2),
      ],
      {
        stdio: 'inherit',
        env: { ...process.env, BENCH_FD_RAISED: '1' },
      },
    );
    process.exit(await new Promise<number>((resolve) => again.on('exit', (code) => resolve(code ?? 1))));
  }
  const { values } = parseArgs({
    args,
    options: {
      streams: { type: 'string', default: '10000' },
      users: { type: 'string', default: '2000' },
      events: { type: 'string', default: '300' },
      listeners: { type: 'string', default: '200' },
    },
  });
  const streamCount = Number(values.streams);
  const users = Number(values.users);
  const events = Number(values.events);
  const listeners = Math.min(Number(values.listeners), users);
  const limit = Number(spawnSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).stdout.trim());
  if (limit < streamCount + 1000)
    throw new Error(
      `the file-descriptor limit is ${limit}; ${streamCount} streams need about ${streamCount + 1000} (raise the hard limit, or pass a smaller --streams)`,
    );
  const perUser = Math.ceil(streamCount / users);

  const server = await startServerProcess({ NOTIFICATION_STREAMS_PER_USER: String(Math.max(perUser, 5)) });
  let second: ServerProcess | undefined;
  const open: OpenStream[] = [];
  try {
    const dialect = server.database.dialect;
    process.stdout.write(`${server.placement}; ${dialect}; file-descriptor limit ${limit}\n`);
    const { tokens, admin } = await seedUsers(server, users);
    // Warm up the server (JIT, pools) before the baseline.
    await inBatches(2_000, 50, (i) =>
      fetch(`${server.url}/api/notifications/unread-count`, {
        headers: { authorization: `Bearer ${tokens[i % users]}` },
      }).then((r) => r.text()),
    );
    await new Promise((r) => setTimeout(r, 1_000));
    const before = rssMiB(server.pid);
    const started = performance.now();
    open.push(
      ...(await inBatches(
        streamCount,
        250,
        (i) => openStream(`${server.url}/api/notifications/stream`, { authorization: `Bearer ${tokens[i % users]}` }),
        (done) => {
          if (done % 2_000 === 0 || done === streamCount) process.stdout.write(`  ${done} streams open\n`);
        },
      )),
    );
    const openSeconds = (performance.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, 3_000));
    const after = rssMiB(server.pid);
    const growth = after - before;
    process.stdout.write(
      `memory: ${streamCount} streams (${users} users) opened in ${openSeconds.toFixed(1)} s; server RSS ${before.toFixed(0)} MB -> ${after.toFixed(0)} MB: ` +
        `growth ${growth.toFixed(0)} MB (${((growth * 1024) / streamCount).toFixed(1)} KB per stream; target < 250 MB for >= 10,000)\n`,
    );
    for (const s of open.splice(0)) s.req.destroy();

    second = await startServerProcess({}, { besides: server });
    const listening = await inBatches(listeners, 100, (i) =>
      openStream(`${second!.url}/api/notifications/stream`, { authorization: `Bearer ${tokens[i]}` }),
    );
    open.push(...listening);
    const statuses = ['approved', 'rejected'];
    const latencies: number[] = [];
    for (let e = 0; e < events; e++) {
      const user = e % listeners;
      const arrival = listening[user]!.nextNotification();
      const res = await fetch(`${server.url}/api/admin/projects/${user + 1}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          title: `Project ${user + 1}`,
          owner_id: user + 1,
          status: statuses[Math.floor(e / listeners) % 2],
        }),
      });
      if (res.status >= 300) throw new Error(`admin API answered ${res.status}: ${await res.text()}`);
      await res.text();
      const answered = performance.now();
      latencies.push((await arrival) - answered);
    }
    const ceiling = await bareCeiling(listeners, events);
    process.stdout.write(
      `latency, admin API answer on instance 1 -> event on instance 2's stream (${dialect}): ${summary(latencies)}\n`,
    );
    process.stdout.write(`client ceiling (same client and timing, bare node:http server): ${summary(ceiling)}\n`);
    process.stdout.write('target: p99 < 100 ms\n');
  } finally {
    for (const s of open) s.req.destroy();
    await second?.close();
    await server.close();
  }
}
