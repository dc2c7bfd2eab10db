// Civil dates in three calendars, worked out with Node's ICU (Intl.DateTimeFormat): the Gregorian
// date a day is keyed by ("YYYY-MM-DD"), its Solar Hijri (persian) date and its lunar Hijri date.
// The lunar calendar is ICU's islamic-umalqura (see docs/decisions.md, Tickets: SLA clock).

export interface CivilDate {
  year: number;
  month: number;
  day: number;
}

const DAY_MS = 86_400_000;

function partsFormatter(calendar: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(`en-u-ca-${calendar}-nu-latn`, {
    timeZone: 'UTC',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
  });
}

// Made on first use: creating them loads ICU's calendar data, which a start need not wait for.
let persian: Intl.DateTimeFormat | undefined;
let lunar: Intl.DateTimeFormat | undefined;

function civilOf(formatter: Intl.DateTimeFormat, utcMidnight: number): CivilDate {
  const out: CivilDate = { year: 0, month: 0, day: 0 };
  for (const part of formatter.formatToParts(utcMidnight)) {
    if (part.type === 'year' || (part.type as string) === 'relatedYear') out.year = Number(part.value);
    else if (part.type === 'month') out.month = Number(part.value);
    else if (part.type === 'day') out.day = Number(part.value);
  }
  return out;
}

/** Days since 1970-01-01 of a Gregorian date (the day number every calendar here is keyed by). */
export function dayNumber(date: CivilDate): number {
  return Math.floor(Date.UTC(date.year, date.month - 1, date.day) / DAY_MS);
}

export function gregorianOf(day: number): CivilDate {
  const d = new Date(day * DAY_MS);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

export function isoDate(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** 0 = Sunday … 6 = Saturday. */
export function weekdayOf(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

export function jalaliOf(day: number): CivilDate {
  persian ??= partsFormatter('persian');
  return civilOf(persian, day * DAY_MS);
}

export function lunarOf(day: number): CivilDate {
  lunar ??= partsFormatter('islamic-umalqura');
  return civilOf(lunar, day * DAY_MS);
}

/**
 * The day number of a Jalali date, or null when it does not exist (31 Mehr, 30 Esfand of a common
 * year). Farvardin 1 falls on 20, 21 or 22 March; the search starts from there.
 */
export function dayOfJalali(date: CivilDate): number | null {
  if (date.month < 1 || date.month > 12 || date.day < 1 || date.day > 31) return null;
  const nowruzGuess = dayNumber({ year: date.year + 621, month: 3, day: 19 });
  let start = nowruzGuess;
  while (jalaliOf(start).day !== 1 || jalaliOf(start).month !== 1) start++;
  const offset = date.month <= 7 ? (date.month - 1) * 31 : 186 + (date.month - 7) * 30;
  const day = start + offset + date.day - 1;
  const check = jalaliOf(day);
  return check.year === date.year && check.month === date.month && check.day === date.day ? day : null;
}

/**
 * An operator's date: "1405-01-01" (Jalali, year below 1700) or "2026-03-21" (Gregorian). Gives
 * the day number, or null when the text is no such date.
 */
export function parseDateArgument(text: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const date = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  if (date.year < 1700) return dayOfJalali(date);
  const day = dayNumber(date);
  const back = gregorianOf(day);
  return back.month === date.month && back.day === date.day ? day : null;
}

/** A moment for people, in the SLA zone: Jalali with Persian digits in fa, Gregorian in en (with the zone named). */
export function formatMoment(iso: string, locale: 'en' | 'fa', timeZone: string): string {
  const options: Intl.DateTimeFormatOptions = { dateStyle: 'long', timeStyle: 'short', timeZone };
  if (locale === 'fa') return new Intl.DateTimeFormat('fa-IR-u-ca-persian-nu-arabext', options).format(Date.parse(iso));
  return `${new Intl.DateTimeFormat('en-GB-u-ca-gregory', options).format(Date.parse(iso))} (${timeZone})`;
}
