// The SLA status of a ticket (sla.ts's slaStatusOf) as a SQL condition, with the same
// comparisons, for the staff list's sla_status filter on both dialects.
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../../db/schema.js';
import { isPostgres } from '../../db/schema-helpers.js';
import { SLA_HOURS, type SlaStatus } from './sla.js';

/** sla_status's words, and for one release the deprecated words of sla.status (docs/decisions.md). */
export type SlaFilter = SlaStatus | 'on_track' | 'at_risk' | 'breached';

/** A timestamp column as epoch milliseconds, exactly (ISO text on SQLite, timestamptz on PostgreSQL). */
function epochMs(db: Kysely<Database>, column: 'created_at' | 'sla_deadline') {
  const ref = sql.ref(`tickets.${column}`);
  return isPostgres(db)
    ? sql<number>`(extract(epoch from ${ref}) * 1000)`
    : sql<number>`(cast(strftime('%s', ${ref}) as integer) * 1000 + cast(substr(${ref}, 21, 3) as integer))`;
}

/**
 * An open ticket (not closed) whose status is warning or overdue at `nowMs`, in one comparison per
 * row where the ticket is overdue: deadline < now, or deadline - now < (deadline - created) / 4,
 * which is 3·deadline + created < 4·now in whole milliseconds (exact, no fraction). Equal to
 * slaCondition('warning') or slaCondition('overdue') on tickets that are not closed.
 */
export function openAtRiskCondition(db: Kysely<Database>, nowMs: number) {
  const parts = 1 / SLA_HOURS.warningShare;
  if (!Number.isInteger(parts))
    return sql<SqlBool>`(${slaCondition(db, 'overdue', nowMs)} or ${slaCondition(db, 'warning', nowMs)})`;
  const deadline = epochMs(db, 'sla_deadline');
  return sql<SqlBool>`(${deadline} < ${nowMs} or ${deadline} * ${sql.lit(parts - 1)} + ${epochMs(db, 'created_at')} < ${parts * nowMs})`;
}

/** slaStatusOf (sla.ts) in SQL, with the same comparisons, at `nowMs`. */
export function slaCondition(db: Kysely<Database>, status: SlaFilter, nowMs: number) {
  const done = sql<SqlBool>`(tickets.status = 'closed' and tickets.resolved_at is not null)`;
  const deadline = epochMs(db, 'sla_deadline');
  const left = sql`(${deadline} - ${nowMs})`;
  const warnBelow = sql`((${deadline} - ${epochMs(db, 'created_at')}) * ${sql.lit(SLA_HOURS.warningShare)})`;
  const missed = sql<SqlBool>`(${done} and tickets.resolved_at > tickets.sla_deadline)`;
  const overdue = sql<SqlBool>`(not ${done} and ${deadline} < ${nowMs})`;
  switch (status) {
    case 'met':
      return sql<SqlBool>`(${done} and tickets.resolved_at <= tickets.sla_deadline)`;
    case 'missed':
      return missed;
    case 'overdue':
      return overdue;
    case 'breached':
      return sql<SqlBool>`(${missed} or ${overdue})`;
    case 'warning':
    case 'at_risk':
      return sql<SqlBool>`(not ${done} and ${deadline} >= ${nowMs} and ${left} < ${warnBelow})`;
    case 'on_time':
    case 'on_track':
      return sql<SqlBool>`(not ${done} and ${deadline} >= ${nowMs} and ${left} >= ${warnBelow})`;
  }
}
