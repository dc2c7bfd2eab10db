// Every console page in a real browser, in English and in Persian: it renders, the layout's
// direction and the dates follow the language, the language is remembered, and axe-core finds no
// serious or critical violation. With CONSOLE_SCREENSHOTS=<dir> the main pages are saved there.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  apiAs,
  type ConsoleRun,
  type ConsoleServer,
  pageReady,
  seriousViolations,
  startConsoleRun,
  type Staff,
} from './browser.js';
import { seedSupportHistory } from '../../harness/console-history.js';
import { seedQueue } from './seed.js';

// A guard against a hang, not a speed bound: a test here loads many pages in a real browser, and
// on a slow, loaded machine one took 28 s of the default 30.
vi.setConfig({ testTimeout: 120_000 });

let run: ConsoleRun;
let server: ConsoleServer;
let staff: Staff;
let seeded: Awaited<ReturnType<typeof seedQueue>>;
const shots = process.env.CONSOLE_SCREENSHOTS;

beforeAll(async () => {
  run = await startConsoleRun(['Sara', 'Karimi']);
  ({ server, staff } = run);
  seeded = await seedQueue(server, staff);
}, 180_000);

afterAll(() => run?.close());

async function open(locale: 'en' | 'fa'): Promise<Page> {
  const context = await run.context({ locale });
  const page = await context.newPage();
  page.setViewportSize({ width: 1280, height: 860 });
  return page;
}

async function visit(page: Page, url: string, name: string, locale: string) {
  await page.goto(url);
  await pageReady(page);
  // Let the page's own reads (counts, lists, previews) settle before checking it.
  await page.waitForLoadState('networkidle');
  expect(await seriousViolations(page), `${url} (${locale})`).toEqual([]);
  if (shots) await page.screenshot({ path: path.join(shots, `console-${name}-${locale}.png`), fullPage: true });
}

describe.each(['en', 'fa'] as const)('the console in %s', (locale) => {
  let page: Page;
  beforeAll(async () => {
    page = await open(locale);
  });

  it('shows the queue with the seeded tickets, SLA-ordered, in the language and direction', async () => {
    await visit(page, '/console/', 'queue', locale);
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(
      locale === 'fa' ? ['fa', 'rtl'] : ['en', 'ltr'],
    );
    const rows = page.locator('.queue-table tbody tr');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(3);
    const text = await page.locator('.queue-table').innerText();
    expect(text).toContain('Cannot withdraw my dividend');
    expect(text).toContain('تغییر شماره تلفن همراه');
    if (locale === 'fa') {
      // Jalali dates with Persian digits; no Latin digits left in the date lines.
      const date = await page.locator('.queue-table .code').first().innerText();
      expect(date).toMatch(/[۰-۹]/);
      expect(date).toMatch(/۱۴[۰-۹][۰-۹]/);
      expect(await page.locator('h1').innerText()).toBe('صف');
    } else {
      expect(await page.locator('.queue-table .code').first().innerText()).toMatch(/20\d\d/);
    }
  });

  it('opens each view and reads its count', async () => {
    for (const view of ['mine', 'open', 'at_risk', 'closed', 'unassigned']) {
      await visit(page, `/console/?view=${view}`, `view-${view}`, locale);
      const current = page.locator('.views a[aria-current="page"]');
      await expect.poll(() => current.count()).toBe(1);
    }
    await visit(page, '/console/?view=mine', 'view-mine', locale);
    await expect.poll(() => page.locator('.queue-table tbody tr').count()).toBe(1);
    expect(await page.locator('.queue-table').innerText()).toContain('Cannot withdraw my dividend');
  });

  it('filters by priority and by text through the form', async () => {
    await visit(page, '/console/', 'queue', locale);
    await page.locator('select[name="priority"]').selectOption('normal');
    await page.locator('.filters button[type="submit"]').click();
    await expect.poll(() => page.url()).toContain('priority=normal');
    await expect.poll(() => page.locator('.queue-table tbody tr').count()).toBe(1);
    expect(await page.locator('.queue-table').innerText()).toContain('تغییر شماره تلفن همراه');
  });

  it('shows a ticket with its whole story, member, SLA and attachments', async () => {
    await visit(page, `/console/tickets/${seeded.first.id}`, 'ticket', locale);
    expect(await page.locator('h1').innerText()).toBe('Cannot withdraw my dividend');
    const story = await page.locator('.timeline').innerText();
    expect(story).toContain('The withdraw button stays grey since yesterday.');
    expect(story).toContain('It still happens this morning, on the phone too.');
    expect(story.indexOf('The withdraw button')).toBeLessThan(story.indexOf('It still happens'));
    expect(
      await page
        .locator('.timeline')
        .getByRole('button', { name: /statement\.pdf/ })
        .count(),
    ).toBe(1);
    expect(await page.locator('aside').innerText()).toContain(seeded.ada.email);
    // The PNG is previewed from its bytes; the PDF is downloaded, never shown.
    await expect.poll(() => page.locator('.timeline img.preview').count()).toBe(1);
    expect(await page.locator('.timeline img.preview').evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(
      1,
    );
    const download = page.waitForEvent('download');
    await page
      .locator('.timeline')
      .getByRole('button', { name: /statement\.pdf/ })
      .click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('statement.pdf');
    expect(Buffer.concat(await (await file.createReadStream()).toArray()).toString('latin1')).toMatch(/^%PDF-1\.4/);
  });

  it('shows the reports page, the feedback inbox and the gaps list', async () => {
    for (const [url, name] of [
      ['/console/reports', 'reports'],
      ['/console/feedback', 'feedback'],
      ['/console/gaps', 'gaps'],
    ] as const) {
      await visit(page, url, name, locale);
    }
  });

  it('works with the keyboard alone: skip link first, then the navigation', async () => {
    await visit(page, '/console/', 'queue', locale);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('skip');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    // From the main region the first ticket link is reachable by Tab, and j moves to it.
    await page.keyboard.press('j');
    expect(await page.evaluate(() => document.activeElement?.classList.contains('ticket-link'))).toBe(true);
    await page.keyboard.press('Enter');
    await pageReady(page);
    expect(page.url()).toMatch(/\/console\/tickets\/\d+/);
  });
});

describe.each(['en', 'fa'] as const)('the reports in %s', (locale) => {
  beforeAll(async () => {
    // Four weeks of history (written once; the queue checks above have run by now).
    if (locale === 'en') await seedSupportHistory(server.database.db, { staffIds: [staff.id], days: 27, perDay: 4 });
  }, 120_000);

  it("draws the SLA, times and volume charts from the service's reports, with their tables", async () => {
    const page = await open(locale);
    await visit(page, '/console/reports', 'reports', locale);
    expect(await page.locator('svg[role="img"]').count()).toBe(4);
    expect(await page.locator('svg rect').count()).toBeGreaterThan(20);
    // The category chart names what the history holds, and the day chart has a bar per day.
    for (const category of ['payments', 'account', 'projects', 'technical'])
      expect(await page.locator('svg text', { hasText: category }).count()).toBeGreaterThanOrEqual(1);
    expect(await page.locator('section[aria-labelledby="volume-day"] svg rect').count()).toBeGreaterThan(20);
    expect(await page.locator('section[aria-labelledby="times-report"] table tbody tr').count()).toBeGreaterThanOrEqual(
      2,
    );
  });
});

it('remembers the language chosen with the switch', async () => {
  const page = await open('en');
  await page.goto('/console/');
  await pageReady(page);
  await page.getByRole('button', { name: 'فارسی' }).click();
  await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
  await page.reload();
  await pageReady(page);
  expect(await page.evaluate(() => [document.documentElement.lang, localStorage.getItem('console.locale')])).toEqual([
    'fa',
    'fa',
  ]);
});

it('shows the sign-in page to a visitor without a session, accessible in both languages', async () => {
  const context = await run.context({ signedIn: false });
  const page = await context.newPage();
  for (const locale of ['en', 'fa'] as const) {
    await page.goto('/console/');
    await page.evaluate((value) => localStorage.setItem('console.locale', value), locale);
    await page.reload();
    await pageReady(page);
    expect(await page.locator('input[type="email"]').count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    if (shots) await page.screenshot({ path: path.join(shots, `console-sign-in-${locale}.png`) });
  }
});

it('gives a support staff member the queue and reports, without the administrators-only feedback inbox', async () => {
  const support = await server.makeMember({ firstName: 'Omid', lastName: 'Tehrani' });
  await server.database.db
    .updateTable('users')
    .set({ role: 'support', is_admin: 0 })
    .where('id', '=', support.id)
    .execute();
  // The platform's back-end (an administrator's token) asks for the support member's link.
  const link = await apiAs<{ data: { url: string } }>(
    server.url,
    staff,
    'POST',
    `/api/admin/users/${support.id}/console-links`,
  );
  expect(link.status).toBe(201);
  const context = await run.context({ signedIn: false });
  const page = await context.newPage();
  await page.goto(new URL(link.json.data.url).pathname);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/console\/?$/);
  await pageReady(page);
  expect(await page.locator('header.top nav a').allInnerTexts()).toEqual(['Queue', 'Reports', 'Unanswered questions']);
  await expect.poll(() => page.locator('.queue-table tbody tr').count()).toBeGreaterThanOrEqual(3);
});
