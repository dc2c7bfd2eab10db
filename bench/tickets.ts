// npm run bench -- tickets [--duration S] [--rounds R] [--warmup S] [--connections N] [--cache-mb N]
// Fills tickets over 1,000 users (10,000 first, then 100,000 in total) and measures at 32
// connections: the list (default page and with q), one ticket, and the stats, all as one user
// who owns about 1/1,000 of the tickets. DATABASE_URL set = PostgreSQL, else SQLite. --cache-mb
// sets the server's TICKETS_CACHE_MB (default 16); 0 makes every list request read the database.
import { parseArgs } from 'node:util';
import type { Kysely } from 'kysely';
import type { Database } from '../src/db/schema.js';
import { createToken } from '../src/modules/users/tokens.js';
import { slaDeadlineFor, firstResponseDeadlineFor } from '../src/modules/tickets/sla.js';
import { newTrackingCode } from '../src/modules/tickets/service.js';
import {
  CASE_ARGS,
  caseOptions,
  ensureWrk,
  measureCase,
  printSummary,
  startCeiling,
  type CaseResult,
} from './lib/wrk.js';
import { startServerProcess } from './lib/server.js';

const USERS = 1_000;
const WORDS = [
  'withdrawal',
  'payment',
  'login',
  'invoice',
  'project',
  'investment',
  'refund',
  'profile',
  'verification',
  'تراکنش',
  'برداشت',
  'ورود',
];
const STATUSES = ['open', 'in-progress', 'closed'] as const;
const PRIORITIES = ['low', 'normal', 'high'] as const;

async function insertUsers(db: Kysely<Database>): Promise<Array<{ id: number; email: string }>> {
  const now = new Date().toISOString();
  const rows = Array.from({ length: USERS }, (_, i) => ({
    email: `bench-${i}@example.com`,
    first_name: 'Bench',
    last_name: `User ${i}`,
    is_admin: 0,
    locale: 'en',
    created_at: now,
    updated_at: now,
  }));
  const users: Array<{ id: number; email: string }> = [];
  for (let i = 0; i < rows.length; i += 500)
    users.push(
      ...(await db
        .insertInto('users')
        .values(rows.slice(i, i + 500))
        .returning(['id', 'email'])
        .execute()),
    );
  return users;
}

/** Multi-row inserts of 500 inside one transaction per 10,000 rows. */
async function insertTickets(
  db: Kysely<Database>,
  users: Array<{ id: number; email: string }>,
  from: number,
  to: number,
): Promise<void> {
  const yearMs = 365 * 86_400_000;
  const start = Date.now() - yearMs;
  for (let chunk = from; chunk < to; chunk += 10_000) {
    await db.transaction().execute(async (trx) => {
      for (let i = chunk; i < Math.min(chunk + 10_000, to); i += 500) {
        const rows = [];
        for (let n = i; n < Math.min(i + 500, to); n++) {
          const user = users[n % users.length]!;
          const priority = PRIORITIES[n % 3]!;
          const status = STATUSES[(n >> 2) % 3]!;
          const created = new Date(start + Math.floor((n / to) * yearMs) + (n % 1000)).toISOString();
          const word = WORDS[n % WORDS.length]!;
          rows.push({
            tracking_code: `${newTrackingCode().slice(0, 3)}${n.toString(36).toUpperCase().padStart(8, '0')}`,
            user_id: user.id,
            email: user.email,
            subject: `Question about ${word} #${n}`,
            message: `Hello, I have a problem with my ${word}. Reference ${n}. Please help me sort it out.`,
            status,
            priority,
            category: n % 5 === 0 ? 'billing' : null,
            source: 'api',
            assignee_id: null,
            sla_deadline: slaDeadlineFor(priority, created),
            first_response_due_at: firstResponseDeadlineFor(priority, created),
            first_response_at: null,
            resolved_at: status === 'closed' ? created : null,
            created_at: created,
            updated_at: created,
          });
        }
        await trx.insertInto('tickets').values(rows).execute();
      }
    });
  }
}

export default async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { ...CASE_ARGS, 'cache-mb': { type: 'string', default: '16' } } });
  const options = caseOptions(values);
  const cacheMb = values['cache-mb'];
  if (!/^\d+$/.test(cacheMb)) throw new Error('--cache-mb must be a whole number');
  ensureWrk();
  const server = await startServerProcess({ TICKETS_CACHE_MB: cacheMb });
  const ceiling = await startCeiling();
  process.stdout.write(`${server.placement}; ${server.database.dialect}; TICKETS_CACHE_MB=${cacheMb}\n`);
  const db = server.database.db;
  try {
    const users = await insertUsers(db);
    const caller = users[0]!;
    const token = (await createToken(db, caller.id)).plaintext;
    const headers = { authorization: `Bearer ${token}` };
    const measure = (name: string, path: string) => measureCase(name, server, ceiling, { path, headers }, options);

    let t0 = Date.now();
    await insertTickets(db, users, 0, 10_000);
    process.stderr.write(`inserted 10,000 tickets in ${Date.now() - t0} ms (${server.database.dialect})\n`);
    const results: CaseResult[] = [await measure('GET /api/tickets (10k tickets)', '/api/tickets')];

    t0 = Date.now();
    await insertTickets(db, users, 10_000, 100_000);
    process.stderr.write(`inserted 90,000 more tickets in ${Date.now() - t0} ms\n`);
    if (server.database.dialect === 'postgres')
      await db
        .executeQuery({ sql: 'analyze', parameters: [], query: { kind: 'RawNode' } } as never)
        .catch(() => undefined);
    const own = await db
      .selectFrom('tickets')
      .select('id')
      .where('user_id', '=', caller.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    results.push(
      await measure('GET /api/tickets (100k tickets)', '/api/tickets'),
      await measure('GET /api/tickets?q=withdrawal (100k)', '/api/tickets?q=withdrawal'),
      await measure(`GET /api/tickets/{id} (100k)`, `/api/tickets/${own.id}`),
      await measure('GET /api/tickets/stats (100k)', '/api/tickets/stats'),
    );
    printSummary(
      `tickets (${server.database.dialect}, 100k tickets, the caller owns 1/1,000)`,
      results,
      'Targets: p99 < 20 ms on every case. wrk -t1; the ceiling is a bare node:http server replaying the answer.',
    );
  } finally {
    await ceiling.close();
    await server.close();
  }
}
