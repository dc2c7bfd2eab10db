// The console's browser tests: Debian's Chromium driven by playwright-core (its own browser
// download cannot work without internet), the real server (node dist/server.js) on a free port and
// the database under test, staff and members made on that database, and axe-core injected into
// pages. One browser per test file; pages are reused.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { launchServer, type ServerProcess } from '../../harness/server.js';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';
import { userWithToken } from '../helpers/factories.js';
import { isMultipart } from '../helpers/multipart.js';

export const CHROMIUM = '/usr/bin/chromium';
const require = createRequire(import.meta.url);
const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export async function launchBrowser(): Promise<{ browser: Browser; close: () => Promise<void> }> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'console-chromium-'));
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--disk-cache-dir=${path.join(profile, 'cache')}`,
    ],
  });
  return {
    browser,
    async close() {
      await browser.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface Staff {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  token: string;
}

export interface ConsoleServer {
  server: ServerProcess;
  url: string;
  database: TestDatabase;
  makeStaff(firstName?: string, lastName?: string): Promise<Staff>;
  makeMember(options?: { firstName?: string; lastName?: string; email?: string }): Promise<Staff>;
  close(): Promise<void>;
}

export async function startConsoleServer(env: Record<string, string> = {}): Promise<ConsoleServer> {
  const database = await createTestDatabase();
  const server = await launchServer({
    entry: 'built',
    env: { ...database.env, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'warn', ...env },
  });
  const person = (admin: boolean, options: { firstName?: string; lastName?: string; email?: string }) =>
    userWithToken(database.db, { admin, ...options });
  return {
    server,
    url: server.url,
    database,
    makeStaff: (firstName = 'Sara', lastName = 'Staff') => person(true, { firstName, lastName }),
    makeMember: (options = {}) => person(false, options),
    async close() {
      await server.stop(10_000);
      await database.destroy();
    },
  };
}

/**
 * What every browser test file starts with: the console's server, a browser and one staff member;
 * the contexts it opens are closed with it, then the browser, then the server.
 */
export interface ConsoleRun {
  server: ConsoleServer;
  browser: Browser;
  staff: Staff;
  /** A new context, signed in (as the run's staff member unless another is given) or not. */
  context(options?: { locale?: 'en' | 'fa'; as?: Staff; signedIn?: boolean }): Promise<BrowserContext>;
  close(): Promise<void>;
}

export async function startConsoleRun(staffName: [string, string] | [] = []): Promise<ConsoleRun> {
  const server = await startConsoleServer();
  let closeBrowser: (() => Promise<void>) | undefined;
  try {
    const launched = await launchBrowser();
    closeBrowser = launched.close;
    const { browser } = launched;
    const staff = await server.makeStaff(...staffName);
    const contexts: BrowserContext[] = [];
    return {
      server,
      browser,
      staff,
      async context({ locale = 'en', as = staff, signedIn = true } = {}) {
        const context = signedIn
          ? (await signedInContext(browser, server, as, locale)).context
          : await browser.newContext({ baseURL: server.url });
        contexts.push(context);
        return context;
      },
      async close() {
        for (const context of contexts) await context.close();
        await launched.close();
        await server.close();
      },
    };
  } catch (error) {
    await closeBrowser?.();
    await server.close();
    throw error;
  }
}

/** A JSON or multipart (test/helpers/multipart.ts) request to the server as a user (seeding and checking what members see). */
export async function apiAs<T = { data: unknown }>(
  base: string,
  who: { token: string },
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; json: T }> {
  const init: RequestInit = { method, headers: { authorization: `Bearer ${who.token}` } };
  if (isMultipart(body)) {
    init.body = new Uint8Array(body.payload);
    Object.assign(init.headers as Record<string, string>, body.headers);
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  const res = await fetch(`${base}${url}`, init);
  const text = await res.text();
  // A non-JSON answer (the CSV export) has no json.
  const json = res.headers.get('content-type')?.startsWith('application/json') && text ? JSON.parse(text) : {};
  return { status: res.status, json: json as T };
}

/**
 * A browser context signed in as the staff member through a one-time console link, as the
 * platform's "Support console" button does: the link's page, its Sign in button, the session cookie.
 */
export async function signedInContext(
  browser: Browser,
  server: ConsoleServer,
  staff: Staff,
  locale: 'en' | 'fa' = 'en',
): Promise<{ context: BrowserContext; via: 'link' }> {
  const context = await browser.newContext({ baseURL: server.url, locale: 'en-US', timezoneId: 'Asia/Tehran' });
  // Playwright's library default is no time limit: a missing element would stall until the test's.
  context.setDefaultTimeout(10_000);
  await context.addInitScript(
    ([value]) => {
      if (!localStorage.getItem('console.locale')) localStorage.setItem('console.locale', value!);
    },
    [locale],
  );
  // A console session brings the language stored on the staff member: make it the one asked for.
  await server.database.db.updateTable('users').set({ locale }).where('id', '=', staff.id).execute();
  const page = await context.newPage();
  await page.goto(await consoleLink(server, staff));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/console\/?$/);
  await page.close();
  return { context, via: 'link' };
}

/** The path of a one-time sign-in link for the staff member, made with their own admin token. */
export async function consoleLink(server: ConsoleServer, staff: Staff): Promise<string> {
  const link = await apiAs<{ data: { url: string } }>(
    server.url,
    staff,
    'POST',
    `/api/admin/users/${staff.id}/console-links`,
  );
  if (link.status !== 201) throw new Error(`console-links answered ${link.status}: ${JSON.stringify(link.json)}`);
  return new URL(link.json.data.url).pathname;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's serious and critical violations on the page as it is now. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the debugging protocol: the console's CSP (rightly) refuses an inline script tag.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const result = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<unknown> } }).axe;
    return axe.run(document);
  })) as { violations: AxeViolation[] };
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
}

/** Waits until the console shows a page heading (the app has rendered a page, not the loading line). */
export async function pageReady(page: Page): Promise<void> {
  await page.waitForSelector('main h1', { timeout: 15_000 });
  await page.waitForFunction(() => !document.querySelector('main [role="status"].muted'), undefined, {
    timeout: 15_000,
  });
}
