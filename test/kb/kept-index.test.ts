// A server started on a DATA_DIR where the last start kept its index reads it instead of building,
// and its first answers already hold what changed while no server ran: an article edited, one
// published, an uploaded document deactivated (the change log and the documents' versions caught
// up before it listens). A damaged kept index is a build. Real server processes (the built entry:
// the documents' extraction worker is the compiled file) on the database of the run.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { launchServer, type ServerProcess } from '../../harness/server.js';
import { nowIso } from '../../src/db/index.js';
import { SNAPSHOT_FILE } from '../../src/modules/kb/index-snapshot.js';
import { createArticle, updateArticle } from '../../src/modules/kb/service.js';
import { textPdf } from '../kb-files/documents.js';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';
import { type TestUser, userWithToken } from '../helpers/factories.js';
import { multipart } from '../helpers/multipart.js';

vi.setConfig({ testTimeout: 240_000, hookTimeout: 120_000 });

let database: TestDatabase;
let admin: TestUser;
let member: TestUser;
let file: string;
const running: ServerProcess[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  admin = await userWithToken(database.db, { admin: true });
  member = await userWithToken(database.db);
  file = path.join(database.dataDir, SNAPSHOT_FILE);
});
afterAll(async () => {
  for (const server of running) if (server.child.exitCode === null) await server.stop();
  await database?.destroy();
});

async function launch(): Promise<ServerProcess> {
  const server = await launchServer({
    entry: 'built',
    env: { ...database.env, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'info' },
  });
  running.push(server);
  return server;
}

async function uploaded(server: ServerProcess, name: string, pages: string[][]): Promise<number> {
  const form = multipart([], [{ field: 'file', name, content: textPdf(pages) }]);
  const res = await fetch(`${server.url}/api/admin/kb/files`, {
    method: 'POST',
    headers: { ...admin.auth, ...form.headers },
    body: form.payload,
  });
  expect(res.status).toBe(202);
  const { id } = ((await res.json()) as { data: { id: number } }).data;
  for (;;) {
    const got = await fetch(`${server.url}/api/admin/kb/files/${id}`, { headers: admin.auth });
    const status = ((await got.json()) as { data: { status: string } }).data.status;
    if (status === 'ready') return id;
    if (status !== 'processing') throw new Error(`${name}: ${status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function found(server: ServerProcess, q: string): Promise<string[]> {
  const res = await fetch(`${server.url}/api/kb/articles?lang=en&q=${encodeURIComponent(q)}`);
  return ((await res.json()) as { data: Array<{ key: string }> }).data.map((a) => a.key);
}

async function cited(server: ServerProcess, message: string): Promise<string[]> {
  const res = await fetch(`${server.url}/api/assistant/chat`, {
    method: 'POST',
    headers: { ...member.auth, 'content-type': 'application/json' },
    body: JSON.stringify({ message }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { sources: Array<{ id: string }> }).sources.map((s) => s.id);
}

const WIND = 'How long is the wind turbine blade guarantee?';
const PUMP = 'How often is the greenhouse heating pump serviced?';

it('reads the kept index, with what changed while no server ran, and builds when it is damaged', async () => {
  const first = await launch();
  const wind = await uploaded(first, 'wind.pdf', [
    ['Wind turbine blade guarantee', 'The wind turbine blade guarantee lasts eight years.'],
  ]);
  const pump = await uploaded(first, 'pump.pdf', [
    ['Greenhouse heating pump', 'The greenhouse heating pump is serviced every fourteen months.'],
  ]);
  const edited = await createArticle(database.db, null, {
    key: 'kept.edited',
    lang: 'en',
    slug: 'kept-edited',
    title: 'Can a project pause its payouts?',
    body: 'A project may pause payouts for one season.',
    status: 'published',
  });
  await first.stop();

  // A start that builds (nothing kept yet holds the documents) keeps its index as it closes.
  fs.rmSync(file, { force: true });
  const second = await launch();
  expect(second.output()).toContain('knowledge: index built');
  expect(await cited(second, WIND)).toContain(`file-${wind}.1`);
  expect(fs.existsSync(file)).toBe(false);
  expect(await second.stop()).toBe(0);
  expect(second.output()).toContain('knowledge: index kept for the next start');
  expect(fs.existsSync(file)).toBe(true);

  // While no server runs: an article edited, one published, a document deactivated.
  await updateArticle(database.db, null, edited.id, {
    title: 'Can a zeppelin project pause its payouts?',
    revision: edited.revision,
  });
  await createArticle(database.db, null, {
    key: 'kept.added',
    lang: 'en',
    slug: 'kept-added',
    title: 'Do you fund quokka sanctuaries?',
    body: 'Quokka sanctuaries are funded like any conservation project.',
    status: 'published',
  });
  await database.db.updateTable('kb_files').set({ active: 0, updated_at: nowIso() }).where('id', '=', wind).execute();

  // Its first answers, with no wait: the catch-up ran before it listened.
  const third = await launch();
  expect(third.output()).toContain('knowledge: index read from the one kept');
  expect(third.output()).not.toContain('knowledge: index built');
  expect(await found(third, 'quokka sanctuaries')).toContain('kept.added');
  expect(await found(third, 'zeppelin')).toContain('kept.edited');
  expect(await cited(third, WIND)).not.toContain(`file-${wind}.1`);
  expect(await cited(third, PUMP)).toContain(`file-${pump}.1`);
  await third.stop();

  // Cut short, the kept index is not read: the start builds and answers alike.
  const whole = fs.readFileSync(file);
  fs.writeFileSync(file, whole.subarray(0, whole.length >> 1));
  const fourth = await launch();
  expect(fourth.output()).toContain('knowledge: the kept index is not used; building');
  expect(fourth.output()).toContain('knowledge: index built');
  expect(await found(fourth, 'quokka sanctuaries')).toContain('kept.added');
  expect(await cited(fourth, PUMP)).toContain(`file-${pump}.1`);
  await fourth.stop();
});
