// Official dates of lunar holidays as published in Iran's official calendar (Shoray-e Farhang-e
// Omumi), for the entries we could read in a source; they win over the Umm al-Qura computation
// for that holiday of that lunar year (the official date follows the sighted moon and can be a day
// later). Each entry: the lunar year, the holiday (lunar month-day, or "2-end" for the last day of
// Safar), and the official Jalali date. Sources per line are in docs/decisions.md (Tickets: SLA
// clock); nothing here is guessed. Missing holidays of a year are computed.
import { dayOfJalali, isoDate } from './dates.js';

interface OfficialEntry {
  lunarYear: number;
  holiday: string;
  jalali: [number, number, number];
}

export const OFFICIAL_LUNAR_DATES: OfficialEntry[] = [
  // 1403 (calendar.nagsh.ir, "تعطیلات رسمی سال 1403 مصوب شورای فرهنگ عمومی")
  { lunarYear: 1445, holiday: '9-21', jalali: [1403, 1, 13] },
  { lunarYear: 1445, holiday: '10-1', jalali: [1403, 1, 22] },
  { lunarYear: 1445, holiday: '10-2', jalali: [1403, 1, 23] },
  { lunarYear: 1445, holiday: '10-25', jalali: [1403, 2, 15] },
  { lunarYear: 1445, holiday: '12-10', jalali: [1403, 3, 28] },
  { lunarYear: 1445, holiday: '12-18', jalali: [1403, 4, 5] },
  { lunarYear: 1446, holiday: '1-9', jalali: [1403, 4, 25] },
  { lunarYear: 1446, holiday: '1-10', jalali: [1403, 4, 26] },
  { lunarYear: 1446, holiday: '2-20', jalali: [1403, 6, 4] },
  { lunarYear: 1446, holiday: '2-28', jalali: [1403, 6, 12] },
  // 1404 (gardshgar.com/holiday-1404; esfahanemrooz.ir Shahrivar 1404; eghtesadonline.com Dey 1404; asrshanbe.ir Bahman 1404)
  { lunarYear: 1446, holiday: '9-21', jalali: [1404, 1, 2] },
  { lunarYear: 1446, holiday: '10-1', jalali: [1404, 1, 11] },
  { lunarYear: 1446, holiday: '10-2', jalali: [1404, 1, 12] },
  { lunarYear: 1446, holiday: '10-25', jalali: [1404, 2, 4] },
  { lunarYear: 1446, holiday: '12-10', jalali: [1404, 3, 16] },
  { lunarYear: 1446, holiday: '12-18', jalali: [1404, 3, 24] },
  { lunarYear: 1447, holiday: '1-9', jalali: [1404, 4, 14] },
  { lunarYear: 1447, holiday: '1-10', jalali: [1404, 4, 15] },
  { lunarYear: 1447, holiday: '2-20', jalali: [1404, 5, 23] },
  { lunarYear: 1447, holiday: '2-28', jalali: [1404, 5, 31] },
  { lunarYear: 1447, holiday: '2-end', jalali: [1404, 6, 2] },
  { lunarYear: 1447, holiday: '7-13', jalali: [1404, 10, 13] },
  { lunarYear: 1447, holiday: '7-27', jalali: [1404, 10, 27] },
  { lunarYear: 1447, holiday: '8-15', jalali: [1404, 11, 15] },
  // 1405 (ilna.ir, 2025-10-30, the official calendar of 1405)
  { lunarYear: 1447, holiday: '10-1', jalali: [1405, 1, 1] },
  { lunarYear: 1447, holiday: '10-2', jalali: [1405, 1, 2] },
  { lunarYear: 1447, holiday: '12-10', jalali: [1405, 3, 6] },
  { lunarYear: 1447, holiday: '12-18', jalali: [1405, 3, 14] },
  { lunarYear: 1448, holiday: '1-9', jalali: [1405, 4, 3] },
];

/** "lunarYear:holiday" → the Gregorian day ("YYYY-MM-DD") it is officially kept on. */
export const OFFICIAL_BY_HOLIDAY = new Map<string, string>();
/** Gregorian day → the holiday keys officially kept on it. */
export const OFFICIAL_BY_DAY = new Map<string, string[]>();

for (const entry of OFFICIAL_LUNAR_DATES) {
  const [year, month, day] = entry.jalali;
  const date = isoDate(dayOfJalali({ year, month, day })!);
  OFFICIAL_BY_HOLIDAY.set(`${entry.lunarYear}:${entry.holiday}`, date);
  OFFICIAL_BY_DAY.set(date, [...(OFFICIAL_BY_DAY.get(date) ?? []), entry.holiday]);
}
