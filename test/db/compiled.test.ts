import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledQuery } from '../../src/db/compiled.js';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';
import { makeUser } from '../helpers/factories.js';

describe('compiledQuery: a query compiled once, run with new values', () => {
  let t: TestDatabase;
  let ids: number[];

  beforeAll(async () => {
    t = await createTestDatabase();
    ids = [];
    for (const name of ['Ada', 'Bea', 'Cy'])
      ids.push((await makeUser(t.db, { firstName: name, admin: name === 'Bea' })).id);
  });
  afterAll(() => t.destroy());

  const byId = compiledQuery('test.byId', (db, id: number) =>
    db.selectFrom('users').select(['id', 'first_name']).where('id', '=', id),
  );

  it("binds each call's arguments in place of the ones it was built with", async () => {
    expect(await byId(t.db, ids[0]!)).toEqual([{ id: ids[0], first_name: 'Ada' }]);
    expect(await byId(t.db, ids[2]!)).toEqual([{ id: ids[2], first_name: 'Cy' }]);
    expect(await byId(t.db, -1)).toEqual([]);
  });

  it('keeps the values the builder wrote itself and reuses an argument bound twice', async () => {
    const adminsNamed = compiledQuery('test.adminsNamed', (db, name: string) =>
      db
        .selectFrom('users')
        .select('first_name')
        .where('is_admin', '=', 1)
        .where((eb) => eb.or([eb('first_name', '=', name), eb('last_name', '=', name)])),
    );
    expect(await adminsNamed(t.db, 'Bea')).toEqual([{ first_name: 'Bea' }]);
    expect(await adminsNamed(t.db, 'Ada')).toEqual([]);
  });

  it('refuses an argument that does not reach the query as a bound value', async () => {
    const unused = compiledQuery('test.unused', (db, _id: number) =>
      db.selectFrom('users').select('id').where('id', '=', 1),
    );
    await expect(unused(t.db, 1)).rejects.toThrow('argument 0 does not reach the query as a bound value');
    const literal = compiledQuery('test.literal', (db, limit: number) =>
      db.selectFrom('users').select('id').limit(sql.lit(limit)),
    );
    await expect(literal(t.db, 1)).rejects.toThrow();
  });
});
