// GET /api/notifications writes its list with a serializer per notification type
// (http/tagged-list.ts) instead of the response schema's union serializer. Both must give the same
// bytes for every type, with nulls, escapes and Persian text; an item of no known type is refused.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nullablesAsTypeLists, taggedListSerializer } from '../../src/http/tagged-list.js';
import { NotificationBuilder, type PendingNotification } from '../../src/modules/notifications/events.js';
import { NotificationList, NotificationOfType } from '../../src/modules/notifications/schemas.js';

const builder = new NotificationBuilder('https://app.example.com');
const owner = { id: 1, locale: 'en' as const };
const investor = { id: 2, locale: 'fa' as const };
const project = { id: 7, title: 'Orchard "North" \\ 1\n\u0001 \u{1F333}' };
const investment = { id: 9, project_id: 7, amount: 1_250_000, notes: 'refund: 20 %' };

const pending: PendingNotification[] = [
  builder.projectStatusChanged(owner, project, 'approved', null),
  builder.projectStatusChanged(investor, project, 'rejected', 'Needs a "budget" line'),
  builder.projectRevisionRequested(owner, project, 'Add the map.\tThanks'),
  builder.newInvestmentReceived(owner, project, investment, 'Ada Lovelace'),
  builder.investmentStatusChanged(investor, project, investment, 'refunded'),
  builder.investmentStatusChanged(owner, project, { ...investment, notes: null }, 'paid'),
];

const items = pending.map((n, i) => ({ id: randomUUID(), type: n.type, data: n.data, read_at: i === 1 ? '2026-11-23T10:00:00.000Z' : null, created_at: `2026-11-2${i}T08:00:00.123Z` }));

describe('the notification list serializer', () => {
  let app: FastifyInstance;
  const tagged = taggedListSerializer('type', NotificationOfType);

  beforeAll(async () => {
    app = Fastify({ logger: false });
    const schema = { response: { 200: NotificationList } };
    app.get('/union', { schema }, async () => items);
    app.get('/tagged', { schema }, async (_req, reply) => reply.type('application/json; charset=utf-8').send(tagged(reply, items)));
    app.get('/unknown', { schema }, async (_req, reply) => reply.send(tagged(reply, [...items, { ...items[0]!, type: 'other' }])));
    await app.ready();
  });
  afterAll(() => app.close());

  it('writes the bytes of the response schema for every type', async () => {
    const union = await app.inject({ method: 'GET', url: '/union' });
    const tagged = await app.inject({ method: 'GET', url: '/tagged' });
    expect(union.statusCode).toBe(200);
    expect(tagged.statusCode).toBe(200);
    expect(new Set(items.map((i) => i.type)).size).toBe(Object.keys(NotificationOfType).length);
    expect(tagged.rawPayload.equals(union.rawPayload)).toBe(true);
    expect(JSON.parse(tagged.payload)).toEqual(items);
  });

  it('writes an empty list as []', async () => {
    const reply = { compileSerializationSchema: () => () => '' } as never;
    expect(tagged(reply, [])).toBe('[]');
  });

  it('refuses an item whose type is none of the four', async () => {
    const res = await app.inject({ method: 'GET', url: '/unknown' });
    expect(res.statusCode).toBe(500);
  });

  it('writes a nullable primitive as a type list and leaves every other union as it is', () => {
    const objectOrNull = { anyOf: [{ type: 'object', properties: {} }, { type: 'null' }] };
    const schema = {
      type: 'object',
      properties: {
        a: { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'd' },
        b: { anyOf: [{ type: 'null' }, { type: 'integer', minimum: 0 }] },
        c: objectOrNull,
        d: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        e: { anyOf: [{ type: 'string', const: 'x' }, { type: 'null' }] },
        f: { type: 'array', items: { anyOf: [{ type: 'boolean' }, { type: 'null' }] } },
      },
    };
    expect(nullablesAsTypeLists(schema)).toEqual({
      type: 'object',
      properties: {
        a: { type: ['string', 'null'], description: 'd' },
        b: { type: ['integer', 'null'], minimum: 0 },
        c: objectOrNull,
        d: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        e: { anyOf: [{ type: 'string', const: 'x' }, { type: 'null' }] },
        f: { type: 'array', items: { type: ['boolean', 'null'] } },
      },
    });
  });
});
