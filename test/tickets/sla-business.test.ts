// The business SLA clock end to end, on the test database (SQLite or PostgreSQL): the holidays
// table and its commands, deadlines on create and on a priority change, the detail's sla object,
// the staff list's sla_status filter and sla_deadline sort, and the Persian confirmation mail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandFailed, UsageError, type CliContext } from '../../src/cli/command.js';
import { REFRESH_MS, slaClockOf } from '../../src/modules/tickets/calendar/clock.js';
import { END_OF_SAFAR } from '../../src/modules/tickets/calendar/holidays.js';
import { workingTimeBetween } from '../../src/modules/tickets/calendar/working-time.js';
import { commands } from '../../src/modules/tickets/commands.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';
import { createTicketFor } from './helpers.js';

const H = 3_600_000;

describe('SLA_CLOCK=business', () => {
  let t: TestApp;
  let owner: TestUser;
  let admin: TestUser;
  const out: string[] = [];
  let context: CliContext;
  const run = (name: string, values: Record<string, string>) =>
    commands.find((c) => c.name === name)!.run(values, context);

  beforeAll(async () => {
    t = await buildTestApp({ config: { SLA_CLOCK: 'business' } });
    owner = await t.makeUser({ locale: 'fa' });
    admin = await t.makeUser({ admin: true });
    context = { config: t.config, db: t.db, dialect: 'sqlite', out: (l) => out.push(l), progress: () => {} };
  });
  afterAll(() => t.close());

  const detail = async (id: number) =>
    (await t.app.inject({ method: 'GET', url: `/api/admin/tickets/${id}`, headers: admin.auth })).json().data;

  it("counts a new ticket's targets in working time and shows them in the sla object", async () => {
    const ticket = await createTicketFor(t, owner, { priority: 'normal' });
    const shown = await detail(ticket.id);
    const created = Date.parse(shown.created_at);
    expect(workingTimeBetween(slaClockOf(t.config), created, Date.parse(shown.sla_deadline))).toBe(24 * H);
    expect(workingTimeBetween(slaClockOf(t.config), created, Date.parse(shown.first_response_due_at))).toBe(4 * H);
    expect(shown.sla).toEqual({
      clock: 'business',
      time_zone: 'Asia/Tehran',
      status: 'on_track',
      first_response_due_at: shown.first_response_due_at,
      first_response_at: null,
      resolution_due_at: shown.sla_deadline,
      resolved_at: null,
    });
  });

  it('recalculates from the creation in working time on a priority change, and picks up an added holiday within 30 s', async () => {
    const ticket = await createTicketFor(t, owner, { priority: 'low' });
    // Friday 12 Ordibehesht 1404, 10:00 Tehran.
    await t.db
      .updateTable('tickets')
      .set({ created_at: '2025-05-02T06:30:00.000Z' })
      .where('id', '=', ticket.id)
      .execute();
    const put = (priority: string) =>
      t.app.inject({ method: 'PUT', url: `/api/tickets/${ticket.id}`, headers: owner.auth, payload: { priority } });
    const high = await put('high');
    expect(high.statusCode).toBe(200);
    // Saturday 08:00 + 4 working hours = 12:00 Tehran.
    expect(high.json().data.sla_deadline).toBe('2025-05-03T08:30:00.000Z');
    expect((await detail(ticket.id)).sla.first_response_due_at).toBe('2025-05-03T05:30:00.000Z');

    await run('holiday:add', { date: '1404-02-13', name: 'Test closure' }); // Saturday 2025-05-03
    expect(out.at(-1)).toBe('holiday added: 2025-05-03 (1404-02-13) Test closure');
    await slaClockOf(t.config).refresh(t.db, false, Date.now() + REFRESH_MS);
    await put('normal');
    expect((await put('high')).json().data.sla_deadline).toBe('2025-05-04T08:30:00.000Z');
  });

  it('holiday:add, holiday:remove and holiday:list keep the table and refuse what makes no sense', async () => {
    await expect(run('holiday:add', { date: '2025-05-03' })).rejects.toThrow(
      new CommandFailed('2025-05-03 (1404-02-13) is already a holiday'),
    );
    await expect(run('holiday:add', { date: '1404-01-01' })).rejects.toBeInstanceOf(CommandFailed); // Nowruz, built in
    await expect(run('holiday:add', { date: '1404-12-30' })).rejects.toThrow(
      new UsageError('--date must be a date such as 1405-01-01 (Jalali) or 2026-03-21 (Gregorian)'),
    );
    await expect(run('holiday:add', {})).rejects.toThrow(new UsageError('--date is required'));
    await expect(run('holiday:remove', { date: '2025-05-05' })).rejects.toThrow(
      new CommandFailed('2025-05-05 (1404-02-15) is not a holiday'),
    );
    await expect(run('holiday:list', { year: '99' })).rejects.toBeInstanceOf(UsageError);

    // A built-in holiday made a working day, then a holiday again.
    await run('holiday:remove', { date: '2025-06-04' });
    expect(out.at(-1)).toBe('holiday removed: 2025-06-04 (1404-03-14) (a built-in holiday, now a working day)');
    let rows = await t.db.selectFrom('sla_holidays').select(['day', 'working']).orderBy('day').execute();
    expect(rows.map((r) => [r.day, Number(r.working)])).toEqual([
      ['2025-05-03', 0],
      ['2025-06-04', 1],
    ]);

    out.length = 0;
    await run('holiday:list', { year: '1404' });
    const listed = out.map((l) => JSON.parse(l));
    expect(listed.find((h) => h.date === '2025-05-03')).toEqual({
      date: '2025-05-03',
      jalali: '1404-02-13',
      names: ['Test closure'],
      source: 'correction',
    });
    expect(listed.find((h) => h.date === '2025-06-04')).toBeUndefined();
    expect(listed.filter((h) => h.jalali.startsWith('1404-01-0')).map((h) => h.jalali)).toEqual([
      '1404-01-01',
      '1404-01-02',
      '1404-01-03',
      '1404-01-04',
    ]);
    // 29 Esfand 1404 is 1 Shawwal 1447 in the Umm al-Qura calendar, but officially 30 Ramadan: Eid al-Fitr is 1 Farvardin 1405.
    expect(listed.at(-1)).toEqual({
      date: '2026-03-20',
      jalali: '1404-12-29',
      names: ['Nationalisation of the oil industry'],
      source: 'official',
    });

    await run('holiday:add', { date: '1404-03-14' });
    await run('holiday:remove', { date: '2025-05-03' });
    rows = await t.db.selectFrom('sla_holidays').select(['day', 'working']).execute();
    expect(rows).toEqual([]);
  });

  it('lists the lunar holidays of 1404 on their official days, not the day before', async () => {
    out.length = 0;
    await run('holiday:list', { year: '1404' });
    const listed = out.map((l) => JSON.parse(l));
    expect(listed).toHaveLength(26);
    expect(listed.every((h) => h.source === 'official')).toBe(true);
    const names = (jalali: string) => listed.find((h) => h.jalali === jalali)?.names;
    const official: Array<[string, string]> = [
      ['1404-05-23', 'Arbaeen'],
      ['1404-06-02', END_OF_SAFAR],
      ['1404-06-10', 'Martyrdom of Imam Hasan al-Askari'],
      ['1404-06-19', "Birthday of the Prophet and Imam Ja'far al-Sadiq"],
      ['1404-10-13', 'Birthday of Imam Ali'],
      ['1404-10-27', "Mab'ath (the Prophet's mission)"],
      ['1404-11-15', "Birthday of the Mahdi (15 Sha'ban)"],
      ['1404-12-20', 'Martyrdom of Imam Ali'],
    ];
    for (const [jalali, name] of official) {
      expect(names(jalali), jalali).toEqual([name]);
      // The day before, where the Umm al-Qura calendar put it, is a working day.
      const before = `${jalali.slice(0, 8)}${String(Number(jalali.slice(8)) - 1).padStart(2, '0')}`;
      expect(names(before), before).toBeUndefined();
    }
    // A ticket opened on Tuesday 18 Shahrivar 1404, 10:00 Tehran: Wednesday (17 Rabi al-Awwal) is off.
    const clock = slaClockOf(t.config);
    expect(clock.deadline('2025-09-09T06:30:00.000Z', 4)).toBe('2025-09-09T11:30:00.000Z');
    expect(clock.deadline('2025-09-09T06:30:00.000Z', 8)).toBe('2025-09-11T06:30:00.000Z');
  });

  it('marks the lunar holidays of 1406 as predicted, and an operator can move one', async () => {
    const list = async () => {
      out.length = 0;
      await run('holiday:list', { year: '1406' });
      return out.map((l) => JSON.parse(l));
    };
    const before = await list();
    const ashura = before.find((h) => h.names.includes('Ashura'));
    expect(ashura.source).toBe('predicted');
    expect(before.find((h) => h.jalali === '1406-01-01')).toMatchObject({ names: ['Nowruz'], source: 'official' });
    const nextDay = `${ashura.jalali.slice(0, 8)}${String(Number(ashura.jalali.slice(8)) + 1).padStart(2, '0')}`;

    await run('holiday:remove', { date: ashura.jalali });
    await run('holiday:add', { date: nextDay, name: 'Ashura (announced)' });
    const after = await list();
    expect(after.find((h) => h.jalali === ashura.jalali)).toBeUndefined();
    expect(after.find((h) => h.jalali === nextDay)).toMatchObject({
      names: ['Ashura (announced)'],
      source: 'correction',
    });
    expect(after).toHaveLength(before.length);

    await run('holiday:add', { date: ashura.jalali });
    await run('holiday:remove', { date: nextDay });
    expect(await list()).toEqual(before);
    expect(await t.db.selectFrom('sla_holidays').select('day').execute()).toEqual([]);
  });

  it("filters and sorts the staff list by SLA status in both vocabularies, agreeing with each ticket's sla_status and sla.status", async () => {
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const made: number[] = [];
    // [created, deadline, status, resolved]
    const cases: Array<[number, number, string, number | null, string]> = [
      [now - 10 * H, now + 10 * H, 'open', null, 'on_track'],
      [now - 10 * H, now + 1 * H, 'in-progress', null, 'at_risk'],
      [now - 10 * H, now - 1 * H, 'open', null, 'breached'],
      [now - 10 * H, now - 5 * H, 'closed', now - 2 * H, 'breached'],
      [now - 10 * H, now - 2 * H, 'closed', now - 3 * H, 'met'],
    ];
    for (const [created, deadline, status, resolved] of cases) {
      const ticket = await createTicketFor(t, owner, { subject: 'SLA filter case' });
      await t.db
        .updateTable('tickets')
        .set({
          created_at: iso(created),
          sla_deadline: iso(deadline),
          status: status as 'open',
          resolved_at: resolved === null ? null : iso(resolved),
        })
        .where('id', '=', ticket.id)
        .execute();
      made.push(ticket.id);
    }
    const list = (query: string) =>
      t.app.inject({ method: 'GET', url: `/api/admin/tickets?q=SLA%20filter%20case${query}`, headers: admin.auth });
    for (const status of ['on_track', 'at_risk', 'breached', 'met']) {
      const res = await list(`&sla_status=${status}&sort=sla_deadline`);
      expect(res.statusCode).toBe(200);
      const expected = cases
        .map((c, i) => [c[1], made[i]!, c[4]] as const)
        .filter((c) => c[2] === status)
        .sort((a, b) => a[0] - b[0])
        .map((c) => c[1]);
      expect(
        res.json().data.map((d: { id: number }) => d.id),
        status,
      ).toEqual(expected);
      for (const id of expected) expect((await detail(id)).sla.status).toBe(status);
    }
    // The spec's words (sla_status), each agreeing with the ticket's own sla_status.
    const specWords = ['on_time', 'warning', 'overdue', 'missed', 'met'];
    for (const [i, word] of specWords.entries()) {
      const res = await list(`&sla_status=${word}`);
      expect(res.statusCode, word).toBe(200);
      expect(
        res.json().data.map((d: { id: number; sla_status: string }) => [d.id, d.sla_status]),
        word,
      ).toEqual([[made[i], word]]);
    }
    const sorted = await list('&sort=sla_deadline');
    expect(sorted.json().data.map((d: { id: number }) => d.id)).toEqual([made[3], made[4], made[2], made[1], made[0]]);
    const newest = await list('');
    expect(newest.json().data.map((d: { id: number }) => d.id)).toEqual([...made].reverse());
  });

  it('answers 422 for an unknown sla_status or sort', async () => {
    for (const [name, value] of [
      ['sla_status', 'late'],
      ['sort', 'priority'],
    ] as const) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/admin/tickets?${name}=${value}`,
        headers: admin.auth,
      });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        success: false,
        message: 'Validation error.',
        errors: { [name]: [`The selected ${name.replace('_', ' ')} is invalid.`] },
      });
    }
  });

  it('writes the Persian confirmation mail with a Jalali deadline in Persian digits', async () => {
    const ticket = await createTicketFor(t, owner, { subject: 'Jalali mail' });
    const mail = await t.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('to_address', '=', owner.email)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const line = mail.text_body.split('\n').find((l) => l.startsWith('مهلت رسیدگی'))!;
    expect(line).toMatch(/[۰-۹]{4}/);
    expect(line).not.toMatch(/[0-9]/);
    expect(ticket.id).toBeGreaterThan(0);
  });
});

describe('SLA_CLOCK=calendar (the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('keeps wall-clock deadlines, says so in the sla object, and writes English mail in the Gregorian calendar', async () => {
    const owner = await t.makeUser();
    const admin = await t.makeUser({ admin: true });
    const ticket = await createTicketFor(t, owner, { priority: 'high' });
    const shown = (
      await t.app.inject({ method: 'GET', url: `/api/admin/tickets/${ticket.id}`, headers: admin.auth })
    ).json().data;
    expect(Date.parse(shown.sla_deadline) - Date.parse(shown.created_at)).toBe(4 * H);
    expect(shown.sla).toMatchObject({
      clock: 'calendar',
      time_zone: 'Asia/Tehran',
      status: 'on_track',
      resolution_due_at: shown.sla_deadline,
    });
    const mail = await t.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('to_address', '=', owner.email)
      .executeTakeFirstOrThrow();
    const year = new Date(shown.sla_deadline).getUTCFullYear();
    expect(mail.text_body).toMatch(
      new RegExp(`Expected resolution by: \\d{1,2} [A-Z][a-z]+ ${year} at \\d{2}:\\d{2} \\(Asia/Tehran\\)`),
    );
  });
});
