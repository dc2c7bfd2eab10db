// SQL of the reports: SLA compliance by priority and by week, the rows the time report measures,
// and the volume by day or category. Every report covers the tickets created in [from, to).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { isPostgres } from '../../db/schema-helpers.js';

export interface Range {
  /** ISO timestamps; either may be absent (no bound). */
  from?: string;
  to?: string;
}

type Db = Kysely<Database>;

function inRange(db: Db, range: Range) {
  let query = db.selectFrom('tickets');
  if (range.from) query = query.where('created_at', '>=', range.from);
  if (range.to) query = query.where('created_at', '<', range.to);
  return query;
}

/** Met and breached counts of both targets at `now` (a target not yet due and not yet met counts in neither). */
function complianceColumns(now: string) {
  const count = (condition: ReturnType<typeof sql>) => sql<number>`sum(case when ${condition} then 1 else 0 end)`;
  const resolved = sql`(status = 'closed' and resolved_at is not null)`;
  return [
    count(sql`first_response_at is not null and first_response_at <= first_response_due_at`).as('fr_met'),
    count(
      sql`(first_response_at is not null and first_response_at > first_response_due_at) or (first_response_at is null and first_response_due_at < ${now})`,
    ).as('fr_breached'),
    count(sql`${resolved} and resolved_at <= sla_deadline`).as('res_met'),
    count(sql`(${resolved} and resolved_at > sla_deadline) or (not ${resolved} and sla_deadline < ${now})`).as(
      'res_breached',
    ),
  ] as const;
}

export interface ComplianceRow {
  key: string;
  fr_met: number | string;
  fr_breached: number | string;
  res_met: number | string;
  res_breached: number | string;
}

export function complianceByPriority(db: Db, range: Range, now: string): Promise<ComplianceRow[]> {
  return inRange(db, range)
    .select([sql<string>`priority`.as('key'), ...complianceColumns(now)])
    .groupBy('priority')
    .execute();
}

/** The Monday (UTC) of the week a ticket was created in, as YYYY-MM-DD. */
function weekOf(db: Db) {
  return isPostgres(db)
    ? sql<string>`to_char(date_trunc('week', created_at at time zone 'UTC'), 'YYYY-MM-DD')`
    : sql<string>`date(created_at, '-6 days', 'weekday 1')`;
}

export function complianceByWeek(db: Db, range: Range, now: string): Promise<ComplianceRow[]> {
  const week = weekOf(db);
  return inRange(db, range)
    .select([week.as('key'), ...complianceColumns(now)])
    .groupBy(week)
    .orderBy(week)
    .execute();
}

export interface TimedRow {
  priority: string;
  created_at: string;
  first_response_at: string | null;
  resolved_at: string | null;
}

/** The measured moments of the tickets in range, a batch after `afterId` at a time (id order). */
export function timedBatch(db: Db, range: Range, afterId: number, size: number) {
  return inRange(db, range)
    .select(['id', 'priority', 'created_at', 'first_response_at', 'resolved_at'])
    .where('id', '>', afterId)
    .where((eb) => eb.or([eb('first_response_at', 'is not', null), eb('resolved_at', 'is not', null)]))
    .orderBy('id')
    .limit(size)
    .execute();
}

function dayOf(db: Db) {
  return isPostgres(db)
    ? sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')`
    : sql<string>`substr(created_at, 1, 10)`;
}

export async function volume(db: Db, range: Range, by: 'day' | 'category') {
  const key = by === 'day' ? dayOf(db) : sql<string | null>`category`;
  const rows = await inRange(db, range)
    .select([key.as('key'), (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy(key)
    .orderBy(by === 'day' ? key : sql`count(*)`, by === 'day' ? 'asc' : 'desc')
    .orderBy(key)
    .execute();
  return rows.map((r) => ({ key: r.key, count: Number(r.count) }));
}
