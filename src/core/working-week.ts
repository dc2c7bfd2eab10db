// A working week as text, the value type of SLA_BUSINESS_HOURS: a grammar of days and hours that
// knows nothing of tickets (the SLA clock, modules/tickets/calendar/, counts time with it), so the
// configuration checks it without importing a feature. Grammar (spaces around ";" and "," are free):
//   hours    := rule (";" rule)*
//   rule     := days " " period ("," period)*
//   days     := dayspec ("," dayspec)*          e.g. sat-tue  or  sat,mon  or  thu
//   dayspec  := day | day "-" day              ranges run in week order sat…fri and may wrap (thu-sat)
//   day      := sat | sun | mon | tue | wed | thu | fri
//   period   := HH:MM "-" HH:MM                 24-hour; an end at or before the start runs past
//                                               midnight into the next day (22:00-02:00); 24:00 ends a day
// A period belongs to the day it starts on (a holiday on that day takes it off whole). Periods of
// one day may not overlap, nor may one running past midnight overlap the next day's first period.
// A day named twice, or a week with no working time, is an error.

export interface Period {
  /** Minutes from the day's local midnight. */
  start: number;
  /** Minutes from the same midnight: above 1440 when the period runs into the next day. */
  end: number;
}

/** Periods by weekday, 0 = Sunday … 6 = Saturday, each list sorted by start. */
export type WeekSchedule = Period[][];

export const DEFAULT_BUSINESS_HOURS = 'sat-wed 08:00-12:00,13:00-17:00; thu 08:00-12:00';

const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
/** Week order as in Iran: Saturday first. */
const WEEK_ORDER = [6, 0, 1, 2, 3, 4, 5];

export class ScheduleError extends Error {}

function dayIndex(name: string): number {
  const index = DAY_NAMES.indexOf(name.toLowerCase());
  if (index < 0) throw new ScheduleError(`unknown day "${name}"`);
  return index;
}

function daysOf(spec: string): number[] {
  const days: number[] = [];
  for (const part of spec.split(',')) {
    const [from, to, extra] = part.trim().split('-');
    if (extra !== undefined || !from) throw new ScheduleError(`bad days "${part.trim()}"`);
    if (to === undefined) {
      days.push(dayIndex(from));
      continue;
    }
    let i = WEEK_ORDER.indexOf(dayIndex(from));
    const last = WEEK_ORDER.indexOf(dayIndex(to));
    days.push(WEEK_ORDER[i]!);
    while (i !== last) {
      i = (i + 1) % 7;
      days.push(WEEK_ORDER[i]!);
    }
  }
  return days;
}

function minutesOf(clock: string): number {
  const match = /^(\d{2}):(\d{2})$/.exec(clock.trim());
  if (!match) throw new ScheduleError(`bad time "${clock.trim()}"`);
  const [hours, minutes] = [Number(match[1]), Number(match[2])];
  if (minutes > 59 || hours > 24 || (hours === 24 && minutes > 0))
    throw new ScheduleError(`bad time "${clock.trim()}"`);
  return hours * 60 + minutes;
}

function periodOf(text: string): Period {
  const [from, to, extra] = text.split('-');
  if (extra !== undefined || from === undefined || to === undefined)
    throw new ScheduleError(`bad period "${text.trim()}"`);
  const start = minutesOf(from);
  let end = minutesOf(to);
  if (start === 1440) throw new ScheduleError(`bad period "${text.trim()}"`);
  if (end <= start) end += 1440;
  return { start, end };
}

export function parseSchedule(text: string): WeekSchedule {
  const week: WeekSchedule = [[], [], [], [], [], [], []];
  const named = new Set<number>();
  for (const rule of text
    .split(';')
    .map((r) => r.trim())
    .filter(Boolean)) {
    const space = rule.search(/\s/);
    if (space < 0) throw new ScheduleError(`"${rule}" has no periods`);
    const days = daysOf(rule.slice(0, space));
    const periods = rule
      .slice(space)
      .split(',')
      .map(periodOf)
      .sort((a, b) => a.start - b.start);
    for (let i = 1; i < periods.length; i++) {
      if (periods[i]!.start < periods[i - 1]!.end) throw new ScheduleError(`periods overlap in "${rule}"`);
    }
    for (const day of days) {
      if (named.has(day)) throw new ScheduleError(`${DAY_NAMES[day]} is named twice`);
      named.add(day);
      week[day] = periods;
    }
  }
  for (let day = 0; day < 7; day++) {
    const last = week[day]!.at(-1);
    const next = week[(day + 1) % 7]![0];
    if (last && next && last.end - 1440 > next.start)
      throw new ScheduleError(`${DAY_NAMES[day]}'s last period runs into ${DAY_NAMES[(day + 1) % 7]}'s first`);
  }
  if (week.every((periods) => periods.length === 0)) throw new ScheduleError('no working time in the week');
  return week;
}
