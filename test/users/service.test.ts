// The users boundary's lookups on the real database of the run (SQLite or PostgreSQL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUser, referencedUser, usersByIds, type UserRecord } from '../../src/modules/users/service.js';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';
import { revokeToken, TokenVerifier } from '../../src/modules/users/tokens.js';
import { makeToken, makeUser } from '../helpers/factories.js';

describe('users service', () => {
  let t: TestDatabase;
  let ada: UserRecord;
  let bob: UserRecord;

  beforeAll(async () => {
    t = await createTestDatabase();
    ada = await makeUser(t.db, { firstName: 'Ada', locale: 'fa' });
    bob = await makeUser(t.db, { firstName: 'Bob', admin: true });
  });
  afterAll(() => t.destroy());

  it('finds a user by id with the public fields, and nothing for an unknown id', async () => {
    expect(await findUser(t.db, ada.id)).toEqual(ada);
    expect(await findUser(t.db, bob.id)).toMatchObject({ is_admin: true, locale: 'en' });
    expect(await findUser(t.db, 987_654)).toBeUndefined();
  });

  it('answers a user referenced by a foreign key, and throws naming an id that has no user', async () => {
    expect(await referencedUser(t.db, bob.id)).toEqual(bob);
    await expect(referencedUser(t.db, 987_654)).rejects.toThrow(
      'user 987654 is referenced by a foreign key but does not exist',
    );
  });

  it('reads many users in one lookup: repeated ids once, unknown ids left out', async () => {
    const found = await usersByIds(t.db, [bob.id, ada.id, bob.id, 987_654]);
    expect([...found.keys()].sort((a, b) => a - b)).toEqual([ada.id, bob.id].sort((a, b) => a - b));
    expect(found.get(ada.id)).toEqual(ada);
    expect((await usersByIds(t.db, [])).size).toBe(0);
  });

  it("reads inside the caller's transaction, so a user written there is seen before the commit", async () => {
    await expect(
      t.db.transaction().execute(async (trx) => {
        const carol = await makeUser(trx, { firstName: 'Carol' });
        expect(await findUser(trx, carol.id)).toEqual(carol);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
  });

  it("verifies a token with the user's answer version of a scope in one statement: 0 before any change, then the raised one", async () => {
    const verifier = new TokenVerifier(t.db);
    const token = await makeToken(t.db, ada.id);
    expect(await verifier.verifyWithVersion(token, 'notifications')).toEqual({ user: ada, answerVersion: 0 });
    await t.db.insertInto('answer_versions').values({ user_id: ada.id, scope: 'notifications', version: 7 }).execute();
    await t.db.insertInto('answer_versions').values({ user_id: bob.id, scope: 'notifications', version: 3 }).execute();
    expect(await verifier.verifyWithVersion(token, 'notifications')).toEqual({ user: ada, answerVersion: 7 });
    expect((await verifier.verifyWithVersion(token, 'tickets'))?.answerVersion).toBe(0);
    // The same refusals as verify(): a changed secret, a malformed token, a revoked token.
    expect(
      await verifier.verifyWithVersion(token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A'), 'notifications'),
    ).toBeUndefined();
    expect(await verifier.verifyWithVersion('not-a-token', 'notifications')).toBeUndefined();
    await revokeToken(t.db, Number(token.split('|')[0]));
    expect(await verifier.verifyWithVersion(token, 'notifications')).toBeUndefined();
    expect(await verifier.verify(token)).toBeUndefined();
  });
});
