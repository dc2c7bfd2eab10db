// Takes the README's screenshots of the support console from the real service: a scratch SQLite
// database with six weeks of support history (harness/console-history.ts), the built server
// (node dist/server.js) on a free port, today's tickets made through the API as members and staff
// make them (attachments, a reply, an internal note, an escalated assistant conversation, feedback),
// and Debian's Chromium through playwright-core signed in by a one-time console link. Writes
// docs/console/console-{queue,ticket,reports,feedback,sign-in}-{en,fa}.png.
//   npx tsx scripts/console-screenshots.ts [--out docs/console]
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { type Browser, chromium } from 'playwright-core';
import { seedSupportHistory } from '../harness/console-history.js';
import { scratchDatabase } from '../harness/database.js';
import { launchServer, projectRoot } from '../harness/server.js';
import { makeToken, userWithToken } from '../harness/users.js';
import { insertTag } from '../src/modules/tickets/repository.js';

const outAt = process.argv.indexOf('--out');
const out = path.resolve(outAt >= 0 ? process.argv[outAt + 1]! : path.join(projectRoot, 'docs', 'console'));

/** A small PNG (a grey button on a white card), so the ticket shows an image preview. */
function buttonPng(width = 240, height = 96): Buffer {
  const table = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const b of bytes) c = table[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows: number[] = [];
  for (let y = 0; y < height; y += 1) {
    rows.push(0);
    for (let x = 0; x < width; x += 1) {
      const inButton = x > 40 && x < 200 && y > 30 && y < 66;
      rows.push(...(inButton ? [190, 190, 196] : [250, 250, 252]));
    }
  }
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function call(base: string, token: string, method: string, url: string, body?: unknown) {
  const init: RequestInit = { method, headers: { authorization: `Bearer ${token}` } };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  const res = await fetch(`${base}${url}`, init);
  const json = (await res.json()) as {
    data?: { id?: number; url?: string };
    conversation_id?: number;
  };
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const scratch = await scratchDatabase({ dialect: 'sqlite', label: 'screenshots' });
const server = await launchServer({ entry: 'built', env: { ...scratch.env, LOG_LEVEL: 'warn' } });
let browser: Browser | undefined;
try {
  const db = scratch.db;
  const base = server.url;
  const sara = await userWithToken(db, {
    admin: true,
    firstName: 'Sara',
    lastName: 'Karimi',
    email: 'sara@example.com',
  });
  const omid = await userWithToken(db, { firstName: 'Omid', lastName: 'Tehrani', email: 'omid@example.com' });
  await call(base, sara.token, 'PUT', `/api/admin/users/${omid.id}`, {
    email: omid.email,
    first_name: 'Omid',
    last_name: 'Tehrani',
    role: 'support',
  });
  const now = new Date().toISOString();
  const tags = await Promise.all(['billing', 'urgent', 'mobile-app'].map((name) => insertTag(db, name, now)));
  const history = await seedSupportHistory(db, { staffIds: [sara.id, omid.id], tagIds: tags.map((t) => t.id) });

  // Today's featured ticket, filed through the API by a member with history, with an image and a PDF.
  const ada = { ...history.members[0]!, token: await makeToken(db, history.members[0]!.id) };
  const reza = { ...history.members[1]!, token: await makeToken(db, history.members[1]!.id) };
  const form = new FormData();
  form.set('subject', 'Cannot withdraw my dividend');
  form.set('message', 'The withdraw button stays grey since yesterday. A screenshot and my statement are attached.');
  form.set('priority', 'high');
  form.set('category', 'payments');
  form.append('tags[]', String(tags[0]!.id));
  form.append('attachments[]', new Blob([buttonPng()], { type: 'image/png' }), 'withdraw-button.png');
  form.append(
    'attachments[]',
    new Blob(['%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'], {
      type: 'application/pdf',
    }),
    'statement-november.pdf',
  );
  const featured = (await call(base, ada.token, 'POST', '/api/tickets', form)).data as { id: number };
  await call(base, omid.token, 'POST', `/api/admin/tickets/${featured.id}/comments`, {
    message: 'Hello Ada, thank you for the screenshot. We are checking your wallet with the payments team.',
  });
  await call(base, sara.token, 'POST', `/api/admin/tickets/${featured.id}/notes`, {
    message: 'The gateway shows the payout held for a name mismatch on the IBAN. Waiting for finance.',
  });
  const more = new FormData();
  more.set('message', 'It still happens this morning, on the phone too.');
  await call(base, ada.token, 'POST', `/api/tickets/${featured.id}/comments`, more);
  await call(base, sara.token, 'PUT', `/api/admin/tickets/${featured.id}`, { assignee_id: sara.id });
  await call(base, ada.token, 'POST', '/api/tickets', {
    subject: 'Investment certificate has a wrong name',
    message: 'My surname is misspelled on the certificate of my last project.',
    category: 'projects',
  });

  // An assistant conversation escalated to a ticket.
  const chat = await call(base, reza.token, 'POST', '/api/assistant/chat', {
    message: 'سود پروژهٔ من کی واریز می‌شود؟',
    conversation_id: null,
  });
  const conversationId = chat.conversation_id;
  await call(base, reza.token, 'POST', '/api/assistant/escalate', {
    conversation_id: conversationId,
    reason: 'پاسخ دستیار کافی نبود؛ لطفاً یک نفر بررسی کند.',
  });

  for (const [who, feedback] of [
    [
      ada,
      {
        type: 'improvement',
        subject: 'The assistant should know about dividends',
        content: 'It could not tell me when the dividend is paid; a person answered within the hour.',
        rating: 3,
      },
    ],
    [
      reza,
      {
        type: 'praise',
        subject: 'پاسخ سریع',
        content: 'دستیار خیلی سریع به پرسش من دربارهٔ تغییر شماره پاسخ داد.',
        rating: 5,
      },
    ],
    [
      ada,
      {
        type: 'bug',
        subject: 'Chat window covers the menu on a phone',
        content: 'On a small screen the chat button hides the last menu item.',
        rating: 2,
      },
    ],
  ] as const)
    await call(base, who.token, 'POST', '/api/assistant/feedback', feedback);

  fs.mkdirSync(out, { recursive: true });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
  for (const locale of ['en', 'fa'] as const) {
    await db.updateTable('users').set({ locale }).where('id', '=', sara.id).execute();
    const context = await browser.newContext({
      baseURL: base,
      locale: locale === 'fa' ? 'fa-IR' : 'en-GB',
      timezoneId: 'Asia/Tehran',
      viewport: { width: 1280, height: 860 },
    });
    await context.addInitScript(`localStorage.setItem('console.locale', '${locale}')`);
    const page = await context.newPage();
    await page.goto('/console/');
    await page.waitForSelector('input[type="email"]');
    await page.screenshot({ path: path.join(out, `console-sign-in-${locale}.png`) });
    const link = await call(base, sara.token, 'POST', `/api/admin/users/${sara.id}/console-links`);
    await page.goto(new URL(link.data!.url!).pathname);
    await page.getByRole('button').first().click();
    await page.waitForURL(/\/console\/?$/);
    // Omid has the featured ticket open on his screen.
    await call(base, omid.token, 'PUT', `/api/admin/tickets/${featured.id}/presence`, { state: 'viewing' });
    for (const [name, url] of [
      ['queue', '/console/?view=open'],
      ['ticket', `/console/tickets/${featured.id}`],
      ['reports', '/console/reports'],
      ['feedback', '/console/feedback'],
    ] as const) {
      await page.goto(url);
      await page.waitForSelector('main h1');
      await page.waitForLoadState('networkidle');
      await page.waitForFunction(`!document.querySelector('main [role="status"].muted')`);
      await page.screenshot({ path: path.join(out, `console-${name}-${locale}.png`), fullPage: name !== 'queue' });
      console.log(path.relative(projectRoot, path.join(out, `console-${name}-${locale}.png`)));
    }
    await context.close();
  }
} finally {
  await browser?.close();
  await server.stop(10_000);
  await scratch.destroy();
}
