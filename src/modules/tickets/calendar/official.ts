// The official Iranian calendar of the years we could source: the first day of every lunar
// (Hijri) month as the University of Tehran's calendar centre fixed it, grouped by the Jalali year
// whose calendar lists it. The lunar holidays of these years follow from these month starts; the
// solar ones are fixed by law (holidays.ts). Where the month was observed to begin a day after the
// printed calendar and the holidays moved with it (1440/09 and 1443/10), the observed day is kept.
// Every year's source, and the second transcription the tests hold this table to, are in
// docs/decisions.md (Tickets: SLA clock, official calendar).
import { dayNumber, dayOfJalali } from './dates.js';

export interface OfficialYear {
  /** Jalali year whose complete official calendar this is. */
  year: number;
  /** Where the year's calendar was read (full addresses in docs/decisions.md). */
  source: string;
  /** "hijriYear/month firstDay" for each lunar month that begins in the year. */
  months: string[];
}

export const OFFICIAL_YEARS: OfficialYear[] = [
  {
    year: 1395,
    source: 'calendar.ut.ac.ir calendar 1395-full.pdf',
    // 1437/06 is the month in progress on 1 Farvardin 1395.
    months: [
      '1437/06 2016-03-11',
      '1437/07 2016-04-09',
      '1437/08 2016-05-08',
      '1437/09 2016-06-07',
      '1437/10 2016-07-06',
      '1437/11 2016-08-04',
      '1437/12 2016-09-03',
      '1438/01 2016-10-03',
      '1438/02 2016-11-01',
      '1438/03 2016-12-01',
      '1438/04 2016-12-31',
      '1438/05 2017-01-30',
      '1438/06 2017-02-28',
    ],
  },
  {
    year: 1396,
    source: 'calendar.ut.ac.ir calendar 1396-full.pdf',
    months: [
      '1438/07 2017-03-30',
      '1438/08 2017-04-28',
      '1438/09 2017-05-27',
      '1438/10 2017-06-26',
      '1438/11 2017-07-25',
      '1438/12 2017-08-23',
      '1439/01 2017-09-22',
      '1439/02 2017-10-21',
      '1439/03 2017-11-20',
      '1439/04 2017-12-20',
      '1439/05 2018-01-19',
      '1439/06 2018-02-18',
      '1439/07 2018-03-19',
    ],
  },
  {
    year: 1397,
    source: 'calendar.ut.ac.ir Calendar 1397-Full.pdf',
    months: [
      '1439/08 2018-04-18',
      '1439/09 2018-05-17',
      '1439/10 2018-06-15',
      '1439/11 2018-07-15',
      '1439/12 2018-08-13',
      '1440/01 2018-09-11',
      '1440/02 2018-10-11',
      '1440/03 2018-11-09',
      '1440/04 2018-12-09',
      '1440/05 2019-01-08',
      '1440/06 2019-02-07',
      '1440/07 2019-03-08',
    ],
  },
  {
    year: 1398,
    source: 'calendar.ut.ac.ir Calendar 1398-Full.pdf; Ramadan as observed (Ordibehesht-Khordad1398.pdf)',
    months: [
      '1440/08 2019-04-07',
      '1440/09 2019-05-07',
      '1440/10 2019-06-05',
      '1440/11 2019-07-04',
      '1440/12 2019-08-03',
      '1441/01 2019-09-01',
      '1441/02 2019-09-30',
      '1441/03 2019-10-30',
      '1441/04 2019-11-28',
      '1441/05 2019-12-28',
      '1441/06 2020-01-27',
      '1441/07 2020-02-25',
    ],
  },
  {
    year: 1399,
    source: 'calendar.ut.ac.ir Calendar 1399-Full.pdf',
    months: [
      '1441/08 2020-03-26',
      '1441/09 2020-04-25',
      '1441/10 2020-05-24',
      '1441/11 2020-06-23',
      '1441/12 2020-07-22',
      '1442/01 2020-08-21',
      '1442/02 2020-09-19',
      '1442/03 2020-10-18',
      '1442/04 2020-11-17',
      '1442/05 2020-12-16',
      '1442/06 2021-01-15',
      '1442/07 2021-02-13',
      '1442/08 2021-03-15',
    ],
  },
  {
    year: 1400,
    source: 'calendar.ut.ac.ir Calendar 1400-Full.pdf',
    months: [
      '1442/09 2021-04-14',
      '1442/10 2021-05-13',
      '1442/11 2021-06-12',
      '1442/12 2021-07-12',
      '1443/01 2021-08-10',
      '1443/02 2021-09-08',
      '1443/03 2021-10-08',
      '1443/04 2021-11-07',
      '1443/05 2021-12-06',
      '1443/06 2022-01-04',
      '1443/07 2022-02-03',
      '1443/08 2022-03-04',
    ],
  },
  {
    year: 1401,
    source: 'calendar.ut.ac.ir Calendar 1401-Full.pdf; Shawwal as observed (Ordibehesht-Khordad1401.pdf)',
    months: [
      '1443/09 2022-04-03',
      '1443/10 2022-05-03',
      '1443/11 2022-06-01',
      '1443/12 2022-07-01',
      '1444/01 2022-07-30',
      '1444/02 2022-08-29',
      '1444/03 2022-09-28',
      '1444/04 2022-10-27',
      '1444/05 2022-11-26',
      '1444/06 2022-12-25',
      '1444/07 2023-01-23',
      '1444/08 2023-02-22',
    ],
  },
  {
    year: 1402,
    source: 'calendar.ut.ac.ir Calendar-1402.pdf',
    months: [
      '1444/09 2023-03-23',
      '1444/10 2023-04-22',
      '1444/11 2023-05-21',
      '1444/12 2023-06-20',
      '1445/01 2023-07-19',
      '1445/02 2023-08-18',
      '1445/03 2023-09-17',
      '1445/04 2023-10-17',
      '1445/05 2023-11-15',
      '1445/06 2023-12-15',
      '1445/07 2024-01-13',
      '1445/08 2024-02-11',
      '1445/09 2024-03-12',
    ],
  },
  {
    year: 1403,
    source: 'calendar.ut.ac.ir Calendar-1403.pdf; calendar.nagsh.ir (Council for Public Culture list)',
    months: [
      '1445/10 2024-04-10',
      '1445/11 2024-05-10',
      '1445/12 2024-06-08',
      '1446/01 2024-07-07',
      '1446/02 2024-08-06',
      '1446/03 2024-09-05',
      '1446/04 2024-10-05',
      '1446/05 2024-11-03',
      '1446/06 2024-12-03',
      '1446/07 2025-01-02',
      '1446/08 2025-01-31',
      '1446/09 2025-03-02',
    ],
  },
  {
    year: 1404,
    source: 'calendar.ut.ac.ir Calendar-1404.pdf; gardshgar.com/holiday-1404',
    months: [
      '1446/10 2025-03-31',
      '1446/11 2025-04-29',
      '1446/12 2025-05-28',
      '1447/01 2025-06-27',
      '1447/02 2025-07-26',
      '1447/03 2025-08-25',
      '1447/04 2025-09-24',
      '1447/05 2025-10-23',
      '1447/06 2025-11-22',
      '1447/07 2025-12-22',
      '1447/08 2026-01-21',
      '1447/09 2026-02-19',
    ],
  },
  {
    year: 1405,
    source: 'pcci.ir تقویم 1405 (the official calendar as published); ilna.ir 1707051',
    months: [
      '1447/10 2026-03-21',
      '1447/11 2026-04-19',
      '1447/12 2026-05-18',
      '1448/01 2026-06-16',
      '1448/02 2026-07-16',
      '1448/03 2026-08-14',
      '1448/04 2026-09-13',
      '1448/05 2026-10-12',
      '1448/06 2026-11-11',
      '1448/07 2026-12-11',
      '1448/08 2027-01-10',
      '1448/09 2027-02-08',
      '1448/10 2027-03-10',
    ],
  },
];

/** Official holidays outside the solar and lunar rules: Jalali date and name. */
export const OFFICIAL_EXTRA_DAYS: Array<{ jalali: [number, number, number]; name: string }> = [
  // The leap year's last day, declared off because the year turned at noon that day.
  { jalali: [1403, 12, 30], name: 'Last day of the year (the new year began that day)' },
];

export interface MonthStart {
  /** Hijri year and month. */
  year: number;
  month: number;
  /** Day number (days since 1970-01-01) of the month's first day. */
  day: number;
}

function parseMonth(text: string): MonthStart {
  const match = /^(\d{4})\/(\d{2}) (\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) throw new Error(`official.ts: "${text}" is not "hijriYear/month YYYY-MM-DD"`);
  const [, year, month, gy, gm, gd] = match.map(Number) as number[];
  return { year: year!, month: month!, day: dayNumber({ year: gy!, month: gm!, day: gd! }) };
}

/** Every official month start, in order. */
export const OFFICIAL_MONTHS: MonthStart[] = OFFICIAL_YEARS.flatMap((y) => y.months.map(parseMonth));

/** The first and the last day (day numbers) that the shipped official years cover. */
export const OFFICIAL_FIRST_DAY = dayOfJalali({ year: OFFICIAL_YEARS[0]!.year, month: 1, day: 1 })!;
export const OFFICIAL_LAST_DAY = dayOfJalali({ year: OFFICIAL_YEARS.at(-1)!.year + 1, month: 1, day: 1 })! - 1;

const officialYears = new Set(OFFICIAL_YEARS.map((y) => y.year));

/** Whether the complete official calendar of a Jalali year is shipped. */
export function isOfficialYear(jalaliYear: number): boolean {
  return officialYears.has(jalaliYear);
}
