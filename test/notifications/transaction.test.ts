// The change and its notifications commit together. A database trigger that refuses the
// notification insert stands in for any failure after the status write (a full disk, a lost
// connection): the real service code runs unchanged, and the test checks that neither survives.
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testDialect, type TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';
import { appWithParties, newId, storedFor, type Reporter } from './helpers.js';

async function refuseNotifications(t: TestApp, type: string): Promise<void> {
  if (testDialect === 'postgres') {
    await sql`create or replace function refuse_notification() returns trigger language plpgsql as $$
      begin
        if new.type = ${sql.lit(type)} then raise exception 'injected failure'; end if;
        return new;
      end $$`.execute(t.db);
    await sql`create trigger refuse_notification before insert on notifications for each row execute function refuse_notification()`.execute(
      t.db,
    );
  } else {
    await sql`create trigger refuse_notification before insert on notifications
      when new.type = ${sql.lit(type)} begin select raise(abort, 'injected failure'); end`.execute(t.db);
  }
}

async function allowNotifications(t: TestApp): Promise<void> {
  await sql`drop trigger if exists refuse_notification${sql.raw(testDialect === 'postgres' ? ' on notifications' : '')}`.execute(
    t.db,
  );
}

describe('a change and its notifications are one transaction', () => {
  let t: TestApp, owner: TestUser, investor: TestUser, report: Reporter;
  beforeAll(async () => ({ t, owner, investor, report } = await appWithParties()));
  afterEach(() => allowNotifications(t));
  afterAll(() => t.close());

  const project = (id: number) =>
    t.db.selectFrom('projects').select(['title', 'status']).where('id', '=', id).executeTakeFirst();
  const investment = (id: number) =>
    t.db.selectFrom('investments').select(['status', 'amount']).where('id', '=', id).executeTakeFirst();

  it('leaves no project when the notification of its creation cannot be written', async () => {
    await refuseNotifications(t, 'project_status_changed');
    const id = newId();
    const res = await report.project(id, { title: 'Doomed', owner_id: owner.id, status: 'approved' });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ success: false, message: 'Server Error', error: 'internal_error' });
    expect(await project(id)).toBeUndefined();
    expect(await storedFor(t, owner.id)).toEqual([]);
  });

  it('keeps the old status when the notification of a change cannot be written, and a retry then succeeds', async () => {
    const id = newId();
    await report.project(id, { title: 'Draft', owner_id: owner.id, status: 'draft' });
    await refuseNotifications(t, 'project_status_changed');
    const failed = await report.project(id, { title: 'Renamed', owner_id: owner.id, status: 'approved' });
    expect(failed.status).toBe(500);
    expect(await project(id)).toEqual({ title: 'Draft', status: 'draft' });
    await allowNotifications(t);
    const retried = await report.project(id, { title: 'Renamed', owner_id: owner.id, status: 'approved' });
    expect(retried.status).toBe(200);
    expect(retried.body.notification_ids).toHaveLength(1);
    expect(await project(id)).toEqual({ title: 'Renamed', status: 'approved' });
  });

  it('stores no revision request when its notification cannot be written', async () => {
    const id = newId();
    await report.project(id, { title: 'P', owner_id: owner.id, status: 'draft' });
    await refuseNotifications(t, 'project_revision_requested');
    const res = await report.revision(id, { revision_notes: 'Please fix' });
    expect(res.status).toBe(500);
    const requests = await t.db
      .selectFrom('project_revision_requests')
      .select('id')
      .where('project_id', '=', id)
      .execute();
    expect(requests).toEqual([]);
  });

  it("rolls back the payment and the investor's notification when the owner's cannot be written", async () => {
    const projectId = newId();
    await report.project(projectId, { title: 'P', owner_id: owner.id, status: 'draft' });
    const id = newId();
    await report.investment(id, { project_id: projectId, investor_id: investor.id, amount: 700, status: 'pending' });
    await refuseNotifications(t, 'new_investment_received');
    const res = await report.investment(id, {
      project_id: projectId,
      investor_id: investor.id,
      amount: 900,
      status: 'paid',
    });
    expect(res.status).toBe(500);
    expect(await investment(id)).toEqual({ status: 'pending', amount: 700 });
    expect(await storedFor(t, investor.id)).toEqual([]);
    expect((await storedFor(t, owner.id)).filter((r) => r.type === 'new_investment_received')).toEqual([]);
  });
});
