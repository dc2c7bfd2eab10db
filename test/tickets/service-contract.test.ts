import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTicket } from '../../src/modules/tickets/service.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

describe('createTicket (the entry point other modules use)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('creates an open ticket with a tracking code, an automatic priority and a queued confirmation mail', async () => {
    const user = await t.makeUser();
    const created = await createTicket(t.app.deps, {
      owner: user,
      subject: 'Urgent: cannot withdraw',
      message: 'My withdrawal has been pending for days.',
      source: 'assistant',
    });
    expect(created.tracking_code).toMatch(/^TK-[A-Z0-9]{8}$/);
    const row = await t.db.selectFrom('tickets').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      user_id: user.id,
      email: user.email,
      status: 'open',
      priority: 'high',
      source: 'assistant',
    });
    const mail = await t.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', user.email).execute();
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toContain(created.tracking_code);
  });

  it('creates an ownerless ticket without a confirmation mail', async () => {
    const before = await t.db
      .selectFrom('mail_outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const created = await createTicket(t.app.deps, {
      owner: null,
      subject: 'Visitor question',
      message: 'A visitor asked for help here.',
      priority: 'low',
    });
    const row = await t.db.selectFrom('tickets').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_id: null, email: null, priority: 'low' });
    const after = await t.db
      .selectFrom('mail_outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});
