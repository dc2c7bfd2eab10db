// The console across two instances: two server processes (node dist/server.js) on one database
// (the run's: one SQLite file, or one PostgreSQL schema), a staff member's browser on the first,
// and a colleague and a member working through the second. What happens on the second shows in
// the browser without a reload: a new ticket in the queue and a colleague's internal note in the
// ticket within 2 s (the staff stream), and the colleague's presence (kept in the database that
// both instances share when no Redis is configured).
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { launchServer, type ServerProcess } from '../../harness/server.js';
import { apiAs, type ConsoleRun, type ConsoleServer, pageReady, startConsoleRun, type Staff } from './browser.js';
import { fileTicket } from './seed.js';

// A guard against a hang, not a speed bound: a test here loads many pages in a real browser, and
// on a slow, loaded machine one took 28 s of the default 30.
vi.setConfig({ testTimeout: 120_000 });

let run: ConsoleRun;
let server: ConsoleServer;
let second: ServerProcess;
let staff: Staff;
let colleague: Staff;
let member: Staff;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  run = await startConsoleRun(['Sara', 'Karimi']);
  ({ server, staff } = run);
  second = await launchServer({
    entry: 'built',
    env: { ...server.database.env, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'warn' },
  });
  colleague = await server.makeStaff('Omid', 'Tehrani');
  member = await server.makeMember({ firstName: 'Ada', lastName: 'Lovelace' });
  context = await run.context();
  page = await context.newPage();
}, 240_000);

afterAll(async () => {
  await second?.stop(10_000);
  await run?.close();
});

/** The second instance, for the seeding helpers that take a server. */
const onSecond = (): ConsoleServer => ({ ...server, url: second.url });

it('runs the two instances as two processes on one database', async () => {
  expect(second.pid).not.toBe(server.server.pid);
  expect(second.url).not.toBe(server.url);
  const { id } = await fileTicket(onSecond(), member, { subject: 'Shared', message: 'Filed on the second.' });
  const seen = await apiAs<{ data: { subject: string } }>(server.url, staff, 'GET', `/api/admin/tickets/${id}`);
  expect(seen.json.data.subject).toBe('Shared');
});

it('shows a ticket filed on the other instance in the queue within 2 s, without a reload', async () => {
  await page.goto('/console/');
  await pageReady(page);
  await page.waitForLoadState('networkidle');
  const started = Date.now();
  await fileTicket(onSecond(), member, { subject: 'Filed elsewhere', message: 'Written through the second.' });
  await page.locator('.queue-table', { hasText: 'Filed elsewhere' }).waitFor({ timeout: 2_000 });
  expect(Date.now() - started).toBeLessThan(2_000);
});

it("shows a colleague's internal note written on the other instance within 2 s", async () => {
  const { id } = await fileTicket(server, member, { subject: 'Two of us', message: 'Who is on this one?' });
  await page.goto(`/console/tickets/${id}`);
  await pageReady(page);
  await page.waitForLoadState('networkidle');
  const started = Date.now();
  const note = await apiAs(second.url, colleague, 'POST', `/api/admin/tickets/${id}/notes`, {
    message: 'Omid here: I called the bank, the transfer is on its way.',
  });
  expect(note.status).toBe(201);
  await page.locator('.timeline', { hasText: 'the transfer is on its way' }).waitFor({ timeout: 2_000 });
  expect(Date.now() - started).toBeLessThan(2_000);
});

it('shows that a colleague on the other instance is replying to the same ticket', async () => {
  const { id } = await fileTicket(server, member, { subject: 'Presence', message: 'Is anyone looking?' });
  const marked = await apiAs<{ data: { viewers: { id: number }[] } }>(
    second.url,
    colleague,
    'PUT',
    `/api/admin/tickets/${id}/presence`,
    { state: 'replying' },
  );
  expect(marked.status).toBe(200);
  await page.goto(`/console/tickets/${id}`);
  await pageReady(page);
  await expect.poll(() => page.locator('.presence').innerText()).toContain('Omid Tehrani replying now');
  // And the other way round: the browser's presence on the first is what the second answers.
  const there = await apiAs<{ data: { viewers: { id: number; state: string }[] } }>(
    second.url,
    colleague,
    'PUT',
    `/api/admin/tickets/${id}/presence`,
    { state: 'viewing' },
  );
  expect(there.json.data.viewers.map((v) => [v.id, v.state])).toContainEqual([staff.id, 'viewing']);
});
