// Two statement shapes the repositories of mirrored records share, on either dialect.
import type { Dialect } from './index.js';

/**
 * The select, locking its rows until the transaction ends on PostgreSQL (FOR UPDATE); SQLite
 * runs one writer at a time, so it needs no lock and has no FOR UPDATE.
 */
export function lockedOnPostgres<Query extends { forUpdate(): Query }>(query: Query, dialect: Dialect): Query {
  return dialect === 'postgres' ? query.forUpdate() : query;
}

/** Whether an `insert … on conflict do nothing returning …` wrote its row (it returns none when not). */
export async function wasInserted(insert: { executeTakeFirst(): Promise<unknown> }): Promise<boolean> {
  return (await insert.executeTakeFirst()) !== undefined;
}
