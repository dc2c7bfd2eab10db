// A small populated world for the hostile suites: an owner, another user and an admin, each with
// conversations, tickets (one with a file) and notifications, created through the API itself.
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { expect } from 'vitest';
import { buildTestApp, testDialect, type TestApp, type TestAppOptions } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';
import { filesUnder } from '../../harness/files.js';
import { multipart } from '../helpers/multipart.js';
import { MULTIPART_BOUNDARY, TEXT_FILE } from './arbitraries.js';

export interface Holdings {
  conversations: number[];
  tickets: number[];
  /** [ticket id, attachment id] */
  attachments: Array<[number, number]>;
  notifications: string[];
}

export interface World {
  t: TestApp;
  owner: TestUser;
  other: TestUser;
  admin: TestUser;
  mine: Holdings;
  theirs: Holdings;
  projects: number[];
  investments: number[];
}

async function expectStatus(t: TestApp, request: InjectOptions & { url: string }, status: number) {
  const res = await t.app.inject(request);
  if (res.statusCode !== status) throw new Error(`seeding ${request.url} answered ${res.statusCode}: ${res.body}`);
  return res.json();
}

async function holdingsOf(t: TestApp, user: TestUser, label: string): Promise<Holdings> {
  const conversations: number[] = [];
  for (const message of ['How do I invest in a project?', `Where is my refund? ${label}`]) {
    const body = await expectStatus(
      t,
      { method: 'POST', url: '/api/assistant/chat', headers: user.auth, payload: { message } },
      200,
    );
    conversations.push(body.conversation_id);
  }
  const tickets: number[] = [];
  const attachments: Array<[number, number]> = [];
  for (const subject of [`Payment problem ${label}`, `Login problem ${label}`]) {
    const body = await expectStatus(
      t,
      {
        method: 'POST',
        url: '/api/tickets',
        headers: user.auth,
        payload: { subject, message: 'Something went wrong with my account.', category: 'billing' },
      },
      201,
    );
    tickets.push(body.data.id);
  }
  const form = multipart(
    [
      ['subject', `With a file ${label}`],
      ['message', 'The receipt is attached to this ticket.'],
    ],
    [{ name: 'receipt.txt', content: TEXT_FILE, type: 'text/plain' }],
    MULTIPART_BOUNDARY,
  );
  const withFile = await expectStatus(
    t,
    {
      method: 'POST',
      url: '/api/tickets',
      headers: { ...user.auth, ...form.headers },
      payload: form.payload,
    },
    201,
  );
  tickets.push(withFile.data.id);
  attachments.push([withFile.data.id, withFile.data.attachments[0].id]);
  return { conversations, tickets, attachments, notifications: [] };
}

/** Builds the app and the world; notifications come from the admin integration API. */
export async function buildWorld(options: TestAppOptions = {}): Promise<World> {
  const t = await buildTestApp(options);
  const owner = await t.makeUser({ firstName: 'Owner' });
  const other = await t.makeUser({ firstName: 'Other' });
  const admin = await t.makeUser({ admin: true, firstName: 'Admin' });
  const mine = await holdingsOf(t, owner, 'mine');
  const theirs = await holdingsOf(t, other, 'theirs');

  const projects = [101, 102];
  const investments = [201];
  const put = (url: string, payload: object, status: number) =>
    expectStatus(t, { method: 'PUT', url, headers: admin.auth, payload }, status);
  await put('/api/admin/projects/101', { title: 'Solar farm', owner_id: owner.id, status: 'approved' }, 201);
  await put('/api/admin/projects/102', { title: 'Bakery', owner_id: other.id, status: 'under_review' }, 201);
  await put('/api/admin/projects/101', { title: 'Solar farm', owner_id: owner.id, status: 'archived' }, 200);
  await put(
    '/api/admin/investments/201',
    { project_id: 102, investor_id: owner.id, amount: 5000, status: 'paid' },
    201,
  );
  await put(
    '/api/admin/investments/201',
    { project_id: 102, investor_id: owner.id, amount: 5000, status: 'refunded', notes: 'all of it' },
    200,
  );

  const notificationIds = async (userId: number) =>
    (await t.db.selectFrom('notifications').select('id').where('user_id', '=', userId).execute()).map((r) => r.id);
  mine.notifications = await notificationIds(owner.id);
  theirs.notifications = await notificationIds(other.id);
  expect(mine.notifications.length).toBeGreaterThanOrEqual(3);
  expect(theirs.notifications.length).toBeGreaterThanOrEqual(2);
  return { t, owner, other, admin, mine, theirs, projects, investments };
}

/** Every table of the application (migration bookkeeping excluded). */
export async function applicationTables(t: TestApp): Promise<string[]> {
  // Kysely's introspection lists every schema on PostgreSQL, where other test files have theirs.
  const query =
    testDialect === 'postgres'
      ? sql<{
          name: string;
        }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`
      : sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`;
  const { rows } = await query.execute(t.db);
  return rows
    .map((row) => row.name)
    .filter((name) => !name.startsWith('kysely_'))
    .sort();
}

/**
 * The rows of the given tables, ordered, as comparable text. Columns that change on every
 * authenticated request by design (a token's last_used_at) are left out.
 */
export async function snapshot(t: TestApp, tables: string[]): Promise<Record<string, string[]>> {
  const result: Record<string, string[]> = {};
  for (const table of tables) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(t.db);
    result[table] = rows.rows
      .map((row) => {
        const copy: Record<string, unknown> = { ...row };
        if (table === 'personal_access_tokens') delete copy.last_used_at;
        return JSON.stringify(copy, (_key, value) => (typeof value === 'bigint' ? value.toString() : value));
      })
      .sort();
  }
  return result;
}

/**
 * Stored files stay inside DATA_DIR/attachments under random keys, no temporary file is left
 * behind, and every attachment row has its file.
 */
export async function expectStorageConsistent(t: TestApp): Promise<void> {
  const files = filesUnder(t.dataDir, { relative: true }).filter(
    (f) => !f.endsWith('.sqlite') && !f.includes('.sqlite-'),
  );
  for (const file of files) expect(file).toMatch(/^attachments\/[a-f0-9]{2}\/[a-f0-9]{32}$/);
  const rows = await t.db.selectFrom('ticket_attachments').select(['storage_key']).execute();
  const keys = new Set(files.map((f) => path.basename(f)));
  for (const row of rows) expect(keys.has(row.storage_key)).toBe(true);
  expect(files.length).toBe(rows.length);
}
