import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';
import { appWithUsers } from '../helpers/fixtures.js';
import { FORBIDDEN } from '../helpers/staff-api.js';
import { newId, reporter, storedFor, type Reporter } from './helpers.js';

const INVALID = 'The given data was invalid.';

describe('admin integration API: access and validation', () => {
  let t: TestApp, admin: TestUser, owner: TestUser, report: Reporter;
  let projectId: number;

  beforeAll(async () => {
    ({ t, admin, owner } = await appWithUsers({ admin: { admin: true }, owner: {} }));
    report = reporter(t, admin);
    projectId = newId();
    await report.project(projectId, { title: 'Base', owner_id: owner.id, status: 'approved' });
  });
  afterAll(() => t.close());

  type Call = [string, 'PUT' | 'POST', () => string, () => Record<string, unknown>];
  const calls: Call[] = [
    [
      'project',
      'PUT',
      () => `/api/admin/projects/${newId()}`,
      () => ({ title: 'T', owner_id: owner.id, status: 'approved' }),
    ],
    [
      'revision request',
      'POST',
      () => `/api/admin/projects/${projectId}/revision-requests`,
      () => ({ revision_notes: 'Fix it' }),
    ],
    [
      'investment',
      'PUT',
      () => `/api/admin/investments/${newId()}`,
      () => ({ project_id: projectId, investor_id: owner.id, amount: 1, status: 'paid' }),
    ],
  ];

  it.each(calls)(
    '%s: 401 {"message":"Unauthenticated."} without a token, and nothing is written',
    async (_name, method, url, payload) => {
      const before = (await storedFor(t, owner.id)).length;
      const res = await t.app.inject({ method, url: url(), payload: payload() });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Unauthenticated.' });
      expect(await storedFor(t, owner.id)).toHaveLength(before);
    },
  );

  it.each(calls)(
    '%s: 403 {success:false,message} for a user who is not an admin, and nothing is written',
    async (_name, method, url, payload) => {
      const before = (await storedFor(t, owner.id)).length;
      const res = await t.app.inject({ method, url: url(), payload: payload(), headers: owner.auth });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(FORBIDDEN);
      expect(await storedFor(t, owner.id)).toHaveLength(before);
    },
  );

  /** Reports a new record, expects the general 422 with these errors, and checks that no row was written. */
  async function expectRefusedNew(
    kind: 'project' | 'investment',
    body: Record<string, unknown>,
    errors: Record<string, string[]>,
  ) {
    const id = newId();
    const res = await report[kind](id, body);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ success: false, message: INVALID, errors });
    expect(
      await t.db
        .selectFrom(kind === 'project' ? 'projects' : 'investments')
        .select('id')
        .where('id', '=', id)
        .executeTakeFirst(),
    ).toBeUndefined();
  }

  describe('PUT /api/admin/projects/{id}', () => {
    const valid = () => ({ title: 'Valid', owner_id: owner.id, status: 'approved' });
    it.each([
      ['a missing title', { title: undefined }, { title: ['The title field is required.'] }],
      ['an empty title', { title: '' }, { title: ['The title field is required.'] }],
      [
        'a title over 255 characters',
        { title: 'x'.repeat(256) },
        { title: ['The title must not be greater than 255 characters.'] },
      ],
      ['a missing owner', { owner_id: undefined }, { owner_id: ['The owner id field is required.'] }],
      ['a non-integer owner', { owner_id: 'abc' }, { owner_id: ['The owner id must be an integer.'] }],
      ['an unknown status', { status: 'funded' }, { status: ['The selected status is invalid.'] }],
      ['a missing status', { status: undefined }, { status: ['The status field is required.'] }],
      ['a title with a NUL character', { title: 'a\u0000b' }, { title: ['The title format is invalid.'] }],
      ['a comment with a NUL character', { comment: 'a\u0000b' }, { comment: ['The comment format is invalid.'] }],
      [
        'a comment over 2000 characters',
        { comment: 'c'.repeat(2001) },
        { comment: ['The comment must not be greater than 2000 characters.'] },
      ],
    ])('answers 422 in the general form for %s', async (_name, change, errors) => {
      await expectRefusedNew('project', { ...valid(), ...change }, errors);
    });

    it('answers 422 for an owner that is not a user, writing nothing', async () => {
      await expectRefusedNew(
        'project',
        { ...valid(), owner_id: 987_654 },
        { owner_id: ['There is no user with id 987654.'] },
      );
    });

    it.each(['0', '-1', 'abc', '2147483648'])('answers 422 for the project id %s', async (id) => {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/admin/projects/${id}`,
        headers: admin.auth,
        payload: valid(),
      });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ success: false, message: INVALID, errors: { id: [expect.any(String)] } });
    });

    it('answers 422 for a body that is not an object', async () => {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/admin/projects/${newId()}`,
        headers: { ...admin.auth, 'content-type': 'application/json' },
        payload: '[1]',
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ body: ['The request body must be a JSON object.'] });
    });
  });

  describe('POST /api/admin/projects/{id}/revision-requests', () => {
    it.each([
      ['missing notes', {}, { revision_notes: ['The revision notes field is required.'] }],
      ['empty notes', { revision_notes: '' }, { revision_notes: ['The revision notes field is required.'] }],
      [
        'notes over 5000 characters',
        { revision_notes: 'n'.repeat(5001) },
        { revision_notes: ['The revision notes must not be greater than 5000 characters.'] },
      ],
      [
        'notes with a NUL character',
        { revision_notes: 'x\u0000' },
        { revision_notes: ['The revision notes format is invalid.'] },
      ],
      [
        'notes that are not a string',
        { revision_notes: { a: 1 } },
        { revision_notes: ['The revision notes must be a string.'] },
      ],
    ])('answers 422 for %s', async (_name, payload, errors) => {
      const res = await report.revision(projectId, payload);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ success: false, message: INVALID, errors });
    });
  });

  describe('PUT /api/admin/investments/{id}', () => {
    const valid = () => ({ project_id: projectId, investor_id: owner.id, amount: 10, status: 'paid' });
    it.each([
      ['a negative amount', { amount: -1 }, { amount: ['The amount must be at least 0.'] }],
      ['a fractional amount', { amount: 1.5 }, { amount: ['The amount must be an integer.'] }],
      [
        'an amount above 2^53 - 1',
        { amount: 2 ** 53 },
        { amount: [`The amount must not be greater than ${Number.MAX_SAFE_INTEGER}.`] },
      ],
      ['a missing amount', { amount: undefined }, { amount: ['The amount field is required.'] }],
      ['an unknown status', { status: 'approved' }, { status: ['The selected status is invalid.'] }],
      ['a missing project', { project_id: undefined }, { project_id: ['The project id field is required.'] }],
      ['a missing investor', { investor_id: undefined }, { investor_id: ['The investor id field is required.'] }],
      ['notes with a NUL character', { notes: '\u0000' }, { notes: ['The notes format is invalid.'] }],
      [
        'notes over 2000 characters',
        { notes: 'n'.repeat(2001) },
        { notes: ['The notes must not be greater than 2000 characters.'] },
      ],
    ])('answers 422 in the general form for %s', async (_name, change, errors) => {
      await expectRefusedNew('investment', { ...valid(), ...change }, errors);
    });

    it('answers 422 naming each unknown reference (project and investor), writing nothing', async () => {
      await expectRefusedNew(
        'investment',
        { ...valid(), project_id: 555_555, investor_id: 444_444 },
        {
          project_id: ['The selected project id is invalid.'],
          investor_id: ['There is no user with id 444444.'],
        },
      );
    });

    it('keeps the stored investment when an update names an unknown investor', async () => {
      const id = newId();
      await report.investment(id, { ...valid(), status: 'pending' });
      const res = await report.investment(id, { ...valid(), investor_id: 444_444 });
      expect(res.status).toBe(422);
      const row = await t.db
        .selectFrom('investments')
        .select(['investor_id', 'status'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ investor_id: owner.id, status: 'pending' });
    });
  });

  it('is not subject to the platform rate limit', async () => {
    const limited = await buildTestApp({ config: { RATE_LIMIT_PER_MINUTE: 2 } });
    try {
      const a = await limited.makeUser({ admin: true });
      const o = await limited.makeUser();
      const r = reporter(limited, a);
      const id = newId();
      for (let i = 0; i < 5; i++) {
        expect(
          (await r.project(id, { title: 'Burst', owner_id: o.id, status: i % 2 ? 'approved' : 'under_review' })).status,
        ).toBeLessThan(300);
      }
    } finally {
      await limited.close();
    }
  });
});
