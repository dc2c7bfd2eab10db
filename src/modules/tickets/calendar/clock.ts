// The SLA clock in force (SLA_CLOCK, SLA_TIMEZONE, SLA_BUSINESS_HOURS, SLA_HOLIDAYS) with the
// operators' holiday corrections from the sla_holidays table. The corrections are read again when
// more than REFRESH_MS old, so every instance sees a change made by any other (or by the CLI)
// within 30 s.
import type { Kysely } from 'kysely';
import type { Config } from '../../../config.js';
import type { Database } from '../../../db/schema.js';
import { holidayOverrides, type HolidayOverride } from '../holiday-query.js';
import { isoDate } from './dates.js';
import { iranHolidaysOn } from './holidays.js';
import { parseSchedule } from '../../../core/working-week.js';
import { addWorkingTime, type WorkCalendar } from './working-time.js';

export const REFRESH_MS = 30_000;

export class SlaClock implements WorkCalendar {
  readonly kind: 'calendar' | 'business';
  readonly timeZone: string;
  readonly week;
  private readonly builtIn: boolean;
  private readonly builtInCache = new Map<number, boolean>();
  private overrides = new Map<string, HolidayOverride>();
  private loadedAt = Number.NEGATIVE_INFINITY;

  constructor(config: Pick<Config, 'SLA_CLOCK' | 'SLA_TIMEZONE' | 'SLA_BUSINESS_HOURS' | 'SLA_HOLIDAYS'>) {
    this.kind = config.SLA_CLOCK;
    this.timeZone = config.SLA_TIMEZONE;
    this.week = parseSchedule(config.SLA_BUSINESS_HOURS);
    this.builtIn = config.SLA_HOLIDAYS === 'iran';
  }

  /** Replaces the corrections (what refresh reads from the database). */
  setOverrides(rows: HolidayOverride[], at = Date.now()): void {
    this.overrides = new Map(rows.map((r) => [r.day, r]));
    this.loadedAt = at;
  }

  /** Reads the corrections when they are older than REFRESH_MS (or `force`). */
  async refresh(db: Kysely<Database>, force = false, now = Date.now()): Promise<void> {
    if (!force && now - this.loadedAt < REFRESH_MS) return;
    this.setOverrides(await holidayOverrides(db), now);
  }

  builtInHoliday(day: number): boolean {
    if (!this.builtIn) return false;
    let known = this.builtInCache.get(day);
    if (known === undefined) {
      known = iranHolidaysOn(day).length > 0;
      this.builtInCache.set(day, known);
    }
    return known;
  }

  isHoliday(day: number): boolean {
    const override = this.overrides.get(isoDate(day));
    return override ? override.working === 0 : this.builtInHoliday(day);
  }

  /** The moment `hours` of SLA time after `createdAt` (ISO 8601 UTC in and out). */
  deadline(createdAt: string, hours: number): string {
    const from = Date.parse(createdAt);
    const amount = hours * 3_600_000;
    return new Date(this.kind === 'calendar' ? from + amount : addWorkingTime(this, from, amount)).toISOString();
  }
}

const clocks = new WeakMap<Config, SlaClock>();

/** The clock of a configuration (one per app, shared by its routes). */
export function slaClockOf(config: Config): SlaClock {
  let clock = clocks.get(config);
  if (!clock) {
    clock = new SlaClock(config);
    clocks.set(config, clock);
  }
  return clock;
}
