// GET /api/tickets (and /stats) reuses the answer it built for a caller and query until a ticket in the caller's
// list changes (its tickets version in answer_versions, raised by triggers) or a row's SLA status is due to move.
// These tests hold it to both halves: every kind of change, made through another instance or with
// SQL behind the service, shows on the next request; an unchanged list is answered from memory.
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { SLA_HOURS, slaStatusChangesAt, slaStatusOf, type SlaFacts } from '../../src/modules/tickets/sla.js';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';
import { ticketRow, userWithToken } from '../helpers/factories.js';
import { answerVersion } from '../../src/db/answer-versions.js';

describe('slaStatusChangesAt', () => {
  const HOUR = 3_600_000;
  const facts = fc.record({
    status: fc.constantFrom('open', 'in-progress', 'closed') as fc.Arbitrary<SlaFacts['status']>,
    created: fc.integer({ min: 1_700_000_000_000, max: 1_800_000_000_000 }),
    hours: fc.constantFrom(1, 4, 12, 24, 72),
    resolvedAfter: fc.option(fc.integer({ min: 0, max: 100 * HOUR })),
    // Invalid data too: a deadline before the creation.
    skew: fc.integer({ min: -2 * HOUR, max: 0 }),
  });
  const ticketOf = (f: {
    status: SlaFacts['status'];
    created: number;
    hours: number;
    resolvedAfter: number | null;
    skew: number;
  }): SlaFacts => ({
    status: f.status,
    created_at: new Date(f.created).toISOString(),
    sla_deadline: new Date(f.created + f.hours * HOUR + f.skew).toISOString(),
    resolved_at: f.resolvedAfter === null ? null : new Date(f.created + f.resolvedAfter).toISOString(),
  });

  it('is the first millisecond at which slaStatusOf answers differently, or Infinity when it never will', () => {
    fc.assert(
      fc.property(facts, fc.integer({ min: -HOUR, max: 100 * HOUR }), (f, offset) => {
        const ticket = ticketOf(f);
        const now = f.created + offset;
        const status = slaStatusOf(ticket, now);
        const at = slaStatusChangesAt(ticket, now);
        if (at === Number.POSITIVE_INFINITY) {
          // Never again: checked far ahead.
          expect(slaStatusOf(ticket, now + 1_000 * HOUR)).toBe(status);
          return;
        }
        expect(at).toBeGreaterThan(now);
        expect(slaStatusOf(ticket, at - 1)).toBe(status);
        expect(slaStatusOf(ticket, at)).not.toBe(status);
      }),
      { numRuns: 2_000 },
    );
  });

  it('names the start of the warning and the deadline of an open ticket', () => {
    const created = Date.parse('2026-01-01T00:00:00.000Z');
    const ticket: SlaFacts = {
      status: 'open',
      created_at: new Date(created).toISOString(),
      sla_deadline: new Date(created + 4 * HOUR).toISOString(),
      resolved_at: null,
    };
    const warningFrom = created + 4 * HOUR - 4 * HOUR * SLA_HOURS.warningShare + 1;
    expect(slaStatusChangesAt(ticket, created)).toBe(warningFrom);
    expect(slaStatusChangesAt(ticket, warningFrom)).toBe(created + 4 * HOUR + 1);
    expect(slaStatusChangesAt(ticket, created + 4 * HOUR + 1)).toBe(Number.POSITIVE_INFINITY);
  });
});

interface Summary {
  id: number;
  subject: string;
  status: string;
  priority: string;
  assignee: { first_name: string } | null;
  tags: Array<{ name: string }>;
  sla_status: string;
}

describe('GET /api/tickets across instances and behind the service', () => {
  let database: TestDatabase;
  let first: FastifyInstance;
  let second: FastifyInstance;
  let uncached: FastifyInstance;
  let admin: { id: number; auth: Record<string, string> };

  const appOn = async (cacheMb: number) => {
    const app = await buildApp({
      config: { ...database.config, TICKETS_CACHE_MB: cacheMb },
      database: database.handle,
      logger: false,
      loadGeoData: false,
      startWorkers: false,
    });
    await app.ready();
    return app;
  };

  const person = (options: { admin?: boolean; firstName?: string; email?: string } = {}) =>
    userWithToken(database.db, options);

  beforeAll(async () => {
    database = await createTestDatabase({ LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: 0 });
    // Two instances sharing one database, each with its own answers, and one with the cache off.
    first = await appOn(16);
    second = await appOn(16);
    uncached = await appOn(0);
    admin = await person({ admin: true, firstName: 'Dana' });
  });
  afterAll(async () => {
    await Promise.all([first.close(), second.close(), uncached.close()]);
    await database.destroy();
  });

  async function listOn(app: FastifyInstance, auth: Record<string, string>, query = ''): Promise<Summary[]> {
    const res = await app.inject({ method: 'GET', url: `/api/tickets${query}`, headers: auth });
    expect(res.statusCode).toBe(200);
    return res.json().data;
  }

  async function open(
    app: FastifyInstance,
    auth: Record<string, string>,
    subject: string,
    extra: Record<string, unknown> = {},
  ): Promise<number> {
    const res = await app.inject({
      method: 'POST',
      url: '/api/tickets',
      headers: auth,
      payload: { subject, message: 'Please look into this for me.', priority: 'normal', ...extra },
    });
    expect(res.statusCode).toBe(201);
    return res.json().data.id;
  }

  const versionOf = (userId: number) => answerVersion(database.db, userId, 'tickets');
  const setVersion = (userId: number, version: number) =>
    database.db
      .updateTable('answer_versions')
      .set({ version })
      .where('user_id', '=', userId)
      .where('scope', '=', 'tickets')
      .execute();

  it('answers an unchanged list from memory, byte for byte what it built', async () => {
    const user = await person();
    await open(first, user.auth, 'Orchard');
    const built = await first.inject({ method: 'GET', url: '/api/tickets', headers: user.auth });
    const reused = await first.inject({ method: 'GET', url: '/api/tickets', headers: user.auth });
    const fresh = await uncached.inject({ method: 'GET', url: '/api/tickets', headers: user.auth });
    expect(reused.body).toBe(built.body);
    expect(fresh.body).toBe(built.body);
    expect(reused.headers['content-type']).toBe(fresh.headers['content-type']);
    // An edit whose version raise is undone is not seen: the answer really comes from memory...
    const version = await versionOf(user.id);
    await database.db.updateTable('tickets').set({ subject: 'Changed' }).where('user_id', '=', user.id).execute();
    await setVersion(user.id, version);
    expect((await listOn(first, user.auth)).map((t) => t.subject)).toEqual(['Orchard']);
    // ...while an instance with the cache off reads the tickets every time.
    expect((await listOn(uncached, user.auth)).map((t) => t.subject)).toEqual(['Changed']);
  });

  it('shows tickets opened, changed, closed and reopened through another instance on the next request', async () => {
    const user = await person();
    const barn = await open(first, user.auth, 'Barn');
    expect((await listOn(first, user.auth)).map((t) => t.subject)).toEqual(['Barn']);
    await open(second, user.auth, 'Silo');
    expect((await listOn(first, user.auth)).map((t) => t.subject)).toEqual(['Silo', 'Barn']);
    expect(
      (
        await second.inject({
          method: 'PUT',
          url: `/api/tickets/${barn}`,
          headers: user.auth,
          payload: { priority: 'high' },
        })
      ).statusCode,
    ).toBe(200);
    expect((await listOn(first, user.auth)).find((t) => t.id === barn)?.priority).toBe('high');
    expect(
      (await second.inject({ method: 'PUT', url: `/api/tickets/${barn}/close`, headers: user.auth })).statusCode,
    ).toBe(200);
    expect((await listOn(first, user.auth)).find((t) => t.id === barn)?.status).toBe('closed');
    expect(
      (
        await second.inject({
          method: 'POST',
          url: `/api/tickets/${barn}/comments`,
          headers: user.auth,
          payload: { message: 'Still broken.' },
        })
      ).statusCode,
    ).toBe(201);
    expect((await listOn(first, user.auth)).find((t) => t.id === barn)?.status).toBe('open');
  });

  it('shows a staff assignment through another instance, with the assignee, on the next request', async () => {
    const user = await person();
    const mill = await open(first, user.auth, 'Mill');
    expect((await listOn(first, user.auth))[0]!.assignee).toBeNull();
    const res = await second.inject({
      method: 'PUT',
      url: `/api/admin/tickets/${mill}`,
      headers: admin.auth,
      payload: { assignee_id: admin.id },
    });
    expect(res.statusCode).toBe(200);
    const [row] = await listOn(first, user.auth);
    expect(row!.assignee?.first_name).toBe('Dana');
    expect(row!.status).toBe('in-progress');
  });

  it('sees changes made with SQL behind the service: the ticket, its tags, a tag name, the assignee name', async () => {
    const user = await person();
    const staff = await person({ admin: true, firstName: 'Eli' });
    const dairy = await open(first, user.auth, 'Dairy');
    await listOn(first, user.auth);
    await database.db
      .updateTable('tickets')
      .set({ subject: 'Creamery', assignee_id: staff.id })
      .where('id', '=', dairy)
      .execute();
    expect((await listOn(first, user.auth)).map((t) => t.subject)).toEqual(['Creamery']);

    const tag = await database.db
      .insertInto('tags')
      .values({ name: `cache-${dairy}`, created_at: new Date().toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await database.db.insertInto('ticket_tag').values({ ticket_id: dairy, tag_id: tag.id }).execute();
    expect((await listOn(first, user.auth))[0]!.tags.map((t) => t.name)).toEqual([`cache-${dairy}`]);
    await database.db
      .updateTable('tags')
      .set({ name: `renamed-${dairy}` })
      .where('id', '=', tag.id)
      .execute();
    expect((await listOn(first, user.auth))[0]!.tags.map((t) => t.name)).toEqual([`renamed-${dairy}`]);
    await database.db.deleteFrom('ticket_tag').where('ticket_id', '=', dairy).execute();
    expect((await listOn(first, user.auth))[0]!.tags).toEqual([]);

    expect((await listOn(first, user.auth))[0]!.assignee?.first_name).toBe('Eli');
    const staffName = `Eli-${dairy}`;
    await database.db.updateTable('users').set({ first_name: staffName }).where('id', '=', staff.id).execute();
    expect((await listOn(first, user.auth))[0]!.assignee?.first_name).toBe(staffName);
  });

  it("sees a ticket written with SQL for the caller's email and no account", async () => {
    const user = await person();
    await open(first, user.auth, 'Mine');
    await listOn(first, user.auth);
    await database.db
      .insertInto('tickets')
      .values(
        ticketRow({
          tracking_code: `TK-${String(user.id).padStart(8, 'Q')}`.slice(0, 11),
          email: user.email,
          subject: 'Opened by email',
          message: 'Before the account existed.',
        }),
      )
      .execute();
    expect((await listOn(first, user.auth)).map((t) => t.subject).sort()).toEqual(['Mine', 'Opened by email']);
  });

  it("keeps each caller and each query apart, and moves no one else's version", async () => {
    const alice = await person();
    const bob = await person();
    await open(first, alice.auth, 'Alpha wheat');
    await open(first, alice.auth, 'Beta barley');
    await open(first, bob.auth, 'Gamma oats');
    expect((await listOn(first, alice.auth, '?q=wheat')).map((t) => t.subject)).toEqual(['Alpha wheat']);
    expect((await listOn(first, alice.auth, '?q=barley')).map((t) => t.subject)).toEqual(['Beta barley']);
    expect((await listOn(first, alice.auth, '?per_page=1&page=2')).map((t) => t.subject)).toEqual(['Alpha wheat']);
    expect((await listOn(first, bob.auth)).map((t) => t.subject)).toEqual(['Gamma oats']);
    const bobVersion = await versionOf(bob.id);
    const aliceVersion = await versionOf(alice.id);
    await open(second, alice.auth, 'Delta rye wheat');
    expect(await versionOf(bob.id)).toBe(bobVersion);
    expect(await versionOf(alice.id)).toBeGreaterThan(aliceVersion);
    expect((await listOn(first, alice.auth, '?q=wheat')).map((t) => t.subject)).toEqual([
      'Delta rye wheat',
      'Alpha wheat',
    ]);
    expect((await listOn(first, bob.auth)).map((t) => t.subject)).toEqual(['Gamma oats']);
  });

  it('moves a row to warning when its time comes, with nothing changed', async () => {
    const user = await person();
    const ticket = await open(first, user.auth, 'Deadline', { priority: 'high' });
    // High: 4 hours to resolve, warning in the last quarter. Warning starts 700 ms from now.
    const warningAt = Date.now() + 700;
    const created = warningAt - 3 * 3_600_000;
    await database.db
      .updateTable('tickets')
      .set({
        created_at: new Date(created).toISOString(),
        sla_deadline: new Date(created + 4 * 3_600_000).toISOString(),
      })
      .where('id', '=', ticket)
      .execute();
    expect((await listOn(first, user.auth))[0]!.sla_status).toBe('on_time');
    const version = await versionOf(user.id);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, warningAt - Date.now()) + 50));
    expect((await listOn(first, user.auth))[0]!.sla_status).toBe('warning');
    expect(await versionOf(user.id)).toBe(version);
  });

  it('reuses the stats answer the same way: changes through another instance and with SQL show, an undone raise does not', async () => {
    const user = await person();
    const statsOn = async (app: FastifyInstance) => {
      const res = await app.inject({ method: 'GET', url: '/api/tickets/stats', headers: user.auth });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      return res.json();
    };
    const kiln = await open(first, user.auth, 'Kiln');
    expect(await statsOn(first)).toEqual({ success: true, data: { total: 1, open: 1, in_progress: 0, closed: 0 } });
    await open(second, user.auth, 'Forge');
    expect(
      (await second.inject({ method: 'PUT', url: `/api/tickets/${kiln}/close`, headers: user.auth })).statusCode,
    ).toBe(200);
    expect((await statsOn(first)).data).toEqual({ total: 2, open: 1, in_progress: 0, closed: 1 });
    await database.db
      .updateTable('tickets')
      .set({ status: 'in-progress' })
      .where('user_id', '=', user.id)
      .where('status', '=', 'open')
      .execute();
    expect((await statsOn(first)).data).toEqual({ total: 2, open: 0, in_progress: 1, closed: 1 });
    const version = await versionOf(user.id);
    await database.db.updateTable('tickets').set({ status: 'closed' }).where('user_id', '=', user.id).execute();
    await setVersion(user.id, version);
    expect((await statsOn(first)).data).toEqual({ total: 2, open: 0, in_progress: 1, closed: 1 });
    expect((await statsOn(uncached)).data).toEqual({ total: 2, open: 0, in_progress: 0, closed: 2 });
  });

  it('raises the version in the changing transaction: a rolled-back change leaves it', async () => {
    const user = await person();
    const ticket = await open(first, user.auth, 'Rollback');
    const version = await versionOf(user.id);
    await expect(
      database.db.transaction().execute(async (trx) => {
        await trx.updateTable('tickets').set({ subject: 'Never' }).where('id', '=', ticket).execute();
        await sql`select 1`.execute(trx);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await versionOf(user.id)).toBe(version);
  });
});
