// The console's budget (JavaScript gzipped, from the build's manifest and as the browser received
// it) and its first screen: from the start of navigation to /console/?view=open until the queue is
// usable (its rows and its view counts shown), in Debian's Chromium on loopback, against the
// production server (node dist/server.js) on a fresh database holding N tickets. Cold rounds use a
// new browser context each (nothing cached); warm rounds reload in the same context (assets from
// the cache, index.html revalidated). The ceiling: the same navigation timing for /health, a
// static answer of the same server (the browser's and the server's own cost of a page load).
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { userWithToken } from '../../harness/users.js';
import { median, percentile } from '../../src/core/percentile.js';
import { startServerProcess } from '../lib/server.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const BUDGET = 150 * 1024;

function stats(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => percentile(sorted, q) ?? Number.NaN;
  return `median ${at(0.5).toFixed(0)} ms, p90 ${at(0.9).toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms (n=${values.length})`;
}

/** Milliseconds from navigation start until the queue shows rows and its counts. */
async function queueUsable(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(
    () =>
      document.querySelectorAll('.queue-table tbody tr').length > 0 &&
      [...document.querySelectorAll('.views .count')].some((c) => c.textContent !== ''),
    undefined,
    { polling: 'raf', timeout: 30_000 },
  );
  return page.evaluate(() => performance.now());
}

async function staticLoad(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: 'load' });
  return page.evaluate(() => {
    const [entry] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    return entry!.loadEventEnd;
  });
}

export default async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { rounds: { type: 'string', default: '10' }, tickets: { type: 'string', default: '200' } },
  });
  const rounds = Number(values.rounds);
  const ticketCount = Number(values.tickets);
  const server = await startServerProcess({}, { discardStdout: true });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
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
    ],
  });
  try {
    const db = server.database.db;
    const now = new Date().toISOString();
    const staff = await userWithToken(db, {
      email: 'bench-staff@example.com',
      firstName: 'Bench',
      lastName: 'Staff',
      admin: true,
    });
    const member = await userWithToken(db, {
      email: 'bench-member@example.com',
      firstName: 'Bench',
      lastName: 'Member',
    });
    for (let i = 0; i < ticketCount; i++) {
      const res = await fetch(`${server.url}/api/tickets`, {
        method: 'POST',
        headers: { ...member.auth, 'content-type': 'application/json' },
        body: JSON.stringify({
          subject: `Bench ticket ${i}`,
          message: `Bench ticket ${i}, written at ${now}.`,
          priority: ['low', 'normal', 'high'][i % 3],
        }),
      });
      if (res.status !== 201) throw new Error(`seeding failed: ${res.status} ${await res.text()}`);
    }
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'dist', 'console', 'manifest.json'), 'utf8')) as {
      files: { name: string; bytes: number; gzip_bytes: number }[];
    };
    const js = manifest.files.filter((f) => f.name.endsWith('.js'));
    const jsGzip = js.reduce((sum, f) => sum + f.gzip_bytes, 0);
    const credential = JSON.stringify({
      token: staff.token,
      user: { id: staff.id, email: staff.email, first_name: 'Bench', last_name: 'Staff', role: 'admin', locale: 'en' },
    });
    const newContext = async () => {
      const context = await browser.newContext({ baseURL: server.url });
      await context.addInitScript((value) => sessionStorage.setItem('console.bearer', value), credential);
      return context;
    };

    // One unmeasured load first (the server's and the browser's first-use costs).
    const warmup = await newContext();
    const firstPage = await warmup.newPage();
    await queueUsable(firstPage, '/console/?view=open');
    const received = await firstPage.evaluate(() =>
      (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((r) => r.name.endsWith('.js'))
        .reduce((sum, r) => sum + r.encodedBodySize, 0),
    );
    await warmup.close();

    const cold: number[] = [];
    const ceiling: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const context = await newContext();
      const page = await context.newPage();
      ceiling.push(await staticLoad(page, '/health'));
      await context.close();
      const fresh = await newContext();
      cold.push(await queueUsable(await fresh.newPage(), '/console/?view=open'));
      await fresh.close();
    }
    const warmContext = await newContext();
    const warmPage = await warmContext.newPage();
    await queueUsable(warmPage, '/console/?view=open');
    const warm: number[] = [];
    for (let i = 0; i < rounds; i++) warm.push(await queueUsable(warmPage, '/console/?view=open'));
    await warmContext.close();

    const line = (text: string) => process.stdout.write(`${text}\n`);
    line(
      `console benchmark: ${server.database.dialect}, ${ticketCount} tickets, ${rounds} rounds, ${server.placement}`,
    );
    line(
      `JavaScript: ${js.map((f) => `${f.name} ${f.bytes} B, ${f.gzip_bytes} B gzipped`).join('; ')}; ` +
        `received over the wire ${received} B; budget ${BUDGET} B gzipped: ${jsGzip <= BUDGET ? 'within' : 'OVER'}`,
    );
    line(`first screen, cold (new context, nothing cached): ${stats(cold)}`);
    line(`first screen, warm (reload, assets cached): ${stats(warm)}`);
    line(`ceiling, static page of the same server (/health, load event): ${stats(ceiling)}`);
    const coldMedian = median(cold) ?? Number.NaN;
    line(
      `target: first screen usable under 1000 ms on loopback: ${coldMedian < 1000 ? 'met' : 'NOT met'} (cold median)`,
    );
  } finally {
    await browser.close();
    await server.close();
  }
}
