// Every geographic endpoint on the real, shipped data (loaded at start as in production).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { activeIdsWhere, sorted, sourceRows } from './source-data.js';

const faCollator = new Intl.Collator('fa', { numeric: true });
type Item = { id: number | string; name: string };

describe('geographic endpoints on the shipped data', () => {
  let t: TestApp;
  const get = async (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });
  const json = async <T = Item[]>(url: string): Promise<T> => {
    const res = await get(url);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json() as T;
  };
  const ids = (items: Item[]) => items.map((i) => i.id);

  beforeAll(async () => {
    t = await buildTestApp({ loadGeoData: true });
  });
  afterAll(() => t.close());

  describe('GET /api/provinces', () => {
    it('returns the 31 active provinces as data: [{id, name}] with integer ids', async () => {
      const body = await json<{ data: Item[] }>('/api/provinces');
      expect(Object.keys(body)).toEqual(['data']);
      expect(body.data).toHaveLength(31);
      expect(sorted(ids(body.data))).toEqual(sorted(sourceRows('provinces.csv').map((r) => Number(r.id))));
      for (const item of body.data) {
        expect(Object.keys(item)).toEqual(['id', 'name']);
        expect(Number.isInteger(item.id)).toBe(true);
      }
    });

    it('orders by name in Persian alphabetical order, then id', async () => {
      const { data } = await json<{ data: Item[] }>('/api/provinces');
      const expected = [...data].sort((a, b) => faCollator.compare(a.name, b.name) || Number(a.id) - Number(b.id));
      expect(ids(data)).toEqual(ids(expected));
      // Persian letters outside the Arabic block (پ U+067E) sort by the alphabet, not by code point.
      const tehran = data.findIndex((p) => p.name === 'تهران');
      const bushehr = data.findIndex((p) => p.name === 'بوشهر');
      expect(bushehr).toBeGreaterThanOrEqual(0);
      expect(tehran).toBeGreaterThan(bushehr);
    });

    it('needs no token, and ignores a garbage one', async () => {
      expect((await get('/api/provinces', { authorization: 'Bearer garbage' })).statusCode).toBe(200);
    });

    it('answers with Cache-Control, a strong ETag, a JSON content type and the security headers', async () => {
      const res = await get('/api/provinces');
      expect(res.headers['cache-control']).toBe('public, max-age=3600');
      expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{20,}"$/);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    });
  });

  describe('ETag revalidation', () => {
    it('answers 304 with no body when If-None-Match names the current ETag', async () => {
      const first = await get('/api/geographic/section/785/children');
      const etag = String(first.headers.etag);
      const again = await get('/api/geographic/section/785/children', { 'if-none-match': etag });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['cache-control']).toBe('public, max-age=3600');
    });

    it('accepts the weak form, a list of tags and *', async () => {
      const etag = String((await get('/api/provinces')).headers.etag);
      for (const header of [`W/${etag}`, `"other", ${etag}`, '*']) {
        expect((await get('/api/provinces', { 'if-none-match': header })).statusCode, header).toBe(304);
      }
    });

    it('answers 200 with the body when the ETag is stale', async () => {
      const res = await get('/api/provinces', { 'if-none-match': '"stale"' });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toHaveLength(31);
    });

    it('gives different bodies different ETags and the same body the same ETag', async () => {
      const a = (await get('/api/counties/8')).headers.etag;
      const b = (await get('/api/counties/9')).headers.etag;
      const c = (await get('/api/counties/8')).headers.etag;
      expect(a).not.toBe(b);
      expect(a).toBe(c);
    });
  });

  describe('the integer-path endpoints', () => {
    it('GET /api/counties/{province} gives the active counties of the province', async () => {
      const { data } = await json<{ data: Item[] }>('/api/counties/8');
      expect(sorted(ids(data))).toEqual(sorted(activeIdsWhere(sourceRows('counties.csv'), 'province_id', 8)));
    });

    it('GET /api/districts/{county} gives the districts of the county', async () => {
      const { data } = await json<{ data: Item[] }>('/api/districts/126');
      expect(data.length).toBeGreaterThan(0);
      expect(sorted(ids(data))).toEqual(sorted(activeIdsWhere(sourceRows('districts.csv'), 'county_id', 126)));
    });

    it('GET /api/cities/{district} gives the cities of the district', async () => {
      const { data } = await json<{ data: Item[] }>('/api/cities/785');
      expect(sorted(ids(data))).toEqual(sorted(activeIdsWhere(sourceRows('cities.csv'), 'district_id', 785)));
    });

    it('GET /api/villages/{district} gives the villages of the district from the compressed file', async () => {
      const villages = sourceRows('villages.csv.gz');
      expect(villages).toHaveLength(98_100);
      const { data } = await json<{ data: Item[] }>('/api/villages/785');
      const expected = activeIdsWhere(villages, 'district_id', 785);
      expect(expected.length).toBeGreaterThan(0);
      expect(sorted(ids(data))).toEqual(sorted(expected));
    });

    it('gives {data: []} for an integer that names no parent', async () => {
      for (const url of [
        '/api/counties/99999',
        '/api/districts/2147483647',
        '/api/cities/99999',
        '/api/villages/99999',
      ]) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(200);
        expect(res.json(), url).toEqual({ data: [] });
      }
    });

    it('answers 422 in the general form for an id that is not an integer', async () => {
      const res = await get('/api/counties/abc');
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        success: false,
        message: 'The given data was invalid.',
        errors: { id: ['The id must be an integer.'] },
      });
    });

    it('answers 422 for an id below 1 or above the integer range', async () => {
      expect((await get('/api/districts/0')).json()).toEqual({
        success: false,
        message: 'The given data was invalid.',
        errors: { id: ['The id must be at least 1.'] },
      });
      expect((await get('/api/cities/99999999999')).statusCode).toBe(422);
      expect((await get('/api/villages/1%27%20OR%20%271%27%3D%271')).statusCode).toBe(422);
    });
  });

  describe('GET /api/geographic/continents', () => {
    it('returns the 7 continents as a bare array', async () => {
      const body = await json('/api/geographic/continents');
      expect(Array.isArray(body)).toBe(true);
      expect(body).toHaveLength(7);
      expect(sorted(ids(body))).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(body.find((c) => c.id === 4)?.name).toBe('آسیا');
    });
  });

  describe('GET /api/geographic/{level}/{parentId}/children', () => {
    it('walks the recommended cascade from Asia down to Iran and its provinces', async () => {
      const countries = await json('/api/geographic/continent/4/children');
      expect(countries.find((c) => c.id === 74)?.name).toBe('ایران');
      const provinces = await json('/api/geographic/country/74/children');
      expect(provinces).toHaveLength(31);
      const { data } = await json<{ data: Item[] }>('/api/provinces');
      expect(ids(provinces)).toEqual(ids(data));
    });

    it('agrees with the integer-path endpoints: same ids in the same order', async () => {
      const pairs: Array<[string, string]> = [
        ['/api/counties/8', '/api/geographic/province/8/children'],
        ['/api/districts/126', '/api/geographic/county/126/children'],
      ];
      for (const [wrapped, bare] of pairs) {
        const { data } = await json<{ data: Item[] }>(wrapped);
        expect(data.length).toBeGreaterThan(0);
        expect(await json(bare)).toEqual(data);
      }
    });

    it('gives a section the cities and rurals of the district with city_ and rural_ string ids', async () => {
      const children = await json('/api/geographic/section/785/children');
      const cities = activeIdsWhere(sourceRows('cities.csv'), 'district_id', 785).map((id) => `city_${id}`);
      const rurals = activeIdsWhere(sourceRows('rurals.csv'), 'district_id', 785).map((id) => `rural_${id}`);
      expect(cities.length).toBeGreaterThan(0);
      expect(rurals.length).toBeGreaterThan(0);
      expect(sorted(ids(children))).toEqual(sorted([...cities, ...rurals]));
      for (const child of children) expect(typeof child.id).toBe('string');
      const names = children.map((c) => c.name);
      expect(names).toEqual([...names].sort(faCollator.compare));
    });

    it('labels each rural of a section with its name followed by (دهستان), and each city with its name alone', async () => {
      const children = await json('/api/geographic/section/785/children');
      const byId = new Map(children.map((c) => [c.id, c.name]));
      const cities = sourceRows('cities.csv').filter((r) => r.district_id === '785' && r.active === '1');
      const rurals = sourceRows('rurals.csv').filter((r) => r.district_id === '785' && r.active === '1');
      expect(rurals.length).toBeGreaterThan(0);
      for (const rural of rurals) expect(byId.get(`rural_${rural.id}`)).toBe(`${rural.name} (دهستان)`);
      for (const city of cities) expect(byId.get(`city_${city.id}`)).toBe(city.name);
      // Only the section list carries the label: the villages of a rural and the ids are unchanged.
      expect(children.filter((c) => String(c.name).endsWith(' (دهستان)')).map((c) => c.id)).toEqual(
        children.filter((c) => String(c.id).startsWith('rural_')).map((c) => c.id),
      );
    });

    it('tells apart a rural and a city of the same name and keeps the section list and its ETag stable', async () => {
      const cityNames = new Map(
        sourceRows('cities.csv')
          .filter((r) => r.active === '1')
          .map((r) => [`${r.district_id}/${r.name}`, r.id]),
      );
      const twin = sourceRows('rurals.csv').find(
        (r) => r.active === '1' && cityNames.has(`${r.district_id}/${r.name}`),
      );
      expect(twin, 'the shipped data has a district with a city and a rural of the same name').toBeDefined();
      const url = `/api/geographic/section/${twin!.district_id}/children`;
      const first = await get(url);
      const children = first.json() as Item[];
      const city = children.find((c) => c.id === `city_${cityNames.get(`${twin!.district_id}/${twin!.name}`)}`)!;
      const rural = children.find((c) => c.id === `rural_${twin!.id}`)!;
      expect(city.name).toBe(twin!.name);
      expect(rural.name).toBe(`${twin!.name} (دهستان)`);
      expect(children.indexOf(city)).toBeLessThan(children.indexOf(rural));
      const again = await get(url, { 'if-none-match': String(first.headers.etag) });
      expect(again.statusCode).toBe(304);
    });

    it('needs the city_ prefix for level city: a plain integer matches nothing', async () => {
      const regions = await json('/api/geographic/city/city_4/children');
      expect(sorted(ids(regions))).toEqual(sorted(activeIdsWhere(sourceRows('regions.csv'), 'city_id', 4)));
      expect(regions.length).toBeGreaterThan(0);
      expect(await json('/api/geographic/city/4/children')).toEqual([]);
    });

    it('gives the villages of a rural for rural_<id> under level city', async () => {
      const villages = await json('/api/geographic/city/rural_1/children');
      const expected = activeIdsWhere(sourceRows('villages.csv.gz'), 'rural_id', 1);
      expect(expected.length).toBeGreaterThan(0);
      expect(sorted(ids(villages))).toEqual(sorted(expected));
      for (const village of villages) expect(Number.isInteger(village.id)).toBe(true);
    });

    it('hides inactive rows of the shipped data (inactive regions of a city)', async () => {
      const regions = sourceRows('regions.csv');
      const inactive = regions.find((r) => r.active === '0')!;
      expect(inactive).toBeDefined();
      const served = ids(await json(`/api/geographic/city/city_${inactive.city_id}/children`));
      expect(served).not.toContain(Number(inactive.id));
      expect(sorted(served)).toEqual(sorted(activeIdsWhere(regions, 'city_id', Number(inactive.city_id))));
    });

    it('gives the neighborhoods of a region', async () => {
      const neighborhoods = sourceRows('neighborhoods.csv');
      const regionId = Number(neighborhoods[0]!.region_id);
      const served = await json(`/api/geographic/region/${regionId}/children`);
      expect(sorted(ids(served))).toEqual(sorted(activeIdsWhere(neighborhoods, 'region_id', regionId)));
    });

    it('gives [] for neighborhoods and streets without imported streets or alleys', async () => {
      expect(await json('/api/geographic/neighborhood/1/children')).toEqual([]);
      expect(await json('/api/geographic/street/1/children')).toEqual([]);
    });

    it('takes the level in any case', async () => {
      const lower = await json('/api/geographic/section/785/children');
      expect(await json('/api/geographic/SECTION/785/children')).toEqual(lower);
      expect(await json('/api/geographic/Province/8/children')).toEqual(
        await json('/api/geographic/province/8/children'),
      );
      expect(await json('/api/geographic/CITY/city_4/children')).toEqual(
        await json('/api/geographic/city/city_4/children'),
      );
    });

    it('gives [] for a non-numeric, negative, or unknown parent, never an error', async () => {
      for (const parent of ['abc', '8abc', '-1', '1.5', 'city_8', '999999', '99999999999999999999', '%20']) {
        const res = await get(`/api/geographic/province/${parent}/children`);
        expect(res.statusCode, parent).toBe(200);
        expect(res.json(), parent).toEqual([]);
      }
      expect(await json('/api/geographic/city/city_abc/children')).toEqual([]);
      expect(await json('/api/geographic/city/village_1/children')).toEqual([]);
    });

    it('treats SQL-looking parents and levels as data: [] or 422, and the tables survive', async () => {
      const parents = ["8' OR '1'='1", '8; DROP TABLE provinces; --', '8 UNION SELECT id, name FROM users'];
      for (const parent of parents) {
        const res = await get(`/api/geographic/province/${encodeURIComponent(parent)}/children`);
        expect(res.statusCode, parent).toBe(200);
        expect(res.json()).toEqual([]);
      }
      const level = await get(`/api/geographic/${encodeURIComponent("province' OR '1'='1")}/8/children`);
      expect(level.statusCode).toBe(422);
      const count = await t.db
        .selectFrom('provinces')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(31);
    });

    it('answers 422 with errors.level for an unknown level', async () => {
      for (const level of ['planet', 'district', 'provinces', 'village']) {
        const res = await get(`/api/geographic/${level}/1/children`);
        expect(res.statusCode, level).toBe(422);
        expect(res.json()).toEqual({
          success: false,
          message: 'The given data was invalid.',
          errors: { level: ['The selected level is invalid.'] },
        });
      }
    });

    it('words the unknown-level message in Persian for Accept-Language: fa, keeping the fixed message', async () => {
      const res = await get('/api/geographic/planet/1/children', { 'accept-language': 'fa' });
      expect(res.statusCode).toBe(422);
      const body = res.json();
      expect(body.message).toBe('The given data was invalid.');
      expect(body.errors.level[0]).toMatch(/نامعتبر/);
    });
  });
});
