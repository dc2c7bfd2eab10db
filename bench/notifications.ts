// npm run bench -- notifications [--count 1000000] [--users 10000] [--duration 10] [--rounds 3] [--warmup 3] [--cache-mb 16]
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
import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database } from '../src/db/schema.js';
import { pendingDataText } from '../src/modules/notifications/data-text.js';
import { NotificationBuilder, type PendingNotification } from '../src/modules/notifications/events.js';
import type { NotificationsTable } from '../src/modules/notifications/tables.js';
import { createToken } from '../src/modules/users/tokens.js';
import {
  CASE_ARGS,
  caseOptions,
  ensureWrk,
  measureCase,
  printSummary,
  startCeiling,
  type CaseOptions,
  type Ceiling,
} from './lib/wrk.js';
import { startServerProcess, type ServerProcess } from './lib/server.js';

const TARGET_TOTAL = 2_000;
const TARGET_UNREAD = 50;
const BATCH = 500;

/** A notifications row as the server itself writes it (data as data-text.ts stores it). */
type Row = Insertable<NotificationsTable>;

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
    const pending: PendingNotification = builder.projectStatusChanged(
      { id: userId, locale: 'en' },
      { id: 1 + (i % 5_000), title: `Project ${i % 5_000}` },
      'approved',
      null,
    );
    yield {
      id: randomUUID(),
      user_id: userId,
      type: pending.type,
      data: pendingDataText(pending),
      read_at: read ? new Date(createdAt.getTime() + 3_600_000).toISOString() : null,
      created_at: createdAt.toISOString(),
    };
  }
}

function userRow(id: number) {
  const at = new Date().toISOString();
  return {
    id,
    first_name: 'Bench',
    last_name: `User ${id}`,
    email: `bench-${id}@example.com`,
    is_admin: 0,
    locale: 'en',
    created_at: at,
    updated_at: at,
  };
}

/** SQLite: one prepared multi-row statement, one transaction per 100 batches, on its own connection. */
function generateSqlite(file: string, count: number, users: number): void {
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = OFF');
  const insertUser = sqlite.prepare(
    'insert into users (id, first_name, last_name, email, is_admin, locale, created_at, updated_at) values ' +
      '(@id, @first_name, @last_name, @email, @is_admin, @locale, @created_at, @updated_at)',
  );
  sqlite.transaction(() => {
    for (let id = 1; id <= users; id++) insertUser.run(userRow(id));
  })();
  const placeholders = Array.from({ length: BATCH }, () => '(?, ?, ?, ?, ?, ?)').join(', ');
  const insertBatch = sqlite.prepare(
    `insert into notifications (id, user_id, type, data, read_at, created_at) values ${placeholders}`,
  );
  const insertOne = sqlite.prepare(
    'insert into notifications (id, user_id, type, data, read_at, created_at) values (?, ?, ?, ?, ?, ?)',
  );
  const flush = sqlite.transaction((rows: Row[]) => {
    for (let start = 0; start + BATCH <= rows.length; start += BATCH) {
      insertBatch.run(
        rows.slice(start, start + BATCH).flatMap((r) => [r.id, r.user_id, r.type, r.data, r.read_at, r.created_at]),
      );
    }
    for (const r of rows.slice(rows.length - (rows.length % BATCH)))
      insertOne.run(r.id, r.user_id, r.type, r.data, r.read_at, r.created_at);
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
  // (slower by the recompilation). The indexes need no statistics to be chosen;
  // docs/performance.md has the figures.
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

async function measureList(server: ServerProcess, ceiling: Ceiling, options: CaseOptions, count: number) {
  const token = await createToken(server.database.db, 1, { name: 'bench' });
  const headers = { authorization: `Bearer ${token.plaintext}` };
  const check = await fetch(`${server.url}/api/notifications`, { headers });
  const list = (await check.json()) as unknown[];
  if (check.status !== 200 || list.length !== TARGET_UNREAD)
    throw new Error(`expected ${TARGET_UNREAD} unread, got ${check.status} with ${list.length}`);
  return [
    await measureCase(
      `GET /api/notifications (50 unread of 2,000; ${count.toLocaleString('en-US')} rows)`,
      server,
      ceiling,
      { path: '/api/notifications', headers },
      options,
    ),
    await measureCase(
      'GET /api/notifications/unread-count',
      server,
      ceiling,
      { path: '/api/notifications/unread-count', headers },
      options,
    ),
  ];
}

async function measureCreation(server: ServerProcess, ceiling: Ceiling, options: CaseOptions) {
  const db = server.database.db;
  const admin = await db
    .insertInto('users')
    .values({ ...userRow(0), id: undefined, email: 'bench-admin@example.com', is_admin: 1 } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  const token = await createToken(db, admin.id, { name: 'bench' });
  const at = new Date().toISOString();
  await db
    .insertInto('projects')
    .values({ id: 1, owner_id: 2, title: 'Bench project', status: 'approved', created_at: at, updated_at: at })
    .execute();
  const before = Number(
    (
      await db
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const body = JSON.stringify({ project_id: 1, investor_id: 3, amount: 1_000_000, status: 'paid' });
  // A new investment id per request, in Lua: each wrk run starts at (seconds since the epoch mod
  // 100,000) x 10,000, so runs at least a second apart never reuse an id (< 10,000 requests/s).
  const lua = `local n = (os.time() % 100000) * 10000\nrequest = function()\n  n = n + 1\n  return wrk.format(nil, "/api/admin/investments/" .. n)\nend`;
  const result = await measureCase(
    'PUT /api/admin/investments/{id} status paid (2 notifications each)',
    server,
    ceiling,
    {
      method: 'PUT',
      path: '/api/admin/investments/1',
      headers: { authorization: `Bearer ${token.plaintext}`, 'content-type': 'application/json' },
      body,
      lua,
    },
    { ...options, warmup: 0 },
  );
  const after = Number(
    (
      await db
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  return { result, created: after - before, seconds: options.rounds * options.duration };
}

export default async function notificationsBench(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      count: { type: 'string', default: '1000000' },
      users: { type: 'string', default: '10000' },
      ...CASE_ARGS,
      'cache-mb': { type: 'string', default: '16' },
    },
  });
  const count = Number(values.count);
  const users = Number(values.users);
  const options = caseOptions(values);
  if (!(count >= TARGET_TOTAL) || !(users >= 3)) throw new Error(`--count must be >= ${TARGET_TOTAL}, --users >= 3`);
  ensureWrk();

  const cacheMb = values['cache-mb'];
  const server = await startServerProcess({ NOTIFICATIONS_CACHE_MB: cacheMb });
  const ceiling = await startCeiling();
  process.stdout.write(`${server.placement}; NOTIFICATIONS_CACHE_MB=${cacheMb}\n`);
  try {
    const dialect = server.database.dialect;
    const started = performance.now();
    if (dialect === 'sqlite') generateSqlite(server.database.sqliteFile!, count, users);
    else await generatePostgres(server.database.db, count, users);
    const seconds = (performance.now() - started) / 1000;
    process.stdout.write(
      `${dialect}: generated ${count.toLocaleString('en-US')} notifications over ` +
        `${users.toLocaleString('en-US')} users in ${seconds.toFixed(1)} s (${Math.round(count / seconds).toLocaleString('en-US')} rows/s)\n`,
    );

    const listResults = await measureList(server, ceiling, options, count);
    const creation = await measureCreation(server, ceiling, options);
    printSummary(
      `notifications (${dialect})`,
      [...listResults, creation.result],
      'Targets: list p99 < 10 ms; >= 1,000 notifications created per second. wrk -t1 (the PUT rotates ids in Lua); the ceiling is a bare node:http server replaying the answer.',
    );
    const perSecond = Math.round(creation.created / creation.seconds);
    process.stdout.write(
      `notifications created through the integration API: ${creation.created} in ${creation.seconds} s of service rounds = ${perSecond}/s (goal >= 1000/s)\n`,
    );
    process.stdout.write(
      `GET /api/notifications p99 per round ${listResults[0]!.rounds.map((r) => r.p99).join(' / ')} ms (goal < 10 ms)\n`,
    );
  } finally {
    await ceiling.close();
    await server.close();
  }
}
