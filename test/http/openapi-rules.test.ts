// The rules the OpenAPI document states as JSON Schema beyond what the routes validate with it
// (x-document-as in the chat and geographic schemas): the chat context's shape and the geographic level. Whatever the
// document refuses, the service must refuse too (422 in the route's form), and whatever the
// service accepts, the document must accept: checked on generated values against the real routes.
import { Ajv } from 'ajv';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextSchema } from '../../src/modules/assistant/context-schema.js';
import { LEVEL_PATTERN } from '../../src/modules/geo/schemas.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';

let t: TestApp;
let member: TestUser;
let document: string;

beforeAll(async () => {
  t = await buildTestApp({ loadGeoData: true });
  member = await t.makeUser();
  document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).body;
});
afterAll(() => t.close());

describe('the chat context in the document', () => {
  const documented = new Ajv({ strict: false }).compile(contextSchema());

  it('is in the document: the key bounds, the depth and the level pattern', () => {
    const parsed = JSON.parse(document) as unknown;
    expect(JSON.stringify(parsed)).toContain(JSON.stringify(contextSchema().propertyNames));
    expect(document).toContain(JSON.stringify(LEVEL_PATTERN));
  });

  it('refuses what the service refuses, and accepts what it accepts', async () => {
    const key = fc.oneof(
      fc.constantFrom('', ' ', 'page', 'x'.repeat(64), 'y'.repeat(65), 'module'),
      fc.string({ maxLength: 70 }),
    );
    const leaf = fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.boolean(), fc.constant(null));
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', maxDepth: 6 },
        leaf,
        tie('object'),
        fc.array(tie('value'), { maxLength: 3 }),
      ),
      object: fc.dictionary(key, tie('value'), { maxKeys: 4 }),
    }));
    const context = fc.oneof(
      fc.dictionary(key, value, { maxKeys: 6 }),
      fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }), fc.integer(), { minKeys: 45, maxKeys: 60 }),
    );
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(context, async (ctx) => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/assistant/chat',
          headers: member.auth,
          payload: { message: 'How do I verify my account?', context: ctx },
        });
        const valid = documented(ctx);
        if (!valid) {
          refused++;
          expect(res.statusCode, JSON.stringify(ctx).slice(0, 200)).toBe(422);
          expect(Object.keys(res.json().errors)).toEqual(['context']);
        }
        if (res.statusCode === 200) expect(valid).toBe(true);
      }),
      { numRuns: 150, seed: 20261124 },
    );
    // The generator reaches the refusals, not only the happy path.
    expect(refused).toBeGreaterThan(10);
  });
});

describe('the geographic level in the document', () => {
  const pattern = new RegExp(LEVEL_PATTERN);

  it('matches the levels the service takes, in any case, and nothing else', async () => {
    const level = fc.oneof(
      fc.constantFrom(
        'continent',
        'Country',
        'PROVINCE',
        'cOunTy',
        'section',
        'City',
        'region',
        'Neighborhood',
        'STREET',
      ),
      fc.constantFrom('village', 'rural', 'cities', 'streets', 'continent ', 'provincE1', ''),
      fc.stringMatching(/^[A-Za-z]{1,12}$/),
    );
    await fc.assert(
      fc.asyncProperty(level, async (name) => {
        if (name === '') return;
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/geographic/${encodeURIComponent(name)}/1/children`,
        });
        expect(res.statusCode === 422, name).toBe(!pattern.test(name));
      }),
      { numRuns: 120, seed: 20261124 },
    );
  });
});
