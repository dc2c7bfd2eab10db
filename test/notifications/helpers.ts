// Shortcuts for the notification tests: report changes through the admin integration API and
// read a user's notifications back.
import type { TestApp, TestAppOptions } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';
import { appWithUsers } from '../helpers/fixtures.js';

export interface Reporter {
  project(id: number, body: Record<string, unknown>): Promise<{ status: number; body: any }>;
  revision(id: number, body: Record<string, unknown>): Promise<{ status: number; body: any }>;
  investment(id: number, body: Record<string, unknown>): Promise<{ status: number; body: any }>;
}

export function reporter(t: TestApp, admin: TestUser, headers: Record<string, string> = {}): Reporter {
  const send = async (method: 'PUT' | 'POST', url: string, payload: Record<string, unknown>) => {
    const res = await t.app.inject({ method, url, headers: { ...admin.auth, ...headers }, payload });
    return { status: res.statusCode, body: res.json() };
  };
  return {
    project: (id, body) => send('PUT', `/api/admin/projects/${id}`, body),
    revision: (id, body) => send('POST', `/api/admin/projects/${id}/revision-requests`, body),
    investment: (id, body) => send('PUT', `/api/admin/investments/${id}`, body),
  };
}

/** A fresh app with an administrator who reports changes, a project owner and an investor. */
export async function appWithParties(
  options: TestAppOptions = {},
): Promise<{ t: TestApp; admin: TestUser; owner: TestUser; investor: TestUser; report: Reporter }> {
  const parties = await appWithUsers(
    {
      admin: { admin: true },
      owner: { firstName: 'Olivia', lastName: 'Owner' },
      investor: { firstName: 'Ivan', lastName: 'Investor' },
    },
    options,
  );
  return { ...parties, report: reporter(parties.t, parties.admin) };
}

export async function unreadOf(t: TestApp, user: TestUser): Promise<any[]> {
  const res = await t.app.inject({ method: 'GET', url: '/api/notifications', headers: user.auth });
  if (res.statusCode !== 200) throw new Error(`GET /api/notifications answered ${res.statusCode}: ${res.body}`);
  return res.json();
}

/** Every notification row of a user straight from the database, read or not. */
export async function storedFor(t: TestApp, userId: number) {
  return t.db
    .selectFrom('notifications')
    .select(['id', 'type', 'data', 'read_at', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('seq')
    .execute();
}

let nextId = 1000;
/** A platform id not used before in this test file. */
export function newId(): number {
  nextId += 1;
  return nextId;
}
