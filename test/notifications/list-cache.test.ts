// GET /api/notifications reuses the answer it built for a user until their notifications change
// (its notifications version in answer_versions). These tests hold it to both halves: a change made anywhere (this
// instance, another instance, the CLI in another process) shows on the next request, and an
// unchanged list is really answered from memory.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';
import { userWithToken } from '../helpers/factories.js';
import { runCli } from '../helpers/process.js';
import { answerVersion } from '../../src/db/answer-versions.js';

describe('GET /api/notifications across instances', () => {
  let database: TestDatabase;
  let first: FastifyInstance;
  let second: FastifyInstance;
  let uncached: FastifyInstance;
  let admin: Record<string, string>;
  let nextProject = 500;

  const appOn = async (cacheMb: number) => {
    const app = await buildApp({
      config: { ...database.config, NOTIFICATIONS_CACHE_MB: cacheMb },
      database: database.handle,
      logger: false,
      loadGeoData: false,
      startWorkers: false,
    });
    await app.ready();
    return app;
  };

  beforeAll(async () => {
    database = await createTestDatabase({
      LOG_LEVEL: 'silent',
      RATE_LIMIT_PER_MINUTE: 0,
      APP_URL: 'https://app.example.com',
    });
    // Two instances sharing one database, each with its own cache, and one with the cache off.
    first = await appOn(16);
    second = await appOn(16);
    uncached = await appOn(0);
    admin = (await userWithToken(database.db, { admin: true })).auth;
  });
  afterAll(async () => {
    await Promise.all([first.close(), second.close(), uncached.close()]);
    await database.destroy();
  });

  const owner = () => userWithToken(database.db);

  async function listOn(
    app: FastifyInstance,
    auth: Record<string, string>,
  ): Promise<Array<{ id: string; data: { project_title: string } }>> {
    const res = await app.inject({ method: 'GET', url: '/api/notifications', headers: auth });
    expect(res.statusCode).toBe(200);
    return res.json();
  }

  async function approve(app: FastifyInstance, ownerId: number, title: string): Promise<void> {
    const res = await app.inject({
      method: 'PUT',
      url: `/api/admin/projects/${++nextProject}`,
      headers: admin,
      payload: { title, owner_id: ownerId, status: 'approved' },
    });
    expect(res.statusCode).toBeLessThan(300);
  }

  it('answers an unchanged list from memory (an edit whose version raise is undone is not seen)', async () => {
    const user = await owner();
    await approve(first, user.id, 'Orchard');
    expect((await listOn(first, user.auth)).map((n) => n.data.project_title)).toEqual(['Orchard']);
    // An edit whose version raise (by trigger) is put back is not seen: the held answer stays...
    const version = await answerVersion(database.db, user.id, 'notifications');
    await database.db
      .updateTable('notifications')
      .set({ read_at: new Date().toISOString() })
      .where('user_id', '=', user.id)
      .execute();
    await database.db
      .updateTable('answer_versions')
      .set({ version })
      .where('user_id', '=', user.id)
      .where('scope', '=', 'notifications')
      .execute();
    expect((await listOn(first, user.auth)).map((n) => n.data.project_title)).toEqual(['Orchard']);
    // ...while an instance with the cache off reads the table every time.
    expect(await listOn(uncached, user.auth)).toEqual([]);
  });

  it("answers the bytes the stored rows make: the data as stored, the fields in the schema's order", async () => {
    const user = await owner();
    await approve(first, user.id, 'Quarry «é» "quoted"');
    await approve(first, user.id, 'پروژه');
    const stored = await database.db
      .selectFrom('notifications')
      .select(['id', 'type', 'data', 'created_at'])
      .where('user_id', '=', user.id)
      .orderBy('created_at', 'desc')
      .orderBy('seq', 'desc')
      .execute();
    const expected = `[${stored.map((n) => `{"id":"${n.id}","type":"${n.type}","data":${n.data},"read_at":null,"created_at":"${n.created_at}"}`).join(',')}]`;
    for (const app of [first, uncached]) {
      const res = await app.inject({ method: 'GET', url: '/api/notifications', headers: user.auth });
      expect(res.body).toBe(expected);
    }
  });

  it('sees a change made with SQL behind the service on the next request (the version is raised by a trigger)', async () => {
    const user = await owner();
    await approve(first, user.id, 'Granary');
    expect((await listOn(first, user.auth)).map((n) => n.data.project_title)).toEqual(['Granary']);
    await database.db
      .updateTable('notifications')
      .set({ read_at: new Date().toISOString() })
      .where('user_id', '=', user.id)
      .execute();
    expect(await listOn(first, user.auth)).toEqual([]);
  });

  it('shows a notification created through another instance on the next request', async () => {
    const user = await owner();
    await approve(first, user.id, 'Barn');
    expect((await listOn(first, user.auth)).map((n) => n.data.project_title)).toEqual(['Barn']);
    await approve(second, user.id, 'Silo');
    expect((await listOn(first, user.auth)).map((n) => n.data.project_title)).toEqual(['Silo', 'Barn']);
  });

  it('shows marking read, deleting and reading all through another instance on the next request', async () => {
    const user = await owner();
    for (const title of ['One', 'Two', 'Three']) await approve(first, user.id, title);
    const [three, two] = await listOn(first, user.auth);
    expect(
      (await second.inject({ method: 'POST', url: `/api/notifications/${three!.id}`, headers: user.auth })).statusCode,
    ).toBe(200);
    expect((await listOn(first, user.auth)).map((n) => n.data.project_title)).toEqual(['Two', 'One']);
    expect(
      (await second.inject({ method: 'DELETE', url: `/api/notifications/${two!.id}`, headers: user.auth })).statusCode,
    ).toBe(200);
    expect((await listOn(first, user.auth)).map((n) => n.data.project_title)).toEqual(['One']);
    expect(
      (await second.inject({ method: 'POST', url: '/api/notifications/read-all', headers: user.auth })).statusCode,
    ).toBe(200);
    expect(await listOn(first, user.auth)).toEqual([]);
  });

  it('does not raise the version when nothing changed (marking a read notification read again)', async () => {
    const user = await owner();
    await approve(first, user.id, 'Mill');
    const [mill] = await listOn(first, user.auth);
    await first.inject({ method: 'POST', url: `/api/notifications/${mill!.id}`, headers: user.auth });
    const versionOf = () => answerVersion(database.db, user.id, 'notifications');
    const before = await versionOf();
    expect(
      (await first.inject({ method: 'POST', url: `/api/notifications/${mill!.id}`, headers: user.auth })).statusCode,
    ).toBe(200);
    expect(
      (await first.inject({ method: 'POST', url: '/api/notifications/read-all', headers: user.auth })).statusCode,
    ).toBe(200);
    expect(await versionOf()).toBe(before);
  });

  it('shows an event reported with the CLI from another process on the next request', async () => {
    const user = await owner();
    await approve(first, user.id, 'Dairy');
    expect(await listOn(first, user.auth)).toHaveLength(1);
    const cli = await runCli(
      [
        'event:project-status',
        '--project',
        String(++nextProject),
        '--title',
        'Creamery',
        '--owner-id',
        String(user.id),
        '--status',
        'approved',
      ],
      database.env,
    );
    expect(cli.code, cli.stderr).toBe(0);
    expect((await listOn(first, user.auth)).map((n) => n.data.project_title)).toEqual(['Creamery', 'Dairy']);
  });
});
