// The shipped official calendar held to two transcriptions made apart from it (the Persian holiday
// lists in fixtures/official-holidays.txt, and the calendar centre's converter table of month
// lengths below), and the crescent prediction for the years no calendar covers. No database.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { measureCalendar } from '../../eval/calendar.js';
import { eveningCrescent, yallopClass, yallopQ } from '../../src/modules/tickets/calendar/crescent.js';
import { dayOfJalali, isoDate, jalaliOf, weekdayOf } from '../../src/modules/tickets/calendar/dates.js';
import {
  END_OF_SAFAR,
  iranHolidayOn,
  LUNAR_HOLIDAYS,
  SOLAR_HOLIDAYS,
} from '../../src/modules/tickets/calendar/holidays.js';
import { lunarDateOn } from '../../src/modules/tickets/calendar/lunar-months.js';
import { OFFICIAL_MONTHS, OFFICIAL_YEARS } from '../../src/modules/tickets/calendar/official.js';

const day = (iso: string) => Math.floor(Date.parse(`${iso}T00:00:00Z`) / 86_400_000);
const jalaliDay = (text: string) => {
  const [year, month, d] = text.split('-').map(Number) as [number, number, number];
  return dayOfJalali({ year, month, day: d })!;
};

// Month lengths (Muharram first) of the calendar centre's converter (calendar.ut.ac.ir CalConv),
// as tabled in persian-calendar/calendar's IranianIslamicDateConverter.kt at commit 0b4e040
// (October 2024, before that project took its table from the same PDFs official.ts is read from).
const CONVERTER_MONTH_LENGTHS: Record<number, number[]> = {
  1437: [29, 30, 30, 29, 30, 29, 29, 30, 29, 29, 30, 30],
  1438: [29, 30, 30, 30, 29, 30, 29, 29, 30, 29, 29, 30],
  1439: [29, 30, 30, 30, 30, 29, 30, 29, 29, 30, 29, 29],
  1440: [30, 29, 30, 30, 30, 29, 30, 30, 29, 29, 30, 29],
  1441: [29, 30, 29, 30, 30, 29, 30, 30, 29, 30, 29, 30],
  1442: [29, 29, 30, 29, 30, 29, 30, 30, 29, 30, 30, 29],
  1443: [29, 30, 30, 29, 29, 30, 29, 30, 30, 29, 30, 29],
  1444: [30, 30, 29, 30, 29, 29, 30, 29, 30, 29, 30, 29],
  1445: [30, 30, 30, 29, 30, 29, 29, 30, 29, 30, 29, 29],
  1446: [30, 30, 30, 29, 30, 30, 29, 30, 29, 29, 29, 30],
  // From the 1404 calendar, published before the table was taken (its later months were guesses).
  1447: [29, 30, 30, 29, 30, 30, 30, 29, 30],
};

const SOLAR_CODES: Record<string, string> = {
  nowruz: 'Nowruz',
  republic: 'Islamic Republic Day',
  nature: 'Nature Day (Sizdah Bedar)',
  khomeini: 'Death of Imam Khomeini',
  khordad15: 'Uprising of 15 Khordad',
  revolution: 'Victory of the Islamic Revolution',
  oil: 'Nationalisation of the oil industry',
  lastday: 'Last day of the year (the new year began that day)',
};

function nameOf(code: string): string {
  if (code === '2-end') return END_OF_SAFAR;
  const lunar = LUNAR_HOLIDAYS.find((h) => `${h.month}-${h.day}` === code);
  const name = lunar?.name ?? SOLAR_CODES[code];
  if (!name) throw new Error(`official-holidays.txt: unknown code ${code}`);
  return name;
}

interface Transcription {
  days: Map<number, string[]>;
  complete: Set<number>;
  counts: Array<{ year: number; total: number; fridays: number }>;
}

function readTranscription(): Transcription {
  const text = fs.readFileSync(new URL('./fixtures/official-holidays.txt', import.meta.url), 'utf8');
  const out: Transcription = { days: new Map(), complete: new Set(), counts: [] };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith('source ')) continue;
    const [first, ...rest] = line.split(/\s+/);
    if (first === 'complete') out.complete.add(Number(rest[0]));
    else if (first === 'count')
      out.counts.push({ year: Number(rest[0]), total: Number(rest[1]), fridays: Number(rest[2]) });
    else out.days.set(jalaliDay(first!), rest[0] === 'none' ? [] : rest.map(nameOf));
  }
  return out;
}

function holidayDaysOf(year: number): number[] {
  const first = dayOfJalali({ year, month: 1, day: 1 })!;
  const next = dayOfJalali({ year: year + 1, month: 1, day: 1 })!;
  return Array.from({ length: next - first }, (_, i) => first + i).filter((d) => iranHolidayOn(d) !== null);
}

describe('the official calendar (official.ts)', () => {
  it('has contiguous months of 29 or 30 days, each listed under the Jalali year it begins in', () => {
    for (const [i, month] of OFFICIAL_MONTHS.entries()) {
      const next = OFFICIAL_MONTHS[i + 1];
      if (next) {
        expect([29, 30], `${month.year}/${month.month}`).toContain(next.day - month.day);
        expect(next.month, `${month.year}/${month.month}`).toBe(month.month === 12 ? 1 : month.month + 1);
      }
    }
    for (const year of OFFICIAL_YEARS) {
      const starts = year.months.map((m) => jalaliOf(day(m.slice(8))).year);
      // The first year also carries the month in progress on its Nowruz.
      expect(new Set(year.year === OFFICIAL_YEARS[0]!.year ? starts.slice(1) : starts)).toEqual(new Set([year.year]));
    }
  });

  it("agrees month for month with the calendar centre's converter table", () => {
    let compared = 0;
    for (const [i, month] of OFFICIAL_MONTHS.entries()) {
      const next = OFFICIAL_MONTHS[i + 1];
      const expected = CONVERTER_MONTH_LENGTHS[month.year]?.[month.month - 1];
      if (!next || expected === undefined) continue;
      expect(next.day - month.day, `${month.year}/${month.month}`).toBe(expected);
      compared++;
    }
    expect(compared).toBe(7 + 9 * 12 + 9);
  });

  it('puts every holiday of the Persian lists on its day, and lists nothing more in the complete years', () => {
    const transcription = readTranscription();
    expect(transcription.days.size).toBe(143);
    for (const [d, names] of transcription.days) {
      const shipped = iranHolidayOn(d);
      expect(shipped?.names.slice().sort() ?? [], `${isoDate(d)} (${jalaliOf(d).year})`).toEqual(names.slice().sort());
      if (shipped) expect(shipped.source).toBe('official');
    }
    expect([...transcription.complete]).toEqual([1395, 1396, 1405]);
    for (const year of transcription.complete) {
      const listed = [...transcription.days.keys()].filter((d) => jalaliOf(d).year === year).sort((a, b) => a - b);
      expect(holidayDaysOf(year).map(isoDate), String(year)).toEqual(listed.map(isoDate));
    }
    for (const { year, total, fridays } of transcription.counts) {
      const days = holidayDaysOf(year);
      expect([days.length, days.filter((d) => weekdayOf(d) === 5).length], String(year)).toEqual([total, fridays]);
    }
  });

  it('keeps the solar holidays of the law every year, shipped or not', () => {
    for (const year of [1395, 1404, 1406, 1410]) {
      for (const h of SOLAR_HOLIDAYS) {
        const d = dayOfJalali({ year, month: h.month, day: h.day })!;
        expect(iranHolidayOn(d)?.names, `${year}-${h.month}-${h.day}`).toContain(h.name);
      }
    }
  });
});

describe('crescent visibility (Yallop, NAO Technical Note 69)', () => {
  it("computes q from the published polynomial and sorts it into Yallop's classes", () => {
    // W' = 0.5': 11.8371 - 3.1613 + 0.182975 - 0.012725 = 8.84605.
    expect(yallopQ(10, 0.5)).toBeCloseTo(0.115395, 6);
    expect(yallopQ(8.84605, 0.5)).toBeCloseTo(0, 6);
    expect(
      ['0.3', '0.216', '0', '-0.014', '-0.2', '-0.232', '-0.25', '-0.293'].map((q) => yallopClass(Number(q))),
    ).toEqual(['A', 'B', 'B', 'C', 'D', 'E', 'E', 'F']);
  });

  it('finds no crescent on the evening of 28 February 2025 in Tehran and an easy one the next evening', () => {
    // Iran began Ramadan 1446 on 2 March 2025, a day after Saudi Arabia.
    const first = eveningCrescent(day('2025-02-28'))!;
    expect(first.ageHours).toBeGreaterThan(12);
    expect(first.ageHours).toBeLessThan(16);
    expect(first.yallop).toBe('F');
    const second = eveningCrescent(day('2025-03-01'))!;
    expect(second.yallop).toBe('A');
    expect(second.arcl).toBeGreaterThan(20);
    // Before the conjunction (29 March 2025, 10:58 UTC) there is no crescent to look for.
    expect(eveningCrescent(day('2025-03-28'))).toBeNull();
  });
});

describe('predicted months after the last official one', () => {
  it('continues from 1 Shawwal 1448 (19 Esfand 1405) with months of 29 or 30 days and marks the days predicted', () => {
    const lastOfficial = OFFICIAL_MONTHS.at(-1)!;
    expect([lastOfficial.year, lastOfficial.month, isoDate(lastOfficial.day)]).toEqual([1448, 10, '2027-03-10']);
    expect(lunarDateOn(jalaliDay('1405-12-29'))).toMatchObject({ year: 1448, month: 10, day: 11, official: true });
    let start = lastOfficial.day;
    for (let m = 0; m < 36; m++) {
      const date = lunarDateOn(start);
      expect(date.day).toBe(1);
      expect([29, 30]).toContain(date.length);
      start += date.length;
    }
    const holidays1406 = holidayDaysOf(1406).map((d) => iranHolidayOn(d)!);
    expect(holidays1406.filter((h) => h.source === 'predicted').length).toBeGreaterThanOrEqual(15);
    expect(holidays1406.find((h) => h.names.includes('Nowruz'))?.source).toBe('official');
  });

  it('predicts months before 1395 from their own crescent: Eid al-Fitr 1436 on 18 July 2015, as the calendar centre had it', () => {
    // calendar.ut.ac.ir Full-1394.pdf (via roozbehp/qamari): 1 Shawwal 1436 = 2015-07-18.
    expect(lunarDateOn(day('2015-07-18'))).toMatchObject({ year: 1436, month: 10, day: 1, official: false });
    expect(iranHolidayOn(day('2015-07-18'))).toEqual({ names: ['Eid al-Fitr'], source: 'predicted' });
    expect(iranHolidayOn(day('2015-07-17'))).toBeNull();
  });

  it('predicts the lunar holidays of the shipped years far better than Umm al-Qura (npm run eval -- calendar)', () => {
    const years = measureCalendar();
    expect(years.map((y) => y.year)).toEqual(OFFICIAL_YEARS.map((y) => y.year));
    const total = years.reduce((n, y) => n + y.total, 0);
    const crescent = years.reduce((n, y) => n + y.crescent.right, 0);
    const ummAlQura = years.reduce((n, y) => n + y.ummAlQura.right, 0);
    expect(total).toBe(190);
    expect([crescent, ummAlQura]).toEqual([172, 74]);
    // Umm al-Qura is never late: it is the official day or the day before.
    expect(years.every((y) => y.ummAlQura.late === 0)).toBe(true);
  });
});
