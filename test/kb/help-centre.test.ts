// The public help centre over real sockets, on the database of the run: the category tree with
// counts, published articles paginated like the tickets list, a search through the assistant's
// retrieval (typos, colloquial Persian, Finglish), one article by slug with its ETag and 304, and
// 404 for drafts, archived articles and unknown slugs. No token needed.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { userWithToken } from '../helpers/factories.js';
import { article, KbServer } from './helpers.js';

// Child processes (servers, the CLI through tsx) are slow on a loaded machine.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 240_000 });

let kb: KbServer;
let staff: Record<string, string>;

beforeAll(async () => {
  kb = await KbServer.start();
  staff = (await userWithToken(kb.database.db, { admin: true })).auth;
}, 120_000);

afterAll(async () => {
  await kb?.stop();
});

async function create(overrides: Record<string, unknown>, publish = true) {
  const res = await kb.call('POST', '/api/admin/kb/articles', {
    auth: staff,
    body: article({ status: publish ? 'published' : 'draft', ...overrides }),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

describe('the help centre', () => {
  it('lists the category tree depth first with published counts per language', async () => {
    const parent = await kb.call('POST', '/api/admin/kb/categories', {
      auth: staff,
      body: { slug: 'gardening', name_en: 'Gardening', name_fa: 'باغبانی', position: 99 },
    });
    await kb.call('POST', '/api/admin/kb/categories', {
      auth: staff,
      body: { slug: 'cacti', name_en: 'Cacti', name_fa: 'کاکتوس', parent_id: parent.body.data.id },
    });
    await create({ category: 'cacti' });
    await create({ category: 'cacti' }, false);
    const en = await kb.call('GET', '/api/kb/categories?lang=en');
    expect(en.status).toBe(200);
    expect(en.body.data.find((c: any) => c.slug === 'payments')).toEqual({
      slug: 'payments',
      parent: null,
      depth: 0,
      name: 'Payments and refunds',
      articles: 6,
    });
    const tail = en.body.data.slice(-2);
    expect(tail).toEqual([
      { slug: 'gardening', parent: null, depth: 0, name: 'Gardening', articles: 0 },
      { slug: 'cacti', parent: 'gardening', depth: 1, name: 'Cacti', articles: 1 },
    ]);
    const fa = await kb.call('GET', '/api/kb/categories', { headers: { 'accept-language': 'fa' } });
    expect(fa.body.data.at(-1)).toEqual({ slug: 'cacti', parent: 'gardening', depth: 1, name: 'کاکتوس', articles: 0 });
  });

  it('pages the published articles of one language like the tickets list, by category and tag', async () => {
    const page = await kb.call('GET', '/api/kb/articles?lang=fa&category=payments&per_page=4&page=2');
    expect(page.status).toBe(200);
    expect(page.body.meta).toEqual({ current_page: 2, last_page: 2, per_page: 4, total: 6 });
    expect(page.body.data).toHaveLength(2);
    expect(Object.keys(page.body.data[0]).sort()).toEqual(['category', 'key', 'slug', 'tags', 'title', 'updated_at']);
    await create({ tags: ['rare-tag'] });
    await create({ tags: ['rare-tag'] }, false);
    const tagged = await kb.call('GET', '/api/kb/articles?lang=en&tag=rare-tag');
    expect(tagged.body.meta.total).toBe(1);
    for (const query of ['lang=de', 'per_page=101', 'page=0', 'category=Not%20A%20Slug']) {
      const res = await kb.call('GET', `/api/kb/articles?${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body.message).toBe('The given data was invalid.');
    }
  });

  it("searches with the assistant's retrieval: typos, colloquial Persian and Finglish", async () => {
    const keys = async (lang: string, q: string) =>
      (await kb.call('GET', `/api/kb/articles?lang=${lang}&q=${encodeURIComponent(q)}&per_page=3`)).body.data.map(
        (a: any) => a.key,
      );
    expect((await keys('en', 'how long dose a refnd take'))[0]).toBe('payments.refund-time');
    expect((await keys('fa', 'ریفاندم کی میاد'))[0]).toBe('payments.refund-time');
    expect(await keys('fa', 'ramzamo yadam rafte')).toContain('accounts.password');
    expect(await keys('en', 'zzqx')).toEqual([]);
  });

  it('shows a published article with its other language, an ETag and 304, and 404 for drafts, archived and unknown slugs', async () => {
    const path = '/api/kb/articles/payments-refund-time?lang=en';
    const res = await kb.call('GET', path);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      key: 'payments.refund-time',
      lang: 'en',
      category: { slug: 'payments', name: 'Payments and refunds' },
      other_language: { lang: 'fa', slug: 'payments-refund-time' },
    });
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    const again = await fetch(`${kb.url}${path}`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const draft = await create({}, false);
    const archived = await create({});
    await kb.call('POST', `/api/admin/kb/articles/${archived.id}/archive`, { auth: staff, body: {} });
    for (const slug of [draft.slug, archived.slug, 'no-such-article']) {
      const missing = await kb.call('GET', `/api/kb/articles/${slug}?lang=en`);
      expect(missing.status, slug).toBe(404);
      expect(missing.body).toEqual({ success: false, message: 'Article not found.' });
    }
    // An edit gives the article a new ETag.
    const edited = await create({ body: 'First.' });
    const first = await kb.call('GET', `/api/kb/articles/${edited.slug}?lang=en`);
    await kb.call('PUT', `/api/admin/kb/articles/${edited.id}`, {
      auth: staff,
      body: { revision: 1, body: 'Second.' },
    });
    const second = await fetch(`${kb.url}/api/kb/articles/${edited.slug}?lang=en`, {
      headers: { 'if-none-match': first.headers.get('etag')! },
    });
    expect(second.status).toBe(200);
  });
});
