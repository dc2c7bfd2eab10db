// npm run eval -- calendar: how often the lunar holidays land on their official day, for every
// Jalali year whose official calendar is shipped (src/modules/tickets/calendar/official.ts), by
//   crescent      the prediction for unpublished years: chained from the last month start that the
//                 previous year's calendar fixes (as if this year's were not out yet), each month 29
//                 days if the crescent is seen from Tehran on its 29th evening (Yallop A-D), else 30
//   umm-al-qura   ICU's islamic-umalqura calendar through Intl (what the clock used before)
// A holiday counts once per occurrence; "early"/"late" say which way the misses lean.
// Figures and the command are recorded in docs/performance.md ("SLA holiday calendar").
import { dayOfJalali, isoDate, lunarOf } from '../src/modules/tickets/calendar/dates.js';
import { lunarHolidaysOf } from '../src/modules/tickets/calendar/holidays.js';
import { type LunarDate, predictMonths } from '../src/modules/tickets/calendar/lunar-months.js';
import { type MonthStart, OFFICIAL_MONTHS, OFFICIAL_YEARS } from '../src/modules/tickets/calendar/official.js';

type Occurrences = Map<string, number>;

/** "lunarYear:key" → day, for the lunar holidays whose day falls in [first, last]. */
function occurrences(first: number, last: number, dateOf: (day: number) => LunarDate): Occurrences {
  const found: Occurrences = new Map();
  // Look a month beyond both ends so that a holiday moved across the year's edge is still found.
  for (let day = first - 31; day <= last + 31; day++) {
    const date = dateOf(day);
    for (const h of lunarHolidaysOf(date)) found.set(`${date.year}:${h.key}`, day);
  }
  return found;
}

function fromMonths(months: MonthStart[]): (day: number) => LunarDate {
  return (day) => {
    let i = months.length - 2;
    while (i > 0 && months[i]!.day > day) i--;
    const start = months[i]!;
    return {
      year: start.year,
      month: start.month,
      day: day - start.day + 1,
      length: months[i + 1]!.day - start.day,
      official: false,
    };
  };
}

function ummAlQura(day: number): LunarDate {
  const date = lunarOf(day);
  const first = day - date.day + 1;
  return { ...date, length: lunarOf(first + 29).day === 1 ? 29 : 30, official: false };
}

interface Score {
  right: number;
  early: number;
  late: number;
}

function score(truth: Occurrences, first: number, last: number, predicted: Occurrences): Score & { total: number } {
  const s = { total: 0, right: 0, early: 0, late: 0 };
  for (const [key, day] of truth) {
    if (day < first || day > last) continue;
    s.total++;
    const guess = predicted.get(key);
    if (guess === day) s.right++;
    else if (guess !== undefined && guess < day) s.early++;
    else s.late++;
  }
  return s;
}

const share = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)} %`;

export interface YearScore {
  year: number;
  total: number;
  crescent: Score;
  ummAlQura: Score;
  /** "lunarYear:key: official day, predicted day" for each crescent miss. */
  misses: string[];
}

/** Both methods against every shipped year (1395's anchor is 1394's last month, shipped with 1395). */
export function measureCalendar(): YearScore[] {
  const truthOf = fromMonths(OFFICIAL_MONTHS);
  return OFFICIAL_YEARS.map(({ year }) => {
    const first = dayOfJalali({ year, month: 1, day: 1 })!;
    const last = dayOfJalali({ year: year + 1, month: 1, day: 1 })! - 1;
    const truth = occurrences(first, last, truthOf);
    const anchor = OFFICIAL_MONTHS.filter((m) => m.day < first).at(-1)!;
    const guess = occurrences(first, last, fromMonths(predictMonths(anchor, last + 62, 'crescent')));
    const crescent = score(truth, first, last, guess);
    const misses = [...truth]
      .filter(([key, day]) => day >= first && day <= last && guess.get(key) !== day)
      .map(([key, day]) => `${key}: official ${isoDate(day)}, predicted ${isoDate(guess.get(key)!)}`);
    return {
      year,
      total: crescent.total,
      crescent,
      ummAlQura: score(truth, first, last, occurrences(first, last, ummAlQura)),
      misses,
    };
  });
}

export default async function run(args: string[]): Promise<number> {
  const verbose = args.includes('--misses');
  const totals = { total: 0, crescent: { right: 0, early: 0, late: 0 }, ummAlQura: { right: 0, early: 0, late: 0 } };
  process.stdout.write('year  lunar holidays  crescent (early/late)   umm-al-qura (early/late)\n');
  for (const year of measureCalendar()) {
    totals.total += year.total;
    for (const k of ['right', 'early', 'late'] as const) {
      totals.crescent[k] += year.crescent[k];
      totals.ummAlQura[k] += year.ummAlQura[k];
    }
    const cell = (s: Score) => `${String(s.right).padStart(2)}/${year.total} (${s.early}/${s.late})`.padEnd(24);
    process.stdout.write(
      `${year.year}  ${String(year.total).padStart(14)}  ${cell(year.crescent)}${cell(year.ummAlQura)}\n`,
    );
    if (verbose) for (const miss of year.misses) process.stdout.write(`      crescent miss ${miss}\n`);
  }
  const { total, crescent, ummAlQura } = totals;
  const crescentCell = `${share(crescent.right, total)} (${crescent.early}/${crescent.late})`;
  const ummAlQuraCell = `${share(ummAlQura.right, total)} (${ummAlQura.early}/${ummAlQura.late})`;
  process.stdout.write(`all   ${String(total).padStart(14)}  ${crescentCell.padEnd(24)}${ummAlQuraCell}\n`);
  return 0;
}
