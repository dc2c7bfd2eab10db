// The lunar (Hijri) date of a day as Iran keeps it: from the official month starts where a shipped
// calendar fixes them (official.ts), and predicted beyond: each month that follows the last
// official one lasts 29 days if the crescent is seen from Tehran on the evening of its 29th day
// (crescent.ts), else 30. Before the first official month each month starts the day after the
// first evening, from the conjunction on, whose crescent is seen. The Umm al-Qura calendar (ICU
// islamic-umalqura) is the other method; the eval (npm run eval -- calendar) measures both against
// the official calendars, and PREDICTION_METHOD is the better one (docs/performance.md).
import { conjunctionBefore, crescentSeen } from './crescent.js';
import { lunarOf } from './dates.js';
import { type MonthStart, OFFICIAL_MONTHS } from './official.js';

const DAY_MS = 86_400_000;

export type PredictionMethod = 'crescent' | 'umm-al-qura';

/** How months that no shipped calendar fixes are predicted. */
export const PREDICTION_METHOD: PredictionMethod = 'crescent';

export interface LunarDate {
  year: number;
  month: number;
  day: number;
  /** Days in the month (29 or 30; predicted when the next month is). */
  length: number;
  /** Whether the month's first day comes from an official calendar. */
  official: boolean;
}

function monthAfter(start: MonthStart): { year: number; month: number } {
  return start.month === 12 ? { year: start.year + 1, month: 1 } : { year: start.year, month: start.month + 1 };
}

/** The first day of the month after `start`, predicted by a method. */
export function nextMonthStart(start: MonthStart, method: PredictionMethod): MonthStart {
  let length: number;
  if (method === 'crescent') length = crescentSeen(start.day + 28) ? 29 : 30;
  // Umm al-Qura's next month has begun by day 30 when that day is early in an Umm al-Qura month.
  else length = lunarOf(start.day + 29).day <= 15 ? 29 : 30;
  return { ...monthAfter(start), day: start.day + length };
}

/** Month starts chained from `anchor` by a method, until one begins after `untilDay`. */
export function predictMonths(anchor: MonthStart, untilDay: number, method: PredictionMethod): MonthStart[] {
  const months = [anchor];
  while (months.at(-1)!.day <= untilDay) months.push(nextMonthStart(months.at(-1)!, method));
  return months;
}

/** The day after the first evening, from the conjunction's local date on, whose crescent is seen. */
function crescentMonthStartAfter(conjunction: Date): number {
  // Tehran is 3.5 hours ahead of UTC (4.5 in the summers before 2022): its local date at most one ahead.
  const first = Math.floor((conjunction.getTime() + 3.5 * 3_600_000) / DAY_MS);
  for (let evening = first; evening < first + 3; evening++) if (crescentSeen(evening)) return evening + 1;
  return first + 3;
}

/** Before the official months: the month around a day, each month from its own conjunction. */
function unanchoredMonth(day: number, method: PredictionMethod): { start: MonthStart; next: number } {
  if (method === 'umm-al-qura') {
    const lunar = lunarOf(day);
    const first = day - lunar.day + 1;
    return {
      start: { year: lunar.year, month: lunar.month, day: first },
      next: first + (lunarOf(first + 29).day === 1 ? 29 : 30),
    };
  }
  let conjunction = conjunctionBefore(new Date((day + 1) * DAY_MS));
  let first = crescentMonthStartAfter(conjunction);
  if (first > day) {
    conjunction = conjunctionBefore(new Date(conjunction.getTime() - DAY_MS));
    first = crescentMonthStartAfter(conjunction);
  }
  const next = crescentMonthStartAfter(conjunctionBefore(new Date(conjunction.getTime() + 35 * DAY_MS)));
  // Months are numbered as in Umm al-Qura, whose first days are within two days of these.
  const label = lunarOf(first + 2);
  return { start: { year: label.year, month: label.month, day: first }, next };
}

const earlyMonths: Array<{ method: PredictionMethod; start: MonthStart; next: number }> = [];

/** unanchoredMonth, remembered: a year's days fall in a dozen months. */
function earlyMonth(day: number, method: PredictionMethod): { start: MonthStart; next: number } {
  const known = earlyMonths.find((m) => m.method === method && m.start.day <= day && day < m.next);
  if (known) return known;
  const month = { method, ...unanchoredMonth(day, method) };
  earlyMonths.push(month);
  return month;
}

const chains = new Map<PredictionMethod, MonthStart[]>();

/** The month around a day after the last official month start, chained from it. */
function chainedMonth(day: number, method: PredictionMethod): { start: MonthStart; next: number; index: number } {
  let chain = chains.get(method);
  if (!chain) {
    chain = [OFFICIAL_MONTHS.at(-1)!];
    chains.set(method, chain);
  }
  while (chain.at(-1)!.day <= day) chain.push(nextMonthStart(chain.at(-1)!, method));
  let index = chain.length - 2;
  while (chain[index]!.day > day) index--;
  return { start: chain[index]!, next: chain[index + 1]!.day, index };
}

function officialIndex(day: number): number {
  let low = 0;
  let high = OFFICIAL_MONTHS.length - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (OFFICIAL_MONTHS[mid]!.day <= day) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** The lunar date of a day (day number since 1970-01-01) in Iran's calendar. */
export function lunarDateOn(day: number, method: PredictionMethod = PREDICTION_METHOD): LunarDate {
  let start: MonthStart;
  let next: number;
  let official: boolean;
  if (day < OFFICIAL_MONTHS[0]!.day) {
    ({ start, next } = earlyMonth(day, method));
    official = false;
  } else if (day < OFFICIAL_MONTHS.at(-1)!.day) {
    const index = officialIndex(day);
    start = OFFICIAL_MONTHS[index]!;
    next = OFFICIAL_MONTHS[index + 1]!.day;
    official = true;
  } else {
    const chained = chainedMonth(day, method);
    ({ start, next } = chained);
    official = chained.index === 0;
  }
  return { year: start.year, month: start.month, day: day - start.day + 1, length: next - start.day, official };
}
