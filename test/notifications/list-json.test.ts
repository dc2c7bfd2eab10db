// GET /api/notifications writes its list from the rows (notifications/list-json.ts) with each
// item's data as stored, and the stored data is the text its schema's serializer wrote
// (notifications/data-text.ts). Both must give the bytes of the route's response schema for every
// type, with nulls, escapes, lone surrogates and Persian text; data its schema refuses is not written.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataText, pendingDataText } from '../../src/modules/notifications/data-text.js';
import {
  NOTIFICATION_TYPES,
  NotificationBuilder,
  type PendingNotification,
} from '../../src/modules/notifications/events.js';
import { unreadListJson } from '../../src/modules/notifications/list-json.js';
import { Notification, NotificationList } from '../../src/modules/notifications/schemas.js';

const builder = new NotificationBuilder('https://app.example.com');
const owner = { id: 1, locale: 'en' as const };
const investor = { id: 2, locale: 'fa' as const };
const project = { id: 7, title: 'Orchard "North" \\ 1\n\u0001 \u{1F333} \ud800 باغ\u200cها \u2028' };
const investment = { id: 9, project_id: 7, amount: 1_250_000, notes: 'refund: 20 %' };

const pending: PendingNotification[] = [
  builder.projectStatusChanged(owner, project, 'approved', null),
  builder.projectStatusChanged(investor, project, 'rejected', 'Needs a "budget" line'),
  builder.projectRevisionRequested(owner, project, 'Add the map.\tThanks'),
  builder.newInvestmentReceived(owner, project, investment, 'Ada </script> Lovelace'),
  builder.investmentStatusChanged(investor, project, investment, 'refunded'),
  builder.investmentStatusChanged(owner, project, { ...investment, notes: null }, 'paid'),
];

const rows = pending.map((n, i) => ({
  id: randomUUID(),
  type: n.type,
  data: pendingDataText(n),
  created_at: `2026-11-2${i}T08:00:00.123Z`,
}));
const parsed = pending.map((n, i) => ({
  id: rows[i]!.id,
  type: n.type,
  data: n.data,
  read_at: null,
  created_at: rows[i]!.created_at,
}));

describe('the notification list as written from stored data', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = Fastify({ logger: false });
    app.get('/list', { schema: { response: { 200: NotificationList } } }, async () => parsed);
    app.get(
      '/one/:i',
      { schema: { response: { 200: Notification } } },
      async (req) => parsed[Number((req.params as { i: string }).i)],
    );
    await app.ready();
  });
  afterAll(() => app.close());

  it('covers every type', () => {
    expect(new Set(pending.map((n) => n.type))).toEqual(new Set(NOTIFICATION_TYPES));
  });

  it('writes the bytes of the response schema for every type', async () => {
    const res = await app.inject({ method: 'GET', url: '/list' });
    expect(res.statusCode).toBe(200);
    const ours = Buffer.from(unreadListJson(rows));
    expect(ours.equals(res.rawPayload)).toBe(true);
    expect(JSON.parse(ours.toString())).toEqual(JSON.parse(res.payload));
  });

  it("stores each type's data as the response serializer writes it, and as JSON.stringify wrote it before", async () => {
    for (let i = 0; i < pending.length; i++) {
      const res = await app.inject({ method: 'GET', url: `/one/${i}` });
      const served = res.payload.slice(res.payload.indexOf('"data":') + 7, res.payload.lastIndexOf(',"read_at"'));
      expect(rows[i]!.data).toBe(served);
      // Rows written by earlier versions hold JSON.stringify's text of the same builders.
      expect(rows[i]!.data).toBe(JSON.stringify(pending[i]!.data));
    }
  });

  it('writes an empty list as []', () => {
    expect(unreadListJson([])).toBe('[]');
  });

  it("refuses data that its type's schema refuses", () => {
    const [approved, , revision, received] = pending;
    const bad: Array<[string, unknown]> = [
      ['project_status_changed', { ...approved!.data, status: 'draft' }],
      ['project_status_changed', { ...approved!.data, type: 'project_revision_requested' }],
      ['project_revision_requested', { ...revision!.data, revision_notes: undefined }],
      ['new_investment_received', { ...received!.data, amount: 1.5 }],
      ['new_investment_received', { ...received!.data, amount: '100' }],
      ['investment_status_changed', received!.data],
    ];
    for (const [type, data] of bad)
      expect(() => dataText(type as never, data as never), `${type} ${JSON.stringify(data)}`).toThrow(TypeError);
  });
});
