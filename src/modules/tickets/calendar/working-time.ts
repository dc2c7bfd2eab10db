// Working-time arithmetic: the moment a number of working milliseconds after a start ends, in a
// time zone, over a weekly schedule and a holiday calendar. Local days are walked one by one; each
// day's periods become UTC intervals with the zone's offset at their own start and end (so a
// change of offset, such as Iran's daylight saving until 2022, is honoured).
import { weekdayOf } from './dates.js';
import type { WeekSchedule } from '../../../core/working-week.js';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** A schedule with holidays covering ten years in a row has no working time to offer. */
const MAX_DAYS = 3660;

export interface WorkCalendar {
  timeZone: string;
  week: WeekSchedule;
  isHoliday(day: number): boolean;
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC (ms) at a moment. */
export function zoneOffset(timeZone: string, at: number): number {
  let formatter = offsetFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US-u-ca-gregory-nu-latn', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    offsetFormatters.set(timeZone, formatter);
  }
  const p: Record<string, number> = {};
  for (const part of formatter.formatToParts(at)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  const asUtc = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return asUtc - (at - (((at % 1000) + 1000) % 1000));
}

/** The UTC moment of a local wall time (minutes from a local day's midnight, may pass 1440). */
export function localToUtc(timeZone: string, day: number, minutes: number): number {
  const wall = day * DAY_MS + minutes * MINUTE_MS;
  const first = wall - zoneOffset(timeZone, wall);
  // A second pass settles moments near an offset change; a wall time skipped by a change moves forward.
  return wall - zoneOffset(timeZone, first);
}

/** The local day (day number) a moment falls on. */
export function localDayOf(timeZone: string, at: number): number {
  return Math.floor((at + zoneOffset(timeZone, at)) / DAY_MS);
}

/** The working intervals [start, end) in UTC ms that begin on a local day. */
export function intervalsOn(calendar: WorkCalendar, day: number): Array<[number, number]> {
  if (calendar.isHoliday(day)) return [];
  return calendar.week[weekdayOf(day)]!.map((p) => [
    localToUtc(calendar.timeZone, day, p.start),
    localToUtc(calendar.timeZone, day, p.end),
  ]);
}

/**
 * The moment `amount` ms of working time after `from`. Time outside the schedule does not count,
 * so a start outside hours begins counting at the next opening; the result is always inside a
 * working interval or at its end.
 */
export function addWorkingTime(calendar: WorkCalendar, from: number, amount: number): number {
  let remaining = amount;
  let cursor = from;
  const firstDay = localDayOf(calendar.timeZone, from) - 1; // yesterday's period may run past midnight
  for (let day = firstDay; day < firstDay + MAX_DAYS; day++) {
    for (const [start, end] of intervalsOn(calendar, day)) {
      if (end <= cursor) continue;
      const begin = Math.max(start, cursor);
      if (end - begin >= remaining && (remaining > 0 || begin < end)) return begin + remaining;
      remaining -= end - begin;
      cursor = end;
    }
  }
  throw new Error('the SLA calendar has no working time in the next ten years');
}

/** Working milliseconds between two moments (0 when `to` is not after `from`). */
export function workingTimeBetween(calendar: WorkCalendar, from: number, to: number): number {
  let total = 0;
  for (let day = localDayOf(calendar.timeZone, from) - 1; day <= localDayOf(calendar.timeZone, to); day++) {
    for (const [start, end] of intervalsOn(calendar, day))
      total += Math.max(0, Math.min(end, to) - Math.max(start, from));
  }
  return total;
}
