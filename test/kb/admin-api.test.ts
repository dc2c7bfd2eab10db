// The staff's editing API under /api/admin/kb/ over real sockets, on the database of the run:
// 401 and 403 on every route, each validation rule with its exact body, optimistic concurrency
// (409 with the current article), publish, archive, revisions, restore, delete, categories, tags.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { userWithToken } from '../helpers/factories.js';
import { FORBIDDEN } from '../helpers/staff-api.js';
import { article, KbServer } from './helpers.js';

// Child processes (servers, the CLI through tsx) are slow on a loaded machine.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 240_000 });

let kb: KbServer;
let staff: Record<string, string>;
let member: Record<string, string>;

beforeAll(async () => {
  kb = await KbServer.start();
  staff = (await userWithToken(kb.database.db, { admin: true })).auth;
  member = (await userWithToken(kb.database.db)).auth;
}, 120_000);

afterAll(async () => {
  await kb?.stop();
});

const ROUTES: Array<[string, string, unknown?]> = [
  ['GET', '/api/admin/kb/articles'],
  ['POST', '/api/admin/kb/articles', article()],
  ['GET', '/api/admin/kb/articles/1'],
  ['PUT', '/api/admin/kb/articles/1', { revision: 1, title: 'T' }],
  ['DELETE', '/api/admin/kb/articles/1'],
  ['POST', '/api/admin/kb/articles/1/publish', {}],
  ['POST', '/api/admin/kb/articles/1/archive', {}],
  ['GET', '/api/admin/kb/articles/1/revisions'],
  ['POST', '/api/admin/kb/articles/1/revisions/1/restore', {}],
  ['GET', '/api/admin/kb/categories'],
  ['POST', '/api/admin/kb/categories', { slug: 'x', name_en: 'X', name_fa: 'ایکس' }],
  ['PUT', '/api/admin/kb/categories/1', { slug: 'x', name_en: 'X', name_fa: 'ایکس' }],
  ['DELETE', '/api/admin/kb/categories/1'],
  ['GET', '/api/admin/kb/tags'],
  ['POST', '/api/admin/kb/tags', { name: 'x' }],
  ['DELETE', '/api/admin/kb/tags/1'],
];

const create = async (overrides: Record<string, unknown> = {}) => {
  const res = await kb.call('POST', '/api/admin/kb/articles', { auth: staff, body: article(overrides) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
};

describe('who may edit', () => {
  it('answers 401 without a token and 403 to a member on every route, changing nothing', async () => {
    const before = await kb.call('GET', '/api/admin/kb/articles/1', { auth: staff });
    for (const [method, path, body] of ROUTES) {
      const anonymous = await kb.call(method, path, { body });
      expect(anonymous.status, `${method} ${path}`).toBe(401);
      expect(anonymous.body).toEqual({ message: 'Unauthenticated.' });
      const refused = await kb.call(method, path, { auth: member, body });
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.body).toEqual(FORBIDDEN);
    }
    expect((await kb.call('GET', '/api/admin/kb/articles/1', { auth: staff })).body).toEqual(before.body);
  });
});

describe('articles', () => {
  it('creates a draft with every field, revision 1, and lists it with filters', async () => {
    const created = await create({ lang: 'fa', tags: ['plants', 'cactus'], title: 'کاکتوس را کی آب بدهم؟' });
    expect(created).toMatchObject({
      lang: 'fa',
      status: 'draft',
      revision: 1,
      tags: ['cactus', 'plants'],
      pages: ['garden'],
      next: ['testing.cactus-soil'],
      category: null,
    });
    expect(created.updated_by).toEqual(expect.any(Number));
    const list = await kb.call(
      'GET',
      `/api/admin/kb/articles?lang=fa&status=draft&tag=cactus&q=${encodeURIComponent('کاکتوس')}`,
      { auth: staff },
    );
    expect(list.status).toBe(200);
    expect(list.body.data.map((a: { id: number }) => a.id)).toEqual([created.id]);
    expect(list.body.meta).toEqual({ current_page: 1, last_page: 1, per_page: 15, total: 1 });
    const bundled = await kb.call(
      'GET',
      '/api/admin/kb/articles?lang=en&status=published&category=payments&per_page=2',
      { auth: staff },
    );
    expect(bundled.body.meta).toMatchObject({ per_page: 2, total: 6, last_page: 3 });
  });

  it('refuses each invalid field with its message', async () => {
    const cases: Array<[Record<string, unknown>, Record<string, string[]>]> = [
      [{ key: undefined }, { key: ['The key field is required.'] }],
      [{ key: 'Payments..x' }, { key: ['The key format is invalid.'] }],
      [{ lang: 'de' }, { lang: ['The selected lang is invalid.'] }],
      [{ slug: 'Not A Slug' }, { slug: ['The slug format is invalid.'] }],
      [{ title: '' }, { title: ['The title field is required.'] }],
      [{ title: 'x'.repeat(256) }, { title: ['The title must not be greater than 255 characters.'] }],
      [{ body: undefined }, { body: ['The body field is required.'] }],
      [{ questions: 'one' }, { questions: ['The questions must be an array.'] }],
      [{ questions: ['closes --> the comment'] }, { 'questions.0': ['The questions.0 format is invalid.'] }],
      [
        { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) },
        { tags: ['The tags must not have more than 20 items.'] },
      ],
      [{ tags: ['Bad Tag'] }, { 'tags.0': ['The tags.0 format is invalid.'] }],
      [{ pages: ['wallet', 'a,b'] }, { 'pages.1': ['The pages.1 format is invalid.'] }],
      [{ next: ['payments.refund-time', 'Refund Time'] }, { 'next.1': ['The next.1 format is invalid.'] }],
      [{ status: 'archived' }, { status: ['The selected status is invalid.'] }],
      [{ category: 'no-such-category' }, { category: ['The selected category does not exist.'] }],
      [
        { body: 'Intro\n## A second heading\nText' },
        { body: ['The body must not contain level-2 headings (lines starting with "## "); use ### and below.'] },
      ],
    ];
    for (const [overrides, errors] of cases) {
      const res = await kb.call('POST', '/api/admin/kb/articles', { auth: staff, body: article(overrides) });
      expect(res.status, JSON.stringify(overrides)).toBe(422);
      expect(res.body, JSON.stringify(overrides)).toEqual({
        success: false,
        message: 'The given data was invalid.',
        errors,
      });
    }
  });

  it("refuses a key already used in the language and a slug already taken, in the caller's language", async () => {
    const first = await create();
    const sameKey = await kb.call('POST', '/api/admin/kb/articles', { auth: staff, body: article({ key: first.key }) });
    expect(sameKey.status).toBe(422);
    expect(sameKey.body.errors).toEqual({ key: ['An article with this key already exists in this language.'] });
    const sameSlug = await kb.call('POST', '/api/admin/kb/articles', {
      auth: staff,
      headers: { 'accept-language': 'fa' },
      body: article({ slug: first.slug }),
    });
    expect(sameSlug.body.errors).toEqual({ slug: ['این نامک در این زبان قبلاً استفاده شده است.'] });
    // The other language may use the same key and slug.
    await create({ key: first.key, slug: first.slug, lang: 'fa' });
  });

  it('answers 404 for an unknown or impossible id', async () => {
    for (const id of ['999999', 'abc', '0', '99999999999']) {
      const res = await kb.call('GET', `/api/admin/kb/articles/${id}`, { auth: staff });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, message: 'Article not found.' });
    }
    const fa = await kb.call('PUT', '/api/admin/kb/articles/999999', {
      auth: staff,
      headers: { 'accept-language': 'fa' },
      body: { revision: 1 },
    });
    expect(fa.body).toEqual({ success: false, message: 'مقاله یافت نشد.' });
  });

  it('updates the revision it was made on and answers 409 with the current article to a stale one', async () => {
    const created = await create();
    const path = `/api/admin/kb/articles/${created.id}`;
    const edited = await kb.call('PUT', path, {
      auth: staff,
      body: { revision: 1, title: 'How often does a cactus need water?' },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      success: true,
      message: 'Article updated.',
      data: { revision: 2, title: 'How often does a cactus need water?' },
    });
    const stale = await kb.call('PUT', path, { auth: staff, body: { revision: 1, body: 'Someone else wrote this.' } });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({
      success: false,
      message:
        'The article has changed since revision 1; it is now at revision 2. Reload it and apply your change again.',
      data: edited.body.data,
    });
    expect((await kb.call('GET', path, { auth: staff })).body.data).toEqual(edited.body.data);
    // The same edit again, on the current revision, changes nothing and records nothing.
    const again = await kb.call('PUT', path, {
      auth: staff,
      body: { revision: 2, title: 'How often does a cactus need water?' },
    });
    expect(again.body.data.revision).toBe(2);
    const unnamed = await kb.call('PUT', path, { auth: staff, body: { title: 'x' } });
    expect(unnamed.status).toBe(422);
    expect(unnamed.body).toEqual({
      success: false,
      message: 'The given data was invalid.',
      errors: { revision: ['The revision field is required.'] },
    });
    // Key and language are not fields of an update: sent anyway, they are ignored.
    const rekeyed = await kb.call('PUT', path, { auth: staff, body: { revision: 2, key: 'other.key', lang: 'fa' } });
    expect(rekeyed.body.data).toMatchObject({ key: created.key, lang: 'en', revision: 2 });
  });

  it('publishes, archives, keeps every revision with what changed, restores an earlier one and deletes', async () => {
    const created = await create({ body: 'First body.' });
    const path = `/api/admin/kb/articles/${created.id}`;
    await kb.call('PUT', path, { auth: staff, body: { revision: 1, body: 'Second body.', tags: [] } });
    const published = await kb.call('POST', `${path}/publish`, { auth: staff, body: { revision: 2 } });
    expect(published.body).toMatchObject({ message: 'Article published.', data: { status: 'published', revision: 3 } });
    const stalePublish = await kb.call('POST', `${path}/archive`, { auth: staff, body: { revision: 2 } });
    expect(stalePublish.status).toBe(409);
    // Without a body: no revision named.
    const archived = await kb.call('POST', `${path}/archive`, { auth: staff });
    expect(archived.body.data).toMatchObject({ status: 'archived', revision: 4 });
    const revisions = await kb.call('GET', `${path}/revisions`, { auth: staff });
    expect(revisions.body.data.map((r: any) => [r.revision, r.action, r.changed])).toEqual([
      [4, 'archive', ['status']],
      [3, 'publish', ['status']],
      [2, 'update', ['body', 'tags']],
      [
        1,
        'create',
        ['key', 'lang', 'slug', 'title', 'body', 'questions', 'category', 'tags', 'pages', 'next', 'status'],
      ],
    ]);
    expect(revisions.body.data[3].snapshot).toMatchObject({ body: 'First body.', tags: ['plants'] });
    const restored = await kb.call('POST', `${path}/revisions/1/restore`, { auth: staff, body: { revision: 4 } });
    expect(restored.body).toMatchObject({
      message: 'Revision 1 restored.',
      data: { body: 'First body.', tags: ['plants'], status: 'archived', revision: 5 },
    });
    const missing = await kb.call('POST', `${path}/revisions/99/restore`, { auth: staff, body: {} });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ success: false, message: 'Revision not found.' });
    const deleted = await kb.call('DELETE', path, { auth: staff });
    expect(deleted.body).toEqual({ success: true, message: 'Article deleted.' });
    expect((await kb.call('GET', path, { auth: staff })).status).toBe(404);
    expect((await kb.call('GET', `${path}/revisions`, { auth: staff })).status).toBe(404);
  });
});

describe('categories and tags', () => {
  it('keeps the tree sound: unique slugs, no loops, no deleting a category in use', async () => {
    const post = (body: unknown) => kb.call('POST', '/api/admin/kb/categories', { auth: staff, body });
    const garden = await post({ slug: 'garden', name_en: 'Garden', name_fa: 'باغ' });
    expect(garden.status).toBe(201);
    const cacti = await post({
      slug: 'cacti',
      name_en: 'Cacti',
      name_fa: 'کاکتوس‌ها',
      parent_id: garden.body.data.id,
      position: 2,
    });
    expect(cacti.body.data).toMatchObject({ parent_id: garden.body.data.id, position: 2 });
    expect((await post({ slug: 'garden', name_en: 'G', name_fa: 'گ' })).body.errors).toEqual({
      slug: ['The slug has already been taken.'],
    });
    expect((await post({ slug: 'x', name_en: 'X', name_fa: 'ا', parent_id: 999999 })).body.errors).toEqual({
      parent_id: ['The selected category does not exist.'],
    });
    expect((await post({ slug: 'x', name_en: '', name_fa: 'ا' })).body.errors).toEqual({
      name_en: ['The name en field is required.'],
    });
    const loop = await kb.call('PUT', `/api/admin/kb/categories/${garden.body.data.id}`, {
      auth: staff,
      body: { slug: 'garden', name_en: 'Garden', name_fa: 'باغ', parent_id: cacti.body.data.id },
    });
    expect(loop.status).toBe(422);
    expect(loop.body.errors).toEqual({
      parent_id: ['A category cannot be placed under itself or one of its descendants.'],
    });
    await create({ category: 'cacti' });
    const inUse = await kb.call('DELETE', `/api/admin/kb/categories/${cacti.body.data.id}`, { auth: staff });
    expect(inUse.status).toBe(400);
    expect(inUse.body).toEqual({
      success: false,
      message: 'The category still holds articles or subcategories; move them first.',
    });
    const empty = await post({ slug: 'empty', name_en: 'Empty', name_fa: 'خالی' });
    expect((await kb.call('DELETE', `/api/admin/kb/categories/${empty.body.data.id}`, { auth: staff })).body).toEqual({
      success: true,
      message: 'Category deleted.',
    });
    expect((await kb.call('DELETE', `/api/admin/kb/categories/${empty.body.data.id}`, { auth: staff })).status).toBe(
      404,
    );
  });

  it('creates tags, refuses a name twice, and takes a deleted tag off its articles', async () => {
    const tag = await kb.call('POST', '/api/admin/kb/tags', { auth: staff, body: { name: 'succulents' } });
    expect(tag.status).toBe(201);
    expect(tag.body.data).toMatchObject({ name: 'succulents', articles: 0 });
    expect(
      (await kb.call('POST', '/api/admin/kb/tags', { auth: staff, body: { name: 'succulents' } })).body.errors,
    ).toEqual({ name: ['The tag already exists.'] });
    const tagged = await create({ tags: ['succulents'] });
    const tags = await kb.call('GET', '/api/admin/kb/tags', { auth: staff });
    expect(tags.body.data.find((t: any) => t.name === 'succulents').articles).toBe(1);
    expect((await kb.call('DELETE', `/api/admin/kb/tags/${tag.body.data.id}`, { auth: staff })).body).toEqual({
      success: true,
      message: 'Tag deleted.',
    });
    expect((await kb.call('GET', `/api/admin/kb/articles/${tagged.id}`, { auth: staff })).body.data.tags).toEqual([]);
  });
});
