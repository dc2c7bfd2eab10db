// Operators' corrections to the SLA holiday calendar (holiday:add / holiday:remove): one row per
// local day, keyed by its Gregorian date "YYYY-MM-DD". working = 0 makes the day a holiday,
// working = 1 makes a built-in holiday a working day. Plain text columns on both databases.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sla_holidays')
    .addColumn('day', 'varchar(10)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(255)')
    .addColumn('working', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sla_holidays').execute();
}
