// The SQL of the SLA holiday corrections (the sla_holidays table): read by the SLA clock and the
// operators' holiday commands, written by the commands only.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

type Db = Kysely<Database>;

/** A day whose built-in answer is corrected: working 0 makes it a holiday, 1 a working day. */
export interface HolidayOverride {
  day: string;
  name: string | null;
  working: number;
}

/** Every correction: days made holidays (working 0) and built-in holidays worked (working 1). */
export function holidayOverrides(db: Db): Promise<HolidayOverride[]> {
  return db.selectFrom('sla_holidays').select(['day', 'name', 'working']).execute();
}

/** The correction of one day (YYYY-MM-DD), if any. */
export function holidayOverrideOn(db: Db, day: string) {
  return db.selectFrom('sla_holidays').selectAll().where('day', '=', day).executeTakeFirst();
}

/** Replaces the correction of a day in one transaction: none when `override` is null. */
export async function replaceHolidayOverride(
  db: Db,
  day: string,
  override: { name: string | null; working: 0 | 1; created_at: string } | null,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('sla_holidays').where('day', '=', day).execute();
    if (override)
      await trx
        .insertInto('sla_holidays')
        .values({ day, ...override })
        .execute();
  });
}
