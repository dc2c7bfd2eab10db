// Shared set-up of the route tests: a fresh app and the users a test file works with, made in
// the order named (so their ids rise in that order), each with a token.
import { buildTestApp, type TestApp, type TestAppOptions } from './app.js';
import type { TestUser } from './factories.js';

export type UserOptions = NonNullable<Parameters<TestApp['makeUser']>[0]>;

/** A fresh app and one user per key of `users`, made with that key's options. */
export async function appWithUsers<const K extends string>(
  users: Record<K, UserOptions>,
  options: TestAppOptions = {},
): Promise<{ t: TestApp } & Record<K, TestUser>> {
  const t = await buildTestApp(options);
  const made = {} as Record<K, TestUser>;
  for (const name in users) made[name] = await t.makeUser(users[name]);
  return { t, ...made };
}

/** Two regular users (one acts, the other is someone else) and an administrator. */
export const MEMBERS_AND_ADMIN = { user: {}, other: {}, admin: { admin: true } } as const satisfies Record<
  string,
  UserOptions
>;
