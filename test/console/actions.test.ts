// Staff work in the browser, checked through the service's API as the member sees it: a reply,
// assignment (button and keyboard), status, bulk close, the warning before replying over a newer
// message, an internal note the member never sees, the CSV export of the filtered list, and a new
// ticket arriving live (the same across two instances: instances.test.ts).
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { apiAs, type ConsoleRun, type ConsoleServer, pageReady, startConsoleRun, type Staff } from './browser.js';
import { fileTicket, memberComment } from './seed.js';

// A guard against a hang, not a speed bound: a test here loads many pages in a real browser, and
// on a slow, loaded machine one took 28 s of the default 30.
vi.setConfig({ testTimeout: 120_000 });

let run: ConsoleRun;
let server: ConsoleServer;
let staff: Staff;
let member: Staff;
let context: BrowserContext;
let page: Page;

interface MemberTicket {
  data: { status: string; assignee: { id: number } | null; comments: { message: string; is_staff: boolean }[] };
}

beforeAll(async () => {
  run = await startConsoleRun(['Sara', 'Karimi']);
  ({ server, staff } = run);
  member = await server.makeMember({ firstName: 'Ada', lastName: 'Lovelace' });
  context = await run.context();
  page = await context.newPage();
}, 180_000);

afterAll(() => run?.close());

const asMember = (id: number) => apiAs<MemberTicket>(server.url, member, 'GET', `/api/tickets/${id}`);
const ticket = (subject: string) =>
  fileTicket(server, member, { subject, message: `${subject}: the member's first message.` });

async function openTicket(id: number) {
  await page.goto(`/console/tickets/${id}`);
  await pageReady(page);
}

it('sends a reply the member reads through the API; the ticket moves to in progress', async () => {
  const { id } = await ticket('Reply please');
  await openTicket(id);
  await page.getByLabel('Message').fill('Thank you, we are looking at it now.');
  await page.getByRole('button', { name: 'Send reply' }).click();
  await expect
    .poll(async () => (await asMember(id)).json.data.comments.map((c) => [c.message, c.is_staff]))
    .toEqual([['Thank you, we are looking at it now.', true]]);
  expect((await asMember(id)).json.data.status).toBe('in-progress');
  await expect.poll(() => page.locator('.timeline').innerText()).toContain('Thank you, we are looking at it now.');
});

it('assigns with the button and the keyboard shortcut, and unassigns', async () => {
  const { id } = await ticket('Assign me');
  await openTicket(id);
  await page.getByRole('button', { name: 'Assign to me' }).click();
  await expect.poll(async () => (await asMember(id)).json.data.assignee?.id).toBe(staff.id);
  await page.getByRole('button', { name: 'Unassign' }).click();
  await expect.poll(async () => (await asMember(id)).json.data.assignee).toBeNull();
  await page.locator('h1').click();
  await page.keyboard.press('a');
  await expect.poll(async () => (await asMember(id)).json.data.assignee?.id).toBe(staff.id);
});

it('changes the status from the properties and with the close shortcut', async () => {
  const { id } = await ticket('Status change');
  await openTicket(id);
  await page.locator('#status').selectOption('in-progress');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect.poll(async () => (await asMember(id)).json.data.status).toBe('in-progress');
  await page.locator('h1').click();
  await page.keyboard.press('c');
  await expect.poll(async () => (await asMember(id)).json.data.status).toBe('closed');
});

it('closes several tickets at once from the queue', async () => {
  const a = await ticket('Bulk one');
  const b = await ticket('Bulk two');
  await page.goto('/console/?q=Bulk');
  await pageReady(page);
  await expect.poll(() => page.locator('.queue-table tbody tr').count()).toBe(2);
  await page.getByLabel('Select every ticket on this page').check();
  await page.locator('.bulk select').first().selectOption('close');
  await page.getByRole('button', { name: 'Apply to selected' }).click();
  await expect
    .poll(async () => [(await asMember(a.id)).json.data.status, (await asMember(b.id)).json.data.status])
    .toEqual(['closed', 'closed']);
  await expect.poll(() => page.locator('.bulk [role="status"], .queue-table').first().innerText()).toBeTruthy();
});

it('warns before replying when the member wrote since the page loaded, then sends on confirmation', async () => {
  const { id } = await ticket('Moving target');
  await openTicket(id);
  await memberComment(server, member, id, 'One more detail: it is the Android app.');
  await page.getByLabel('Message').fill('Could you tell us which app you use?');
  await page.getByRole('button', { name: 'Send reply' }).click();
  await expect.poll(() => page.getByRole('alert').innerText()).toContain('A new message arrived');
  expect((await asMember(id)).json.data.comments.filter((c) => c.is_staff)).toEqual([]);
  // The new message is on the page now, the draft is kept, and a second send goes through.
  await expect.poll(() => page.locator('.timeline').innerText()).toContain('it is the Android app');
  expect(await page.getByLabel('Message').inputValue()).toBe('Could you tell us which app you use?');
  await page.getByRole('button', { name: 'Send anyway' }).click();
  await expect.poll(async () => (await asMember(id)).json.data.comments.filter((c) => c.is_staff).length).toBe(1);
});

it('adds an internal note the member never sees', async () => {
  const { id } = await ticket('Note it');
  await openTicket(id);
  await page.getByLabel('Internal note (staff only)').check();
  await page.getByLabel('Message').fill('Staff only: checked the payment gateway logs.');
  await page.getByRole('button', { name: 'Add note' }).click();
  await expect.poll(() => page.locator('.timeline').innerText()).toContain('checked the payment gateway logs');
  expect(JSON.stringify((await asMember(id)).json)).not.toContain('payment gateway logs');
});

it('exports the filtered list as CSV', async () => {
  await ticket('Export me');
  await page.goto('/console/?q=Export');
  await pageReady(page);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  const text = await (await file.createReadStream()).toArray();
  expect(Buffer.concat(text).toString('utf8')).toContain('Export me');
});

it('shows a new ticket in the open queue within 2 s, without a reload', async () => {
  await page.goto('/console/');
  await pageReady(page);
  await page.waitForLoadState('networkidle');
  const started = Date.now();
  await ticket('Arrived live');
  await page.locator('.queue-table', { hasText: 'Arrived live' }).waitFor({ timeout: 2000 });
  expect(Date.now() - started).toBeLessThan(2000);
});

it("fills a saved reply with the member's first name and the tracking code, and sends it", async () => {
  const saved = await apiAs(server.url, staff, 'POST', '/api/admin/saved-replies', {
    title: 'Checking it',
    body: 'Hello {{first_name}}, we are checking {{tracking_code}} now. {{agent_name}}',
    lang: 'en',
  });
  expect(saved.status).toBe(201);
  const { id, tracking_code: code } = await ticket('Saved reply please');
  await openTicket(id);
  await page.getByLabel('Saved reply').selectOption({ label: 'Checking it' });
  const text = `Hello Ada, we are checking ${code} now. Sara Karimi`;
  await expect.poll(() => page.getByLabel('Message').inputValue()).toBe(text);
  await page.getByRole('button', { name: 'Send reply' }).click();
  await expect.poll(async () => (await asMember(id)).json.data.comments.map((c) => c.message)).toEqual([text]);
});

it("shows the escalated assistant conversation's transcript on the ticket", async () => {
  const chat = await apiAs<{ conversation_id: number }>(server.url, member, 'POST', '/api/assistant/chat', {
    message: 'When is the dividend of my project paid?',
    conversation_id: null,
  });
  expect(chat.status).toBe(200);
  const escalated = await apiAs<{ ticket_id: number }>(server.url, member, 'POST', '/api/assistant/escalate', {
    conversation_id: chat.json.conversation_id,
    reason: 'I need a person.',
  });
  expect(escalated.status).toBe(201);
  await openTicket(escalated.json.ticket_id);
  const transcript = page.locator('section[aria-labelledby="conversation-heading"]');
  await expect.poll(() => transcript.innerText()).toContain('When is the dividend of my project paid?');
  expect(await transcript.locator('.said-assistant').count()).toBeGreaterThanOrEqual(1);
});
