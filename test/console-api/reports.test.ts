// The reports and the CSV export over a real socket, on the database under test: exact figures
// from tickets written with known moments, the range and its validation, the CSV streamed in
// batches with member-typed formulas neutralised, 401 and 403.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ticketRow, type TestUser, userWithToken } from '../helpers/factories.js';
import { FORBIDDEN, type StaffApi, startStaffApi } from '../helpers/staff-api.js';

let api: StaffApi;
let staff: TestUser;
let member: TestUser;

beforeAll(async () => {
  api = await startStaffApi();
  const db = api.database.db;
  staff = await userWithToken(db, { admin: true });
  member = await userWithToken(db, { firstName: '=cmd|calc', lastName: 'Evil' });
  await db
    .insertInto('tickets')
    .values([
      // Monday 2 Nov: answered in 30 min (met), resolved after 5 h (breached: 4 h).
      ticketRow({
        tracking_code: 'TK-REPORT01',
        priority: 'high',
        status: 'closed',
        created_at: '2026-11-02T08:00:00.000Z',
        first_response_due_at: '2026-11-02T09:00:00.000Z',
        first_response_at: '2026-11-02T08:30:00.000Z',
        sla_deadline: '2026-11-02T12:00:00.000Z',
        resolved_at: '2026-11-02T13:00:00.000Z',
        subject: '+SUM(A1:A9)',
        category: '=HYPERLINK("http://evil.example")',
        user_id: member.id,
        email: member.email,
      }),
      // Tuesday 3 Nov: answered after 5 h (breached), resolved after 10 h (met).
      ticketRow({
        tracking_code: 'TK-REPORT02',
        priority: 'normal',
        status: 'closed',
        created_at: '2026-11-03T10:00:00.000Z',
        first_response_due_at: '2026-11-03T14:00:00.000Z',
        first_response_at: '2026-11-03T15:00:00.000Z',
        sla_deadline: '2026-11-04T10:00:00.000Z',
        resolved_at: '2026-11-03T20:00:00.000Z',
        category: 'payments',
        subject: '-2+3',
        user_id: member.id,
        email: member.email,
      }),
      // Monday 10 Nov, still open, both deadlines past: breached twice.
      ticketRow({
        tracking_code: 'TK-REPORT03',
        priority: 'low',
        created_at: '2026-11-10T10:00:00.000Z',
        first_response_due_at: '2026-11-10T22:00:00.000Z',
        sla_deadline: '2026-11-13T10:00:00.000Z',
        category: 'payments',
        subject: '@SUM(1) "quoted", and more',
      }),
    ])
    .execute();
}, 180_000);

afterAll(async () => {
  await api?.close();
});

const report = async (path: string) => {
  const res = await api.call(staff.auth, 'GET', path);
  expect(res.status, res.text).toBe(200);
  return res.json.data;
};

describe('reports', () => {
  it('counts SLA compliance by priority and by week', async () => {
    const data = await report('/api/admin/reports/sla?from=2026-11-01&to=2026-11-30');
    const c = (met: number, breached: number) => ({ met, breached });
    expect(data).toEqual({
      by_priority: [
        { priority: 'high', first_response: c(1, 0), resolution: c(0, 1) },
        { priority: 'normal', first_response: c(0, 1), resolution: c(1, 0) },
        { priority: 'low', first_response: c(0, 1), resolution: c(0, 1) },
      ],
      by_week: [
        { week: '2026-11-02', first_response: c(1, 1), resolution: c(1, 1) },
        { week: '2026-11-09', first_response: c(0, 1), resolution: c(0, 1) },
      ],
    });
    // The range cuts by creation day, inclusive.
    const first = await report('/api/admin/reports/sla?from=2026-11-02&to=2026-11-02');
    expect(first.by_week).toEqual([{ week: '2026-11-02', first_response: c(1, 0), resolution: c(0, 1) }]);
  });

  it('measures first-response and resolution times: median and 90th percentile in minutes', async () => {
    const data = await report('/api/admin/reports/times');
    expect(data.overall).toEqual({
      first_response: { median: 30, p90: 300, count: 2 },
      resolution: { median: 300, p90: 600, count: 2 },
    });
    expect(data.by_priority).toEqual([
      {
        priority: 'high',
        first_response: { median: 30, p90: 30, count: 1 },
        resolution: { median: 300, p90: 300, count: 1 },
      },
      {
        priority: 'normal',
        first_response: { median: 300, p90: 300, count: 1 },
        resolution: { median: 600, p90: 600, count: 1 },
      },
      {
        priority: 'low',
        first_response: { median: null, p90: null, count: 0 },
        resolution: { median: null, p90: null, count: 0 },
      },
    ]);
  });

  it('counts the volume by day and by category', async () => {
    expect(await report('/api/admin/reports/volume?by=day&from=2026-11-01&to=2026-11-30')).toEqual({
      by: 'day',
      data: [
        { key: '2026-11-02', count: 1 },
        { key: '2026-11-03', count: 1 },
        { key: '2026-11-10', count: 1 },
      ],
    });
    expect(await report('/api/admin/reports/volume?by=category')).toEqual({
      by: 'category',
      data: [
        { key: 'payments', count: 2 },
        { key: '=HYPERLINK("http://evil.example")', count: 1 },
      ],
    });
  });

  it('refuses a bad range or grouping with the tickets 422; 401 and 403', async () => {
    for (const query of [
      'sla?from=2026-13-01',
      'sla?to=yesterday',
      'times?from=2026-11-30&to=2026-11-01',
      'volume',
      'volume?by=week',
    ]) {
      const res = await api.call(staff.auth, 'GET', `/api/admin/reports/${query}`);
      expect(res.status, query).toBe(422);
      expect(res.json.message).toBe('The given data was invalid.');
    }
    const reversed = await api.call(staff.auth, 'GET', '/api/admin/reports/sla?from=2026-11-30&to=2026-11-01');
    expect(reversed.json.errors).toEqual({ from: ['The from date must not be after the to date.'] });
    for (const path of ['sla', 'times', 'volume?by=day']) {
      expect((await api.call(null, 'GET', `/api/admin/reports/${path}`)).status).toBe(401);
      expect((await api.call(member.auth, 'GET', `/api/admin/reports/${path}`)).json).toEqual(FORBIDDEN);
    }
  });
});

describe('CSV export', () => {
  it('streams the filtered list with formulas neutralised and quotes doubled', async () => {
    const res = await fetch(`${api.server.url}/api/admin/tickets/export.csv?category=payments`, {
      headers: staff.auth,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="tickets-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    const bytes = Buffer.from(await res.arrayBuffer());
    // A byte order mark first (fetch's text() would drop it).
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\r\n');
    expect(lines[0]).toBe(
      'id,tracking_code,subject,status,priority,category,tags,member_name,member_email,assignee,sla_status,next_due_at,created_at,updated_at,resolved_at',
    );
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(",TK-REPORT02,'-2+3,closed,normal,payments,,'=cmd|calc Evil,");
    expect(lines[2]).toContain(`,TK-REPORT03,"'@SUM(1) ""quoted"", and more",open,low,payments,`);
    // sla_status in the API's one vocabulary (never the deprecated sla.status words).
    expect(lines[1]).toContain(',,met,,');
    expect(lines[2]).toMatch(/,overdue,\d{4}-/);
    const all = await (await fetch(`${api.server.url}/api/admin/tickets/export.csv`, { headers: staff.auth })).text();
    expect(all).toContain(`,TK-REPORT01,'+SUM(A1:A9),closed,high,"'=HYPERLINK(""http://evil.example"")",`);
    for (const cell of all.split(/[,\r\n]/)) expect(cell).not.toMatch(/^"?[=+\-@]/);
    expect(all).toMatch(/,TK-REPORT01,.*,missed,,/);
    expect(all).not.toMatch(/,(on_track|at_risk|breached),/);
  });

  it('writes more rows than one batch holds, each once, in id order', async () => {
    const db = api.database.db;
    const rows = Array.from({ length: 2_500 }, (_, i) =>
      ticketRow({ tracking_code: `TK-BULK${String(i).padStart(4, '0')}`, subject: `Row ${i}`, category: 'many' }),
    );
    for (let i = 0; i < rows.length; i += 500)
      await db
        .insertInto('tickets')
        .values(rows.slice(i, i + 500))
        .execute();
    const text = await (
      await fetch(`${api.server.url}/api/admin/tickets/export.csv?category=many`, { headers: staff.auth })
    ).text();
    const ids = text
      .trim()
      .split('\r\n')
      .slice(1)
      .map((line) => Number(line.split(',')[0]));
    expect(ids).toHaveLength(2_500);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(2_500);
  });

  it('refuses a bad filter with the tickets 422; 401 and 403', async () => {
    const bad = await api.call(staff.auth, 'GET', '/api/admin/tickets/export.csv?view=everything');
    expect(bad.status).toBe(422);
    expect((await api.call(null, 'GET', '/api/admin/tickets/export.csv')).json).toEqual({
      message: 'Unauthenticated.',
    });
    expect((await api.call(member.auth, 'GET', '/api/admin/tickets/export.csv')).json).toEqual(FORBIDDEN);
  });
});
