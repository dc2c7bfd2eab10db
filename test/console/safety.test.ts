// What members type stays text: script payloads (tags, attributes, javascript: links, SVG, MathML,
// template syntax, Unicode bidi overrides) in every field a member controls — names, subject,
// message, comments, category, file names, tag names, feedback — then every console page opened
// in both languages. Nothing may run: the payloads call a binding the test exposes (__pwned) and
// set a global (__xss); dialogs, page errors and console errors (a CSP refusal is one) are
// recorded too. The payloads must be on the page as visible text.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeTag } from '../helpers/factories.js';
import { PNG, PDF } from '../tickets/helpers.js';
import { apiAs, type ConsoleRun, type ConsoleServer, pageReady, startConsoleRun, type Staff } from './browser.js';
import { fileTicket, memberComment } from './seed.js';

// A guard against a hang, not a speed bound: a test here loads many pages in a real browser, and
// on a slow, loaded machine one took 28 s of the default 30.
vi.setConfig({ testTimeout: 120_000 });

const PAYLOADS = [
  `<img src=x onerror="__pwned('img');window.__xss=1">`,
  `<script>__pwned('script');window.__xss=1</script>`,
  `<svg/onload=__pwned('svg')><a href="javascript:__pwned('svg-a')">s</a></svg>`,
  `javascript:__pwned('href')//`,
  `"><iframe srcdoc="<script>parent.__pwned('iframe')</script>">`,
  `<a href="javascript:__pwned('a')" id="pwn-link">click</a>`,
  `{{constructor.constructor('__pwned("template")')()}}`,
  `\u202E<b onmouseover=__pwned('bidi')>gnp.exe\u202C \u2066<i>\u2069`,
  `<math><mtext><table><mglyph><style><img src=x onerror=__pwned('mxss')>`,
  `<details open ontoggle=__pwned('toggle')>x</details><style>body{display:none}</style>`,
];

let run: ConsoleRun;
let server: ConsoleServer;
let staff: Staff;
const ticketIds: number[] = [];

beforeAll(async () => {
  run = await startConsoleRun();
  ({ server, staff } = run);
  const tag = (await makeTag(server.database.db, PAYLOADS[0]!.slice(0, 100))).id;
  const tag2 = (await makeTag(server.database.db, PAYLOADS[7]!.slice(0, 100))).id;
  for (const [i, payload] of PAYLOADS.entries()) {
    const member = await server.makeMember({
      firstName: payload.slice(0, 100),
      lastName: PAYLOADS[(i + 1) % PAYLOADS.length]!.slice(0, 100),
    });
    const ticket = await fileTicket(server, member, {
      subject: payload.slice(0, 255),
      message: `${payload}\n${PAYLOADS[(i + 2) % PAYLOADS.length]}`,
      category: payload.slice(0, 255),
      priority: (['low', 'normal', 'high'] as const)[i % 3],
      tags: [tag, tag2],
      files: [
        { name: `<img src=x onerror=__pwned('file${i}')>.png`, type: 'image/png', content: PNG },
        { name: `x\u202Eexe.${i}"><svg onload=__pwned('pdf')>.pdf`, type: 'application/pdf', content: PDF },
      ],
    });
    ticketIds.push(ticket.id);
    await memberComment(server, member, ticket.id, `comment ${payload}`);
    await apiAs(server.url, member, 'POST', '/api/assistant/feedback', {
      type: 'bug',
      subject: payload.slice(0, 200),
      content: `${payload} ${PAYLOADS[(i + 3) % PAYLOADS.length]}`,
      rating: 1,
    });
  }
  await apiAs(server.url, staff, 'PUT', `/api/admin/tickets/${ticketIds[0]}`, { assignee_id: staff.id });
}, 240_000);

afterAll(() => run?.close());

interface Watch {
  calls: string[];
  dialogs: string[];
  errors: string[];
}

async function watchedPage(locale: 'en' | 'fa'): Promise<{ page: Page; watch: Watch }> {
  const context = await run.context({ locale });
  const watch: Watch = { calls: [], dialogs: [], errors: [] };
  await context.exposeBinding('__pwned', (_source, what: unknown) => void watch.calls.push(String(what)));
  const page = await context.newPage();
  page.on('dialog', (dialog) => {
    watch.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => watch.errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // A 404 of an endpoint the server does not have yet is logged by Chromium as a failed load.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      watch.errors.push(`console: ${message.text()}`);
  });
  return { page, watch };
}

/** The rendered page has no element or attribute that came from a payload. */
async function markupInjected(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const el of document.querySelectorAll('body *')) {
      for (const attr of el.getAttributeNames()) if (attr.startsWith('on')) found.push(`${el.tagName} ${attr}`);
      const href = el.getAttribute('href') ?? el.getAttribute('xlink:href') ?? '';
      if (/^\s*javascript:/i.test(href)) found.push(`${el.tagName} href=${href}`);
      if (['SCRIPT', 'IFRAME', 'MATH', 'STYLE', 'OBJECT', 'EMBED'].includes(el.tagName)) found.push(el.tagName);
      if (el.tagName === 'IMG' && !(el.getAttribute('src') ?? '').startsWith('blob:'))
        found.push('IMG not from a blob');
      if (el.id === 'pwn-link') found.push('payload link');
    }
    if ((window as unknown as { __xss?: unknown }).__xss !== undefined) found.push('window.__xss set');
    return found;
  });
}

async function check(page: Page, watch: Watch, url: string) {
  await page.goto(url);
  await pageReady(page);
  await page.waitForLoadState('networkidle');
  // Hover and focus every element once, so an injected handler of that kind would have fired.
  await page.evaluate(() => {
    for (const el of document.querySelectorAll('main *')) {
      el.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
    }
  });
  expect(await markupInjected(page), url).toEqual([]);
  expect(watch.calls, url).toEqual([]);
  expect(watch.dialogs, url).toEqual([]);
  expect(watch.errors, url).toEqual([]);
}

describe.each(['en', 'fa'] as const)('member payloads on every page (%s)', (locale) => {
  it('run nowhere and show as text', async () => {
    const { page, watch } = await watchedPage(locale);
    for (const view of ['', '?view=mine', '?view=open', '?view=at_risk', '?view=closed', '?view=unassigned'])
      await check(page, watch, `/console/${view}`);
    await check(page, watch, '/console/');
    const queueText = await page.locator('main').innerText();
    expect(queueText).toContain(`<img src=x onerror="__pwned('img');window.__xss=1">`);
    expect(queueText).toContain(`<script>__pwned('script');window.__xss=1</script>`);
    await check(page, watch, `/console/?q=${encodeURIComponent('<script>')}`);
    for (const id of ticketIds) {
      await check(page, watch, `/console/tickets/${id}`);
      const text = await page.locator('main').innerText();
      expect(text).toContain('comment ');
      expect(text).toMatch(/onerror=__pwned\('file\d+'\)>\.png/);
    }
    for (const url of ['/console/reports', '/console/feedback', '/console/gaps']) await check(page, watch, url);
    expect(await page.locator('main').innerText()).not.toContain('pwned-by-markup');
    await check(page, watch, '/console/feedback');
    expect(await page.locator('main').innerText()).toContain('<details open ontoggle=');
  });
});

it('answers console pages with a CSP that forbids inline script and other origins', async () => {
  const res = await fetch(`${server.url}/console/tickets/1`);
  const csp = res.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).not.toContain('unsafe-eval');
});
