// Working-time arithmetic, the Iranian calendar and the configuration of the SLA clock (no database).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError, configWith, loadConfig } from '../../src/config.js';
import { SlaClock } from '../../src/modules/tickets/calendar/clock.js';
import {
  dayNumber,
  dayOfJalali,
  formatMoment,
  isoDate,
  jalaliOf,
  lunarOf,
  parseDateArgument,
} from '../../src/modules/tickets/calendar/dates.js';
import { iranHolidaysOn } from '../../src/modules/tickets/calendar/holidays.js';
import {
  addWorkingTime,
  intervalsOn,
  localDayOf,
  workingTimeBetween,
} from '../../src/modules/tickets/calendar/working-time.js';

const H = 3_600_000;
const business = (overrides: Record<string, string> = {}) =>
  new SlaClock({ ...configWith(), SLA_CLOCK: 'business', ...overrides } as never);
const day = (iso: string) => dayNumber({ year: +iso.slice(0, 4), month: +iso.slice(5, 7), day: +iso.slice(8, 10) });

describe('Jalali dates', () => {
  it('1 Farvardin of several years falls on the known Gregorian days', () => {
    const pairs: Array<[number, string]> = [
      [1398, '2019-03-21'],
      [1399, '2020-03-20'],
      [1400, '2021-03-21'],
      [1402, '2023-03-21'],
      [1403, '2024-03-20'],
      [1404, '2025-03-21'],
      [1405, '2026-03-21'],
    ];
    for (const [year, gregorian] of pairs) {
      expect(isoDate(dayOfJalali({ year, month: 1, day: 1 })!)).toBe(gregorian);
      expect(jalaliOf(day(gregorian))).toEqual({ year, month: 1, day: 1 });
    }
  });

  it('reads operator dates in both calendars and refuses dates that do not exist', () => {
    expect(isoDate(parseDateArgument('1405-01-01')!)).toBe('2026-03-21');
    expect(isoDate(parseDateArgument('2026-03-21')!)).toBe('2026-03-21');
    expect(isoDate(parseDateArgument('1403-12-30')!)).toBe('2025-03-20'); // 1403 is a leap year
    expect(parseDateArgument('1404-12-30')).toBeNull();
    expect(parseDateArgument('1404-07-31')).toBeNull();
    expect(parseDateArgument('2026-02-30')).toBeNull();
    expect(parseDateArgument('26-02-03')).toBeNull();
  });

  it('formats Persian moments in the Jalali calendar with Persian digits, English ones in the Gregorian', () => {
    const fa = formatMoment('2026-03-21T05:30:00.000Z', 'fa', 'Asia/Tehran');
    expect(fa).toContain('۱۴۰۵');
    expect(fa).toContain('فروردین');
    expect(fa).not.toMatch(/[0-9]/);
    expect(formatMoment('2026-03-21T05:30:00.000Z', 'en', 'Asia/Tehran')).toBe('21 March 2026 at 09:00 (Asia/Tehran)');
  });
});

describe('built-in Iranian holidays', () => {
  it('has the solar holidays of 1404 on their Gregorian days', () => {
    for (const iso of [
      '2025-03-21',
      '2025-03-22',
      '2025-03-23',
      '2025-03-24',
      '2025-04-01',
      '2025-04-02',
      '2025-06-04',
      '2025-06-05',
      '2026-02-11',
      '2026-03-20',
    ]) {
      expect(iranHolidaysOn(day(iso)).length, iso).toBeGreaterThan(0);
    }
    expect(iranHolidaysOn(day('2025-03-25'))).toEqual([]);
  });

  it('puts the lunar holidays on the official days, end of Safar included', () => {
    // 1 Shawwal 1445 (22 Farvardin 1403) and 10 Muharram 1446 (26 Tir 1403).
    expect(iranHolidaysOn(day('2024-04-10'))).toContain('Eid al-Fitr');
    expect(iranHolidaysOn(day('2024-04-11'))).toContain('Day after Eid al-Fitr');
    expect(iranHolidaysOn(day('2024-07-16'))).toContain('Ashura');
    // 17 Rabi al-Awwal 1446 is 31 Shahrivar 1403 (Umm al-Qura says the 20th, a day early).
    expect(iranHolidaysOn(day('2024-09-21'))).toContain("Birthday of the Prophet and Imam Ja'far al-Sadiq");
    expect(iranHolidaysOn(day('2024-09-20'))).toEqual([]);
    const endOfSafar = Array.from({ length: 400 }, (_, i) => day('2024-01-01') + i).filter((d) =>
      iranHolidaysOn(d).some((n) => n.includes('Imam Reza')),
    );
    expect(endOfSafar.map(isoDate)).toEqual(['2024-09-04']);
  });

  it('moves Eid al-Fitr 1446 from the Umm al-Qura 30 March 2025 to the official 31 March (11 Farvardin 1404)', () => {
    expect(lunarOf(day('2025-03-30'))).toMatchObject({ month: 10, day: 1 });
    expect(iranHolidaysOn(day('2025-03-30'))).toEqual([]);
    expect(iranHolidaysOn(day('2025-03-31'))).toEqual(['Eid al-Fitr']);
    expect(iranHolidaysOn(day('2025-04-01'))).toEqual(['Islamic Republic Day', 'Day after Eid al-Fitr']);
  });
});

describe('working time', () => {
  it('starts counting at the next opening when a ticket comes in on a Friday or after hours', () => {
    const clock = business();
    // Friday 2025-05-02 10:00 Tehran (+03:30): Saturday 08:00 + 1 h.
    expect(clock.deadline('2025-05-02T06:30:00.000Z', 1)).toBe('2025-05-03T05:30:00.000Z');
    // Sunday 20:00: Monday 08:00 + 4 h is 12:00, the lunch hour does not count.
    expect(clock.deadline('2025-05-04T16:30:00.000Z', 4)).toBe('2025-05-05T08:30:00.000Z');
    expect(clock.deadline('2025-05-04T16:30:00.000Z', 5)).toBe('2025-05-05T10:30:00.000Z');
  });

  it('skips a holiday in the middle of a multi-day deadline', () => {
    const clock = business({ SLA_HOLIDAYS: 'none', SLA_BUSINESS_HOURS: 'sat-thu 09:00-17:00', SLA_TIMEZONE: 'UTC' });
    expect(clock.deadline('2025-05-04T09:00:00.000Z', 24)).toBe('2025-05-06T17:00:00.000Z');
    clock.setOverrides([{ day: '2025-05-05', name: 'test', working: 0 }]);
    expect(clock.deadline('2025-05-04T09:00:00.000Z', 24)).toBe('2025-05-07T17:00:00.000Z');
  });

  it('an override can make a built-in holiday a working day', () => {
    const clock = business();
    const start = '2025-06-03T12:30:00.000Z'; // Tuesday 16:00; 14 and 15 Khordad (Wed, Thu) are holidays
    expect(clock.deadline(start, 2)).toBe('2025-06-07T05:30:00.000Z'); // Saturday 09:00
    clock.setOverrides([{ day: '2025-06-04', name: null, working: 1 }]);
    expect(clock.deadline(start, 2)).toBe('2025-06-04T05:30:00.000Z'); // Wednesday 09:00
  });

  it('counts periods that run past midnight', () => {
    const clock = business({ SLA_HOLIDAYS: 'none', SLA_BUSINESS_HOURS: 'sat-fri 22:00-02:00', SLA_TIMEZONE: 'UTC' });
    expect(clock.deadline('2025-05-05T23:00:00.000Z', 2)).toBe('2025-05-06T01:00:00.000Z');
    expect(clock.deadline('2025-05-05T23:00:00.000Z', 4)).toBe('2025-05-06T23:00:00.000Z');
    expect(clock.deadline('2025-05-06T01:30:00.000Z', 1)).toBe('2025-05-06T22:30:00.000Z');
    // A holiday on Tuesday takes off the period that starts on Tuesday night, not Monday night's.
    clock.setOverrides([{ day: '2025-05-06', name: null, working: 0 }]);
    expect(clock.deadline('2025-05-05T23:00:00.000Z', 4)).toBe('2025-05-07T23:00:00.000Z');
  });

  it("uses the zone's offset of the day: +04:30 in Tehran's summer before 2022, +03:30 since", () => {
    const clock = business();
    // Saturday 2021-07-03 08:00 Tehran was 03:30Z; Saturday 2023-06-03 08:00 is 04:30Z.
    expect(clock.deadline('2021-07-02T12:00:00.000Z', 1)).toBe('2021-07-03T04:30:00.000Z');
    // Friday 14 Khordad 1400, Saturday 15 Khordad and Sunday 25 Shawwal 1442 off: Monday 08:00 (+04:30).
    expect(clock.deadline('2021-06-04T12:00:00.000Z', 1)).toBe('2021-06-07T04:30:00.000Z');
    expect(clock.deadline('2023-06-02T12:00:00.000Z', 1)).toBe('2023-06-03T05:30:00.000Z');
  });

  it('passes Nowruz at the end of the Jalali year', () => {
    // Tuesday 28 Esfand 1403 16:00: 1 h, then 29 Esfand, 30 Esfand (the leap year's last day, off in
    // 1403's official calendar) and 1–4 Farvardin 1404 are off; 5 Farvardin (Tuesday) 8 h, the 6th 8,
    // the 7th (Thursday) 4 and Saturday 9 Farvardin 3 make 24: due at 11:00 Tehran.
    expect(business().deadline('2025-03-18T12:30:00.000Z', 24)).toBe('2025-03-29T07:30:00.000Z');
  });

  it("holds the README's worked example: Wednesday 27 Esfand 1404, 16:00 Tehran", () => {
    // High (4 h): 1 h that afternoon, 3 on Thursday morning. Normal (24 h): Friday 29 Esfand, 1–4
    // Farvardin 1405 (also Eid al-Fitr and the day after) and the next Friday are off.
    expect(business().deadline('2026-03-18T12:30:00.000Z', 4)).toBe('2026-03-19T07:30:00.000Z');
    expect(business().deadline('2026-03-18T12:30:00.000Z', 24)).toBe('2026-03-28T12:30:00.000Z');
    expect(formatMoment('2026-03-28T12:30:00.000Z', 'fa', 'Asia/Tehran')).toContain('۸ فروردین ۱۴۰۵');
  });

  const clocks = [
    business(),
    business({ SLA_BUSINESS_HOURS: 'sat-fri 22:00-02:00; ', SLA_TIMEZONE: 'UTC' }),
    business({
      SLA_BUSINESS_HOURS: 'sat-tue 08:00-12:00,13:00-17:00; wed 08:00-17:00; thu 08:00-13:00',
      SLA_TIMEZONE: 'Europe/Berlin',
    }),
  ];
  const moment = fc.integer({ min: Date.UTC(2019, 0, 1), max: Date.UTC(2027, 0, 1) });
  const amount = fc.integer({ min: 0, max: 120 * H });

  it('never ends outside working time, and counts exactly the working time asked for (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...clocks), moment, amount, (clock, from, ms) => {
        const end = addWorkingTime(clock, from, ms);
        const today = localDayOf(clock.timeZone, end);
        const inside = [today - 1, today].some((d) =>
          intervalsOn(clock, d).some(([a, b]) => a <= end && end <= b && (ms === 0 || a < end)),
        );
        expect(inside).toBe(true);
        expect(workingTimeBetween(clock, from, end)).toBe(ms);
      }),
      { numRuns: 150 },
    );
  });

  it('is monotonic in the amount and in the start (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...clocks),
        moment,
        fc.integer({ min: 0, max: 3 * 86_400_000 }),
        amount,
        amount,
        (clock, from, later, a, b) => {
          const [small, big] = a <= b ? [a, b] : [b, a];
          expect(addWorkingTime(clock, from, small)).toBeLessThanOrEqual(addWorkingTime(clock, from, big));
          expect(addWorkingTime(clock, from, small)).toBeLessThanOrEqual(addWorkingTime(clock, from + later, small));
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('configuration', () => {
  it('defaults to the wall clock in Tehran with the Iranian calendar', () => {
    const config = loadConfig({});
    expect([config.SLA_CLOCK, config.SLA_TIMEZONE, config.SLA_HOLIDAYS]).toEqual(['calendar', 'Asia/Tehran', 'iran']);
    expect(new SlaClock(config).deadline('2025-05-02T06:30:00.000Z', 1)).toBe('2025-05-02T07:30:00.000Z');
  });

  it.each([
    ['SLA_TIMEZONE', 'Asia/Nowhere', /^SLA_TIMEZONE must be an IANA time zone name/],
    ['SLA_CLOCK', 'office', /^SLA_CLOCK must be one of calendar, business/],
    ['SLA_HOLIDAYS', 'france', /^SLA_HOLIDAYS must be one of iran, none/],
    ['SLA_BUSINESS_HOURS', 'sat-tue 08:00-25:00', /^SLA_BUSINESS_HOURS must be .*bad time "25:00"/],
    ['SLA_BUSINESS_HOURS', 'sat-tue 08:00-12:00,11:00-13:00', /^SLA_BUSINESS_HOURS .*periods overlap/],
    ['SLA_BUSINESS_HOURS', 'sat 08:00-12:00; sat 13:00-14:00', /^SLA_BUSINESS_HOURS .*sat is named twice/],
    ['SLA_BUSINESS_HOURS', 'sat 22:00-09:00; sun 08:00-12:00', /^SLA_BUSINESS_HOURS .*runs into sun/],
    ['SLA_BUSINESS_HOURS', 'fun 08:00-12:00', /^SLA_BUSINESS_HOURS .*unknown day "fun"/],
    ['SLA_BUSINESS_HOURS', 'sat-tue', /^SLA_BUSINESS_HOURS .*has no periods/],
  ])('%s=%s stops the start with one line naming it', (name, value, message) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });
});
