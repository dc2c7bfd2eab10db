// The geographic endpoints are public reference data: exempt from the platform rate limit, with
// the app's security headers, and they answer (empty) even when no data has been loaded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

describe('geographic endpoints without data, under a tight platform limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ loadGeoData: false, config: { RATE_LIMIT_PER_MINUTE: 2 } });
  });
  afterAll(() => t.close());

  it('never answers 429, and sends no rate-limit headers', async () => {
    for (let i = 0; i < 6; i += 1) {
      for (const url of [
        '/api/provinces',
        '/api/counties/8',
        '/api/geographic/continents',
        '/api/geographic/section/1/children',
      ]) {
        const res = await t.app.inject(url);
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      }
    }
  });

  it("gives empty lists in each endpoint's shape when the tables are empty", async () => {
    expect((await t.app.inject('/api/provinces')).json()).toEqual({ data: [] });
    expect((await t.app.inject('/api/villages/1')).json()).toEqual({ data: [] });
    expect((await t.app.inject('/api/geographic/continents')).json()).toEqual([]);
    expect((await t.app.inject('/api/geographic/city/city_1/children')).json()).toEqual([]);
  });

  it('sends the same security headers as the rest of the app, on 200, 304 and 422 alike', async () => {
    const reference = await t.app.inject('/health');
    const security = Object.keys(reference.headers).filter(
      (h) => /^(x-|cross-origin|origin-agent|referrer|strict-transport)/.test(h) && h !== 'x-request-id',
    );
    expect(security.length).toBeGreaterThanOrEqual(7);
    const first = await t.app.inject('/api/provinces');
    const responses = [
      first,
      await t.app.inject('/api/provinces'),
      await t.app.inject({ url: '/api/provinces', headers: { 'if-none-match': String(first.headers.etag) } }),
      await t.app.inject('/api/counties/abc'),
      await t.app.inject('/api/geographic/planet/1/children'),
    ];
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 304, 422, 422]);
    for (const res of responses) {
      for (const header of security)
        expect(res.headers[header], `${res.statusCode} ${header}`).toBe(reference.headers[header]);
    }
  });

  it('documents the seven endpoints in the OpenAPI document', async () => {
    const paths = Object.keys((await t.app.inject('/openapi.json')).json().paths);
    for (const p of [
      '/api/provinces',
      '/api/counties/{id}',
      '/api/districts/{id}',
      '/api/cities/{id}',
      '/api/villages/{id}',
      '/api/geographic/continents',
      '/api/geographic/{level}/{parentId}/children',
    ]) {
      expect(paths, p).toContain(p);
    }
  });
});
