// The built-in Iranian holiday calendar (SLA_HOLIDAYS=iran): the official solar holidays by Jalali
// date and the lunar ones by lunar Hijri date (ICU islamic-umalqura). Sources and the choice of
// the lunar calendar are in docs/decisions.md (Tickets: SLA clock). Official dates announced for a
// year can differ from the computed lunar date by a day: operators correct those with
// holiday:add / holiday:remove, stored in the database (they win over this table).
import { isoDate, jalaliOf, lunarOf } from './dates.js';
import { OFFICIAL_BY_DAY, OFFICIAL_BY_HOLIDAY } from './official.js';

interface DatedHoliday {
  month: number;
  day: number;
  name: string;
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
  { month: 3, day: 8, name: 'Martyrdom of Imam Hasan al-Askari' },
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
const END_OF_SAFAR = 'Martyrdom of Imam Reza (end of Safar)';

const LUNAR_NAMES = new Map<string, string>([
  ...LUNAR_HOLIDAYS.map((h) => [`${h.month}-${h.day}`, h.name] as [string, string]),
  ['2-end', END_OF_SAFAR],
]);

/** The lunar holidays (keys such as "1-10", "2-end") the computed calendar puts on a day. */
function computedLunar(day: number): Array<{ year: number; key: string }> {
  const lunar = lunarOf(day);
  const keys: Array<{ year: number; key: string }> = [];
  if (LUNAR_NAMES.has(`${lunar.month}-${lunar.day}`))
    keys.push({ year: lunar.year, key: `${lunar.month}-${lunar.day}` });
  if (lunar.month === 2 && lunar.day >= 29 && lunarOf(day + 1).month === 3)
    keys.push({ year: lunar.year, key: '2-end' });
  return keys;
}

/**
 * The names of the built-in holidays on a day (day number since 1970-01-01), empty on a working
 * day. A lunar holiday with an official date (official.ts) is on that date, not the computed one.
 */
export function iranHolidaysOn(day: number): string[] {
  const names: string[] = [];
  const solar = jalaliOf(day);
  for (const h of SOLAR_HOLIDAYS) if (h.month === solar.month && h.day === solar.day) names.push(h.name);
  const date = isoDate(day);
  for (const { year, key } of computedLunar(day)) {
    if (!OFFICIAL_BY_HOLIDAY.has(`${year}:${key}`)) names.push(LUNAR_NAMES.get(key)!);
  }
  for (const key of OFFICIAL_BY_DAY.get(date) ?? []) names.push(LUNAR_NAMES.get(key)!);
  return names;
}
