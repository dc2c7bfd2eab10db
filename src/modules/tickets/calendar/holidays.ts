// The built-in Iranian holiday calendar (SLA_HOLIDAYS=iran): the official solar holidays by Jalali
// date and the lunar ones by lunar Hijri date in Iran's own lunar calendar (lunar-months.ts: the
// official month starts of the shipped years, predicted ones elsewhere). Sources and choices are in
// docs/decisions.md (Tickets: SLA clock). Operators correct any day with holiday:add /
// holiday:remove, stored in the database (they win over this calendar).
import { jalaliOf } from './dates.js';
import { type LunarDate, lunarDateOn, type PredictionMethod } from './lunar-months.js';
import { isOfficialYear, OFFICIAL_EXTRA_DAYS } from './official.js';

interface DatedHoliday {
  month: number;
  day: number;
  name: string;
  /** First lunar year it is kept in (8 Rabi al-Awwal became a holiday by a 2017 law). */
  since?: number;
}

export const SOLAR_HOLIDAYS: DatedHoliday[] = [
  { month: 1, day: 1, name: 'Nowruz' },
  { month: 1, day: 2, name: 'Nowruz' },
  { month: 1, day: 3, name: 'Nowruz' },
  { month: 1, day: 4, name: 'Nowruz' },
  { month: 1, day: 12, name: 'Islamic Republic Day' },
  { month: 1, day: 13, name: 'Nature Day (Sizdah Bedar)' },
  { month: 3, day: 14, name: 'Death of Imam Khomeini' },
  { month: 3, day: 15, name: 'Uprising of 15 Khordad' },
  { month: 11, day: 22, name: 'Victory of the Islamic Revolution' },
  { month: 12, day: 29, name: 'Nationalisation of the oil industry' },
];

export const LUNAR_HOLIDAYS: DatedHoliday[] = [
  { month: 1, day: 9, name: 'Tasua' },
  { month: 1, day: 10, name: 'Ashura' },
  { month: 2, day: 20, name: 'Arbaeen' },
  { month: 2, day: 28, name: 'Demise of the Prophet and martyrdom of Imam Hasan' },
  { month: 3, day: 8, name: 'Martyrdom of Imam Hasan al-Askari', since: 1439 },
  { month: 3, day: 17, name: "Birthday of the Prophet and Imam Ja'far al-Sadiq" },
  { month: 6, day: 3, name: 'Martyrdom of Fatimah' },
  { month: 7, day: 13, name: 'Birthday of Imam Ali' },
  { month: 7, day: 27, name: "Mab'ath (the Prophet's mission)" },
  { month: 8, day: 15, name: "Birthday of the Mahdi (15 Sha'ban)" },
  { month: 9, day: 21, name: 'Martyrdom of Imam Ali' },
  { month: 10, day: 1, name: 'Eid al-Fitr' },
  { month: 10, day: 2, name: 'Day after Eid al-Fitr' },
  { month: 10, day: 25, name: "Martyrdom of Imam Ja'far al-Sadiq" },
  { month: 12, day: 10, name: 'Eid al-Adha' },
  { month: 12, day: 18, name: 'Eid al-Ghadir' },
];

/** The last day of Safar (29 or 30): martyrdom of Imam Reza. */
export const END_OF_SAFAR = 'Martyrdom of Imam Reza (end of Safar)';

/** The lunar holidays on a lunar date, as keys ("1-10", "2-end") and names. */
export function lunarHolidaysOf(date: Pick<LunarDate, 'year' | 'month' | 'day' | 'length'>): Array<{
  key: string;
  name: string;
}> {
  const found = LUNAR_HOLIDAYS.filter(
    (h) => h.month === date.month && h.day === date.day && date.year >= (h.since ?? 0),
  ).map((h) => ({ key: `${h.month}-${h.day}`, name: h.name }));
  if (date.month === 2 && date.day === date.length) found.push({ key: '2-end', name: END_OF_SAFAR });
  return found;
}

export type HolidaySource = 'official' | 'predicted';

export interface HolidayDay {
  names: string[];
  /** official: from a shipped calendar or the solar law; predicted: a lunar holiday of a year not yet published. */
  source: HolidaySource;
}

const extraDays = new Map(OFFICIAL_EXTRA_DAYS.map((e) => [e.jalali.join('-'), e.name]));

/** The built-in holidays on a day (day number since 1970-01-01), or null on a working day. */
export function iranHolidayOn(day: number, method?: PredictionMethod): HolidayDay | null {
  const solar = jalaliOf(day);
  const names = SOLAR_HOLIDAYS.filter((h) => h.month === solar.month && h.day === solar.day).map((h) => h.name);
  const extra = extraDays.get(`${solar.year}-${solar.month}-${solar.day}`);
  if (extra) names.push(extra);
  const lunar = lunarHolidaysOf(lunarDateOn(day, method)).map((h) => h.name);
  if (names.length + lunar.length === 0) return null;
  const source = isOfficialYear(solar.year) || lunar.length === 0 ? 'official' : 'predicted';
  return { names: [...names, ...lunar], source };
}

/** The names of the built-in holidays on a day, empty on a working day. */
export function iranHolidaysOn(day: number): string[] {
  return iranHolidayOn(day)?.names ?? [];
}
