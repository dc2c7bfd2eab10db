// Signing in to the console in Chromium: by the link the platform asks for, by the link the
// sign-in page mails, then sign-out; and another site's page cannot use a staff member's session
// or their link: the cookie is SameSite=Strict, every change needs the anti-forgery header, and
// the link's POST checks its Origin.
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import {
  type ConsoleRun,
  type ConsoleServer,
  consoleLink,
  pageReady,
  seriousViolations,
  startConsoleRun,
  type Staff,
} from './browser.js';

// A guard against a hang, not a speed bound: a test here loads many pages in a real browser, and
// on a slow, loaded machine one took 28 s of the default 30.
vi.setConfig({ testTimeout: 120_000 });

let run: ConsoleRun;
let server: ConsoleServer;
let staff: Staff;

beforeAll(async () => {
  run = await startConsoleRun(['Sina', 'Signin']);
  ({ server, staff } = run);
}, 180_000);

afterAll(() => run?.close());

const sessionOf = (context: BrowserContext) =>
  context.request.get(`${server.url}/api/console/session`).then(async (res) => ({
    status: res.status(),
    json: res.ok() ? ((await res.json()) as { data: { user: { id: number; locale: string } } }) : undefined,
  }));

it('signs in by the link: an accessible page, one button, then the console with the session; sign-out ends it', async () => {
  const context = await run.context({ signedIn: false });
  const page = await context.newPage();
  const link = await consoleLink(server, staff);
  await page.goto(link);
  expect(await page.getByRole('button').count()).toBe(1);
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/console\/$/);
  await pageReady(page);
  await page.getByText('Signed in as Sina Signin').waitFor();
  const cookies = await context.cookies(`${server.url}/api/`);
  expect(cookies.find((c) => c.name === 'console_session')).toMatchObject({
    httpOnly: true,
    sameSite: 'Strict',
    path: '/api',
    secure: false,
  });
  expect((await sessionOf(context)).json?.data.user.id).toBe(staff.id);
  // Used: the same link no longer signs in.
  await page.goto(link);
  expect(await page.getByRole('button').count()).toBe(0);
  await page.goto('/console/');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.locator('input[type="email"]').waitFor();
  expect((await sessionOf(context)).status).toBe(401);
});

it('signs in by the link the sign-in page mails', async () => {
  const context = await run.context({ signedIn: false });
  const page = await context.newPage();
  await page.goto('/console/');
  await page.locator('input[type="email"]').fill(staff.email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await page.getByRole('status').waitFor();
  const mail = await server.database.db
    .selectFrom('mail_outbox')
    .select('text_body')
    .where('to_address', '=', staff.email)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const url = /(http:\/\/\S+)/.exec(mail.text_body)![1]!;
  await page.goto(new URL(url).pathname);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/console\/$/);
  await page.getByText('Signed in as Sina Signin').waitFor();
});

it("another site's page cannot change anything with a signed-in staff member's browser, nor use their link", async () => {
  const context = await run.context();
  const before = await sessionOf(context);
  expect(before.status).toBe(200);
  const unused = await consoleLink(server, staff);
  // A page of another site (another host name: another site for SameSite), served by the test.
  const evil = `http://localhost:${server.server.port}/evil/`;
  await context.route(`${evil}**`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html><body>
<form id="f" method="post" action="${server.url}${unused}"><button>go</button></form>
<form id="g" method="post" action="${server.url}/api/console/preferences" enctype="text/plain"><input name='{"locale":"fa","x":"' value='"}'></form>
</body></html>`,
    }),
  );
  const page = await context.newPage();
  await page.goto(evil);
  const attempts = await page.evaluate(async (target) => {
    const statuses: (number | string)[] = [];
    for (const [method, path, body] of [
      ['PUT', '/api/console/preferences', '{"locale":"fa"}'],
      ['DELETE', '/api/console/session', undefined],
    ] as const) {
      try {
        const res = await fetch(`${target}${path}`, {
          method,
          credentials: 'include',
          mode: 'no-cors',
          headers: { 'content-type': 'text/plain' },
          body,
        });
        statuses.push(res.type);
      } catch (error) {
        statuses.push(String(error));
      }
    }
    return statuses;
  }, server.url);
  expect(attempts).toHaveLength(2);
  await Promise.all([
    page.waitForURL(/preferences/),
    page.evaluate(() => (document.getElementById('g') as HTMLFormElement).submit()),
  ]);
  await page.goto(evil);
  await Promise.all([
    page.waitForURL(/links/),
    page.evaluate(() => (document.getElementById('f') as HTMLFormElement).submit()),
  ]);
  // The link's POST from another origin is refused, and the link still signs in from its own page.
  expect(await page.content()).toContain('This sign-in was not sent from the link’s own page.');
  const after = await sessionOf(context);
  expect(after.status).toBe(200);
  expect(after.json?.data.user.locale).toBe('en');
  const own = await run.context({ signedIn: false });
  const ownPage = await own.newPage();
  await ownPage.goto(unused);
  await ownPage.getByRole('button', { name: 'Sign in' }).click();
  await ownPage.waitForURL(/\/console\/$/);
});
