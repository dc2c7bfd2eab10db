// npm run bench -- notifications [--count 1000000] [--users 10000] [--duration 10] [--cache-mb 16]
//
// 1. Generates --count notifications over --users users (one "target" user gets 2,000 of them,
//    50 unread; the others' are 90 % read), with batched multi-row inserts in transactions.
// 2. GET /api/notifications as the target user at 32 connections (goal: p99 < 10 ms on SQLite).
//    The server reuses the answer while the user's notifications are unchanged; --cache-mb 0
//    turns that off, so every request reads the list from the database.
// 3. Creating notifications through the admin integration API: PUT /api/admin/investments/{id}
//    with status paid (two notifications per request; goal: >= 1,000 notifications per second).
// SQLite by default; set DATABASE_URL=postgres://... to run on PostgreSQL.
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../src/db/schema.js';
import { NotificationBuilder, type PendingNotification } from '../src/modules/notifications/events.js';
import { createToken } from '../src/modules/users/tokens.js';
import { load, report, startServerProcess, type ServerProcess } from './lib.js';

const TARGET_TOTAL = 2_000;
const TARGET_UNREAD = 50;
const BATCH = 500;

interface Row {
  id: string;
  user_id: number;
  type: string;
  data: string;
  read_at: string | null;
  created_at: string;
}

/** A deterministic pseudo-random sequence, so runs generate the same data. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

function* notificationRows(count: number, users: number): Generator<Row> {
  const random = prng(42);
  const builder = new NotificationBuilder('https://app.example.com');
  const now = Date.now();
  const year = 365 * 86_400_000;
  const targetUnread = new Set<number>();
  while (targetUnread.size < TARGET_UNREAD) targetUnread.add(Math.floor(random() * TARGET_TOTAL));
  for (let i = 0; i < count; i++) {
    // The first TARGET_TOTAL rows belong to user 1; the rest spread over users 2..users.
    const isTarget = i < TARGET_TOTAL;
    const userId = isTarget ? 1 : 2 + (i % (users - 1));
    const createdAt = new Date(now - Math.floor(random() * year));
    const read = isTarget ? !targetUnread.has(i) : random() < 0.9;
    const pending: PendingNotification = builder.projectStatusChanged({ id: userId, locale: 'en' }, { id: 1 + (i % 5_000), title: `Project ${i % 5_000}` }, 'approved', null);
    yield {
      id: randomUUID(),
      user_id: userId,
      type: pending.type,
      data: JSON.stringify(pending.data),
      read_at: read ? new Date(createdAt.getTime() + 3_600_000).toISOString() : null,
      created_at: createdAt.toISOString(),
    };
  }
}

function userRow(id: number) {
  const at = new Date().toISOString();
  return { id, first_name: 'Bench', last_name: `User ${id}`, email: `bench-${id}@example.com`, is_admin: 0, locale: 'en', created_at: at, updated_at: at };
}

/** SQLite: one prepared multi-row statement, one transaction per 100 batches, on its own connection. */
function generateSqlite(file: string, count: number, users: number): void {
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = OFF');
  const insertUser = sqlite.prepare(
    'insert into users (id, first_name, last_name, email, is_admin, locale, created_at, updated_at) values (@id, @first_name, @last_name, @email, @is_admin, @locale, @created_at, @updated_at)',
  );
  sqlite.transaction(() => {
    for (let id = 1; id <= users; id++) insertUser.run(userRow(id));
  })();
  const placeholders = Array.from({ length: BATCH }, () => '(?, ?, ?, ?, ?, ?)').join(', ');
  const insertBatch = sqlite.prepare(`insert into notifications (id, user_id, type, data, read_at, created_at) values ${placeholders}`);
  const insertOne = sqlite.prepare('insert into notifications (id, user_id, type, data, read_at, created_at) values (?, ?, ?, ?, ?, ?)');
  const flush = sqlite.transaction((rows: Row[]) => {
    for (let start = 0; start + BATCH <= rows.length; start += BATCH) {
      insertBatch.run(rows.slice(start, start + BATCH).flatMap((r) => [r.id, r.user_id, r.type, r.data, r.read_at, r.created_at]));
    }
    for (const r of rows.slice(rows.length - (rows.length % BATCH))) insertOne.run(r.id, r.user_id, r.type, r.data, r.read_at, r.created_at);
  });
  let rows: Row[] = [];
  for (const row of notificationRows(count, users)) {
    rows.push(row);
    if (rows.length === BATCH * 100) {
      flush(rows);
      rows = [];
    }
  }
  flush(rows);
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  // No ANALYZE: better-sqlite3 is built with STAT4, and once sqlite_stat4 holds samples for an
  // index, every statement whose WHERE binds a parameter on it is compiled again on each run
  // (measured: the unread list's statement took 90 instead of 50 µs). The indexes need no
  // statistics to be chosen; docs/performance.md has the figures.
  sqlite.close();
}

/** PostgreSQL: multi-row inserts of BATCH rows through Kysely, a transaction per 100 batches. */
async function generatePostgres(db: Kysely<Database>, count: number, users: number): Promise<void> {
  for (let start = 1; start <= users; start += BATCH) {
    const ids = Array.from({ length: Math.min(BATCH, users - start + 1) }, (_, i) => start + i);
    await db.insertInto('users').values(ids.map(userRow)).execute();
  }
  await sql`select setval(pg_get_serial_sequence('users', 'id'), (select max(id) from users))`.execute(db);
  const rows = notificationRows(count, users);
  let done = false;
  while (!done) {
    await db.transaction().execute(async (trx) => {
      for (let b = 0; b < 100 && !done; b++) {
        const batch: Row[] = [];
        for (let i = 0; i < BATCH; i++) {
          const next = rows.next();
          if (next.done) {
            done = true;
            break;
          }
          batch.push(next.value);
        }
        if (batch.length) await trx.insertInto('notifications').values(batch).execute();
      }
    });
  }
  await sql`analyze`.execute(db);
}

async function measureList(server: ServerProcess, duration: number, count: number) {
  const token = await createToken(server.database.db, 1, { name: 'bench' });
  const headers = { authorization: `Bearer ${token.plaintext}` };
  const check = await fetch(`${server.url}/api/notifications`, { headers });
  const list = (await check.json()) as unknown[];
  if (check.status !== 200 || list.length !== TARGET_UNREAD) throw new Error(`expected ${TARGET_UNREAD} unread, got ${check.status} with ${list.length}`);
  return [
    await load(`GET /api/notifications (50 unread of 2,000; ${count.toLocaleString('en-US')} rows)`, { url: `${server.url}/api/notifications`, headers, duration }),
    await load('GET /api/notifications/unread-count', { url: `${server.url}/api/notifications/unread-count`, headers, duration }),
  ];
}

async function measureCreation(server: ServerProcess, duration: number) {
  const db = server.database.db;
  const admin = await db.insertInto('users').values({ ...userRow(0), id: undefined, email: 'bench-admin@example.com', is_admin: 1 } as never).returning('id').executeTakeFirstOrThrow();
  const token = await createToken(db, admin.id, { name: 'bench' });
  const at = new Date().toISOString();
  await db.insertInto('projects').values({ id: 1, owner_id: 2, title: 'Bench project', status: 'approved', created_at: at, updated_at: at }).execute();
  const before = Number((await db.selectFrom('notifications').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  let nextId = 0;
  const body = JSON.stringify({ project_id: 1, investor_id: 3, amount: 1_000_000, status: 'paid' });
  const result = await load('PUT /api/admin/investments/{id} status paid (2 notifications each)', {
    url: server.url,
    duration,
    requests: [
      {
        method: 'PUT',
        headers: { authorization: `Bearer ${token.plaintext}`, 'content-type': 'application/json' },
        body,
        setupRequest: (req) => ({ ...req, path: `/api/admin/investments/${++nextId}` }),
      },
    ],
  }, 0);
  const after = Number((await db.selectFrom('notifications').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return { result, created: after - before };
}

export default async function notificationsBench(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      count: { type: 'string', default: '1000000' },
      users: { type: 'string', default: '10000' },
      duration: { type: 'string', default: '10' },
      'cache-mb': { type: 'string', default: '16' },
    },
  });
  const count = Number(values.count);
  const users = Number(values.users);
  const duration = Number(values.duration);
  if (!(count >= TARGET_TOTAL) || !(users >= 3) || !(duration > 0)) throw new Error(`--count must be >= ${TARGET_TOTAL}, --users >= 3, --duration > 0`);

  const cacheMb = values['cache-mb'];
  const server = await startServerProcess({ NOTIFICATIONS_CACHE_MB: cacheMb });
  process.stdout.write(`${server.placement}; NOTIFICATIONS_CACHE_MB=${cacheMb}\n`);
  try {
    const dialect = server.database.dialect;
    const started = performance.now();
    if (dialect === 'sqlite') generateSqlite(server.database.sqliteFile!, count, users);
    else await generatePostgres(server.database.db, count, users);
    const seconds = (performance.now() - started) / 1000;
    process.stdout.write(`${dialect}: generated ${count.toLocaleString('en-US')} notifications over ${users.toLocaleString('en-US')} users in ${seconds.toFixed(1)} s (${Math.round(count / seconds).toLocaleString('en-US')} rows/s)\n`);

    const listResults = await measureList(server, duration, count);
    const creation = await measureCreation(server, duration);
    report([...listResults, creation.result]);
    const perSecond = Math.round(creation.created / duration);
    process.stdout.write(`notifications created through the integration API: ${creation.created} in ${duration} s = ${perSecond}/s (goal >= 1000/s)\n`);
    process.stdout.write(`GET /api/notifications p99 ${listResults[0]!.p99} ms (goal < 10 ms on SQLite)\n`);
  } finally {
    await server.close();
  }
}
