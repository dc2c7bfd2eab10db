// The staff queue at 100,000 tickets: seeds a scratch database (SQLite, or PostgreSQL with
// --postgres URL) behind the service, then times each view's first page, the views' counts and a
// filtered page, and prints the query plans of the ordered views.
//   npm run bench -- staff-queue [--postgres postgres://postgres@127.0.0.1:5432/test] [--tickets 100000]
import { sql } from 'kysely';
import { scratchDatabase } from '../harness/database.js';
import { makeUser } from '../harness/users.js';
import {
  filtered,
  NEXT_DUE,
  queueCount,
  queuePage,
  viewCounts,
  VIEW_NAMES,
} from '../src/modules/console/queue-query.js';
import { isPostgres } from '../src/db/schema-helpers.js';

export default async function run(args: string[]): Promise<void> {
  const pgAt = args.indexOf('--postgres');
  const url = pgAt >= 0 ? args[pgAt + 1] : undefined;
  const countAt = args.indexOf('--tickets');
  const total = countAt >= 0 ? Number(args[countAt + 1]) : 100_000;
  const scratch = await scratchDatabase({ dialect: url ? 'postgres' : 'sqlite', url, label: 'staffqueue' });
  const db = scratch.db;
  try {
    const staff = await makeUser(db, { admin: true });
    const hour = 3_600_000;
    const start = Date.now() - 200 * 24 * hour;
    const statuses = ['open', 'in-progress', 'closed', 'closed', 'closed'] as const;
    const priorities = ['low', 'normal', 'high'] as const;
    for (let i = 0; i < total; i += 1_000) {
      const rows = Array.from({ length: Math.min(1_000, total - i) }, (_, j) => {
        const n = i + j;
        const created = start + n * ((200 * 24 * hour) / total);
        const status = statuses[n % 5]!;
        const iso = (ms: number) => new Date(ms).toISOString();
        return {
          tracking_code: `TK-${String(n).padStart(8, '0')}`,
          user_id: null,
          email: `member${n % 5000}@example.com`,
          subject: `Subject ${n} about ${n % 7 === 0 ? 'refund' : 'account'}`,
          message: `Message ${n}: the member wrote this.`,
          status,
          priority: priorities[n % 3]!,
          category: n % 4 === 0 ? 'payments' : 'account',
          source: 'api',
          assignee_id: n % 10 === 0 ? staff.id : null,
          sla_deadline: iso(created + 24 * hour),
          first_response_due_at: iso(created + 4 * hour),
          first_response_at: n % 3 === 0 ? iso(created + hour) : null,
          resolved_at: status === 'closed' ? iso(created + 20 * hour) : null,
          created_at: iso(created),
          updated_at: iso(created + hour),
        };
      });
      await db.insertInto('tickets').values(rows).execute();
    }
    if (isPostgres(db)) await sql`vacuum analyze tickets`.execute(db);
    else await sql`analyze`.execute(db);
    const context = { me: staff.id, nowMs: Date.now() };
    const time = async (label: string, fn: () => Promise<unknown>) => {
      await fn();
      const runs = 5;
      const began = performance.now();
      for (let i = 0; i < runs; i++) await fn();
      console.log(`${label}: ${((performance.now() - began) / runs).toFixed(1)} ms`);
    };
    console.log(`${isPostgres(db) ? 'PostgreSQL' : 'SQLite'}, ${total} tickets`);
    for (const view of VIEW_NAMES)
      await time(`view ${view}, first page by next deadline`, () => queuePage(db, { view }, context, 'sla', 15, 0));
    for (const view of VIEW_NAMES) await time(`view ${view}, count`, () => queueCount(db, { view }, context));
    await time('views counts (one statement)', () => viewCounts(db, context));
    await time('q=refund, first page', () => queuePage(db, { q: 'refund' }, context, 'created_at', 15, 0));
    const plan = filtered(db, { view: 'open' }, context, true)
      .select('tickets.id')
      .orderBy(NEXT_DUE)
      .orderBy('tickets.id')
      .limit(15)
      .compile();
    const explain = isPostgres(db) ? 'explain ' : 'explain query plan ';
    const rows = await sql
      .raw(
        explain +
          plan.sql.replace(/\$(\d+)|\?/g, (_m, n) => {
            const value = plan.parameters[n ? Number(n) - 1 : 0];
            return typeof value === 'number' ? String(value) : `'${String(value)}'`;
          }),
      )
      .execute(db);
    console.log('plan of view open by next deadline:');
    for (const r of rows.rows as Array<Record<string, unknown>>) console.log(`  ${Object.values(r).join(' | ')}`);
  } finally {
    await scratch.destroy();
  }
}
