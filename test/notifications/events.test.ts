import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';
import { appWithParties, newId, reporter, storedFor, unreadOf, type Reporter } from './helpers.js';

const APP_URL = 'https://app.example.com';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('notification events from the integration API', () => {
  let t: TestApp, admin: TestUser, owner: TestUser, investor: TestUser, report: Reporter;
  beforeAll(async () => ({ t, admin, owner, investor, report } = await appWithParties({ config: { APP_URL } })));
  afterAll(() => t.close());

  async function project(status = 'draft', title = 'Solar farm') {
    const id = newId();
    const res = await report.project(id, { title, owner_id: owner.id, status });
    expect(res.status).toBe(201);
    return id;
  }

  it('creates a project with 201 and notifies the owner of its status with the exact data shape', async () => {
    const id = newId();
    const res = await report.project(id, {
      title: 'Solar farm',
      owner_id: owner.id,
      status: 'approved',
      comment: 'Looks good.',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      message: 'Project created.',
      data: {
        id,
        owner_id: owner.id,
        title: 'Solar farm',
        status: 'approved',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
      notification_ids: [expect.stringMatching(UUID)],
    });
    const [notification] = (await unreadOf(t, owner)).filter((n) => n.data.project_id === id);
    expect(notification).toEqual({
      id: res.body.notification_ids[0],
      type: 'project_status_changed',
      data: {
        type: 'project_status_changed',
        project_id: id,
        project_title: 'Solar farm',
        status: 'approved',
        message: 'Your project "Solar farm" has been approved.',
        comment: 'Looks good.',
        url: `${APP_URL}/projects/${id}`,
      },
      read_at: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(Object.keys(notification.data)).toEqual([
      'type',
      'project_id',
      'project_title',
      'status',
      'message',
      'comment',
      'url',
    ]);
  });

  it('updates a project with 200, and a status change notifies with comment null when none is given', async () => {
    const id = await project('draft');
    const res = await report.project(id, { title: 'Solar farm II', owner_id: owner.id, status: 'rejected' });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Project updated.');
    expect(res.body.data).toMatchObject({ id, title: 'Solar farm II', status: 'rejected' });
    const mine = (await unreadOf(t, owner)).filter((n) => n.data.project_id === id);
    expect(mine).toHaveLength(1);
    expect(mine[0].data).toMatchObject({ status: 'rejected', comment: null, project_title: 'Solar farm II' });
    expect(mine[0].data.message).toBe('Your project "Solar farm II" has been rejected.');
  });

  it.each([
    ['under_review', 'Your project "Wind" is now under review.'],
    ['archived', 'Your project "Wind" has been archived.'],
  ])('notifies a change into %s', async (status, message) => {
    const id = await project('draft', 'Wind');
    await report.project(id, { title: 'Wind', owner_id: owner.id, status });
    const mine = (await unreadOf(t, owner)).filter((n) => n.data.project_id === id);
    expect(mine.map((n) => n.data.message)).toEqual([message]);
  });

  it('does not notify for a project created or left as draft, nor for a title change alone', async () => {
    const id = await project('draft');
    await report.project(id, { title: 'Renamed', owner_id: owner.id, status: 'draft' });
    expect(
      await storedFor(t, owner.id).then((rows) => rows.filter((r) => JSON.parse(r.data).project_id === id)),
    ).toEqual([]);
  });

  it('writes no second notification when the same status is reported again (a retry)', async () => {
    const id = newId();
    const first = await report.project(id, { title: 'Retry', owner_id: owner.id, status: 'approved' });
    const again = await report.project(id, {
      title: 'Retry',
      owner_id: owner.id,
      status: 'approved',
      comment: 'again',
    });
    expect(first.body.notification_ids).toHaveLength(1);
    expect(again.status).toBe(200);
    expect(again.body.notification_ids).toEqual([]);
    const rows = (await storedFor(t, owner.id)).filter((r) => JSON.parse(r.data).project_id === id);
    expect(rows).toHaveLength(1);
  });

  it('notifies once when the same change is reported several times at once', async () => {
    const created = newId();
    const body = { title: 'Concurrent', owner_id: owner.id, status: 'approved' };
    const first = await Promise.all(Array.from({ length: 6 }, () => report.project(created, body)));
    expect(first.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    const updated = newId();
    await report.project(updated, { ...body, status: 'draft' });
    const second = await Promise.all(Array.from({ length: 6 }, () => report.project(updated, body)));
    expect(second.every((r) => r.status === 200)).toBe(true);
    for (const id of [created, updated]) {
      const rows = (await storedFor(t, owner.id)).filter((r) => JSON.parse(r.data).project_id === id);
      expect(rows).toHaveLength(1);
    }
  });

  it('sends the notification to the new owner when the owner changes along with the status', async () => {
    const other = await t.makeUser();
    const id = await project('draft');
    await report.project(id, { title: 'Moved', owner_id: other.id, status: 'under_review' });
    expect((await unreadOf(t, other)).map((n) => n.data.project_id)).toEqual([id]);
    expect((await unreadOf(t, owner)).filter((n) => n.data.project_id === id)).toEqual([]);
  });

  it('records a revision request (201) and notifies the owner with the exact data shape', async () => {
    const id = await project('under_review', 'Orchard');
    const res = await report.revision(id, { revision_notes: 'Add the land deed.' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      message: 'Revision requested.',
      data: {
        id: expect.any(Number),
        project_id: id,
        revision_notes: 'Add the land deed.',
        created_at: expect.any(String),
      },
      notification_ids: [expect.stringMatching(UUID)],
    });
    const [n] = (await unreadOf(t, owner)).filter(
      (x) => x.type === 'project_revision_requested' && x.data.project_id === id,
    );
    expect(n.data).toEqual({
      type: 'project_revision_requested',
      project_id: id,
      project_title: 'Orchard',
      message: 'Changes have been requested to your project "Orchard" before it can be approved.',
      revision_notes: 'Add the land deed.',
      url: `${APP_URL}/projects/${id}/edit`,
    });
    expect(Object.keys(n.data)).toEqual(['type', 'project_id', 'project_title', 'message', 'revision_notes', 'url']);
  });

  it('gives 422 in the general form for a revision request on an unknown project', async () => {
    const res = await report.revision(999_999, { revision_notes: 'Anything' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      success: false,
      message: 'The given data was invalid.',
      errors: { project_id: ['The selected project id is invalid.'] },
    });
  });

  it('a payment notifies the investor (investment_status_changed) and the owner (new_investment_received)', async () => {
    const projectId = await project('approved', 'Bakery');
    const id = newId();
    const res = await report.investment(id, {
      project_id: projectId,
      investor_id: investor.id,
      amount: 2_500_000,
      status: 'paid',
      notes: 'first instalment',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      message: 'Investment created.',
      data: {
        id,
        project_id: projectId,
        investor_id: investor.id,
        amount: 2_500_000,
        status: 'paid',
        notes: 'first instalment',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
      notification_ids: [expect.stringMatching(UUID), expect.stringMatching(UUID)],
    });

    const [forInvestor] = (await unreadOf(t, investor)).filter((n) => n.data.investment_id === id);
    expect(forInvestor.type).toBe('investment_status_changed');
    expect(forInvestor.data).toEqual({
      type: 'investment_status_changed',
      investment_id: id,
      project_title: 'Bakery',
      amount: 2_500_000,
      status: 'paid',
      message: 'Your payment of 2,500,000 for "Bakery" has been received.',
      notes: 'first instalment',
      url: `${APP_URL}/investments/${id}`,
    });
    expect(Object.keys(forInvestor.data)).toEqual([
      'type',
      'investment_id',
      'project_title',
      'amount',
      'status',
      'message',
      'notes',
      'url',
    ]);

    const [forOwner] = (await unreadOf(t, owner)).filter((n) => n.data.investment_id === id);
    expect(forOwner.type).toBe('new_investment_received');
    expect(forOwner.data).toEqual({
      type: 'new_investment_received',
      investment_id: id,
      project_id: projectId,
      project_title: 'Bakery',
      amount: 2_500_000,
      investor_name: 'Ivan Investor',
      message: 'Ivan Investor invested 2,500,000 in your project "Bakery".',
      url: `${APP_URL}/projects/${projectId}/investments`,
    });
    expect(Object.keys(forOwner.data)).toEqual([
      'type',
      'investment_id',
      'project_id',
      'project_title',
      'amount',
      'investor_name',
      'message',
      'url',
    ]);
  });

  it('each later status change notifies only the investor, with notes null when none are given', async () => {
    const projectId = await project('approved', 'Dairy');
    const id = newId();
    await report.investment(id, { project_id: projectId, investor_id: investor.id, amount: 100, status: 'pending' });
    expect((await unreadOf(t, investor)).filter((n) => n.data.investment_id === id)).toEqual([]);
    const messages: Record<string, string> = {
      paid: 'Your payment of 100 for "Dairy" has been received.',
      active: 'Your investment in "Dairy" is now active.',
      completed: 'Your investment in "Dairy" has been completed.',
      cancelled: 'Your investment in "Dairy" has been cancelled.',
      refunded: 'Your investment in "Dairy" has been refunded.',
    };
    for (const status of Object.keys(messages)) {
      const res = await report.investment(id, { project_id: projectId, investor_id: investor.id, amount: 100, status });
      expect(res.status).toBe(200);
    }
    const mine = (await unreadOf(t, investor)).filter((n) => n.data.investment_id === id);
    expect(mine.map((n) => [n.data.status, n.data.message, n.data.notes])).toEqual(
      Object.entries(messages)
        .reverse()
        .map(([status, message]) => [status, message, null]),
    );
    const ownerRows = (await unreadOf(t, owner)).filter((n) => n.data.investment_id === id);
    expect(ownerRows.map((n) => n.type)).toEqual(['new_investment_received']);
  });

  it('writes no new notification when an investment status is reported again', async () => {
    const projectId = await project('approved');
    const id = newId();
    const body = { project_id: projectId, investor_id: investor.id, amount: 5, status: 'paid' };
    expect((await report.investment(id, body)).body.notification_ids).toHaveLength(2);
    const again = await report.investment(id, { ...body, notes: 'retry' });
    expect(again.status).toBe(200);
    expect(again.body.notification_ids).toEqual([]);
    expect(again.body.data.notes).toBe('retry');
    const all = [...(await storedFor(t, investor.id)), ...(await storedFor(t, owner.id))].filter(
      (r) => JSON.parse(r.data).investment_id === id,
    );
    expect(all).toHaveLength(2);
  });

  it('stores amounts up to 2^53 - 1 and returns them as exact numbers', async () => {
    const projectId = await project('approved');
    const id = newId();
    const max = Number.MAX_SAFE_INTEGER;
    const res = await report.investment(id, {
      project_id: projectId,
      investor_id: investor.id,
      amount: max,
      status: 'paid',
    });
    expect(res.status).toBe(201);
    expect(res.body.data.amount).toBe(max);
    const row = await t.db.selectFrom('investments').select('amount').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.amount).toBe(max);
    expect(typeof row.amount).toBe('number');
    const [n] = (await unreadOf(t, investor)).filter((x) => x.data.investment_id === id);
    expect(n.data.amount).toBe(max);
  });

  it("writes the message in the recipient's locale, not the caller's", async () => {
    const persian = await t.makeUser({ locale: 'fa', firstName: 'Sara', lastName: 'Ahmadi' });
    const id = newId();
    await report.project(id, { title: 'Farm', owner_id: persian.id, status: 'approved' });
    const investmentId = newId();
    await report.investment(investmentId, { project_id: id, investor_id: persian.id, amount: 1_500, status: 'paid' });
    const list = await unreadOf(t, persian);
    // Newest first; the two of one payment share created_at and keep their insertion order.
    expect(list.map((n) => [n.type, n.data.message])).toEqual([
      ['new_investment_received', 'Sara Ahmadi مبلغ ۱٬۵۰۰ در پروژهٔ «Farm» شما سرمایه‌گذاری کرد.'],
      ['investment_status_changed', 'پرداخت ۱٬۵۰۰ شما برای «Farm» دریافت شد.'],
      ['project_status_changed', 'پروژهٔ «Farm» شما تأیید شد.'],
    ]);
    // The admin's Accept-Language changes the response message, not the stored notification.
    const english = await t.makeUser();
    await reporter(t, admin, { 'accept-language': 'fa' }).project(newId(), {
      title: 'X',
      owner_id: english.id,
      status: 'approved',
    });
    expect((await unreadOf(t, english))[0].data.message).toBe('Your project "X" has been approved.');
  });
});
