// Operators' corrections to the SLA holiday calendar, stored in sla_holidays so every instance
// agrees (running servers re-read them within 30 s, calendar/clock.ts). A date is Jalali
// ("1405-01-01", year below 1700) or Gregorian ("2026-03-21").
import { CommandFailed, UsageError, requireString, type CliCommand, type CliContext } from '../../cli/command.js';
import { nowIso } from '../../db/index.js';
import { SlaClock } from './calendar/clock.js';
import { dayNumber, dayOfJalali, isoDate, jalaliOf, parseDateArgument } from './calendar/dates.js';
import { iranHolidayOn, iranHolidaysOn } from './calendar/holidays.js';
import { holidayOverrideOn, holidayOverrides, replaceHolidayOverride } from './holiday-query.js';

function dateOption(values: Record<string, string | boolean | undefined>): number {
  const text = requireString(values, 'date');
  const day = parseDateArgument(text);
  if (day === null) throw new UsageError('--date must be a date such as 1405-01-01 (Jalali) or 2026-03-21 (Gregorian)');
  return day;
}

function jalaliText(day: number): string {
  const j = jalaliOf(day);
  return `${j.year}-${String(j.month).padStart(2, '0')}-${String(j.day).padStart(2, '0')}`;
}

function builtInNames(context: CliContext, day: number): string[] {
  return context.config.SLA_HOLIDAYS === 'iran' ? iranHolidaysOn(day) : [];
}

function overrideOn(context: CliContext, day: number) {
  return holidayOverrideOn(context.db, isoDate(day));
}

export const holidayCommands: CliCommand[] = [
  {
    name: 'holiday:add',
    summary:
      'Make a day an SLA holiday (also a built-in holiday earlier made a working day); running servers pick it up within 30 s.',
    usage: '--date D [--name N]',
    options: {
      date: { type: 'string', description: '1405-01-01 (Jalali, year below 1700) or 2026-03-21 (Gregorian)' },
      name: { type: 'string', description: 'what the day is (at most 255 characters)' },
    },
    async run(values, context) {
      const day = dateOption(values);
      const name = typeof values.name === 'string' && values.name.trim() ? values.name.trim() : null;
      if (name && name.length > 255) throw new UsageError('--name must be at most 255 characters');
      const existing = await overrideOn(context, day);
      if (existing?.working === 0 || (!existing && builtInNames(context, day).length > 0)) {
        throw new CommandFailed(`${isoDate(day)} (${jalaliText(day)}) is already a holiday`);
      }
      // A built-in holiday that was worked goes back to the built-in calendar: no row needed.
      const builtIn = builtInNames(context, day).length > 0;
      await replaceHolidayOverride(
        context.db,
        isoDate(day),
        builtIn ? null : { name, working: 0, created_at: nowIso() },
      );
      context.out(`holiday added: ${isoDate(day)} (${jalaliText(day)})${name ? ` ${name}` : ''}`);
    },
  },
  {
    name: 'holiday:remove',
    summary: 'Make a day a working day: removes an added holiday, or marks a built-in one as worked.',
    usage: '--date D',
    options: { date: { type: 'string', description: '1405-01-01 (Jalali) or 2026-03-21 (Gregorian)' } },
    async run(values, context) {
      const day = dateOption(values);
      const existing = await overrideOn(context, day);
      const builtIn = builtInNames(context, day);
      if (existing?.working === 1 || (!existing && builtIn.length === 0)) {
        throw new CommandFailed(`${isoDate(day)} (${jalaliText(day)}) is not a holiday`);
      }
      await replaceHolidayOverride(
        context.db,
        isoDate(day),
        builtIn.length > 0 ? { name: builtIn.join('; '), working: 1, created_at: nowIso() } : null,
      );
      context.out(
        `holiday removed: ${isoDate(day)} (${jalaliText(day)})${builtIn.length ? ' (a built-in holiday, now a working day)' : ''}`,
      );
    },
  },
  {
    name: 'holiday:list',
    summary:
      'Print the SLA holidays of a Jalali year as JSON lines; source: official (a shipped calendar or the solar ' +
      'law), predicted (a lunar holiday of a year not yet published) or correction (holiday:add).',
    usage: '[--year Y]',
    options: { year: { type: 'string', description: 'Jalali year such as 1405 (default: the current one)' } },
    async run(values, context) {
      const raw = values.year;
      if (
        raw !== undefined &&
        (typeof raw !== 'string' || !/^\d{4}$/.test(raw) || Number(raw) < 1300 || Number(raw) > 1600)
      ) {
        throw new UsageError('--year must be a Jalali year from 1300 to 1600');
      }
      const year =
        raw === undefined
          ? jalaliOf(
              dayNumber({
                year: new Date().getUTCFullYear(),
                month: new Date().getUTCMonth() + 1,
                day: new Date().getUTCDate(),
              }),
            ).year
          : Number(raw);
      const clock = new SlaClock(context.config);
      const rows = await holidayOverrides(context.db);
      clock.setOverrides(rows);
      const added = new Map(rows.map((r) => [r.day, r]));
      const first = dayOfJalali({ year, month: 1, day: 1 })!;
      const next = dayOfJalali({ year: year + 1, month: 1, day: 1 })!;
      for (let day = first; day < next; day++) {
        if (!clock.isHoliday(day)) continue;
        const row = added.get(isoDate(day));
        const builtIn = context.config.SLA_HOLIDAYS === 'iran' ? iranHolidayOn(day) : null;
        const names = row ? [row.name ?? 'holiday'] : (builtIn?.names ?? []);
        const source = row ? 'correction' : builtIn!.source;
        context.out(JSON.stringify({ date: isoDate(day), jalali: jalaliText(day), names, source }));
      }
    },
  },
];
