import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../harness/ports.js';
import { drainOutbox, enqueueMail } from '../../src/mail/outbox.js';
import { fileTransport, transportFor, type MailTransport } from '../../src/mail/transport.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { startSmtp } from '../helpers/smtp.js';
import { createTicketFor } from '../tickets/helpers.js';

describe('mail outbox', () => {
  let t: TestApp;
  let port: number;
  const closers: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    port = await freePort();
    t = await buildTestApp({ config: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
  });
  afterEach(async () => {
    while (closers.length) await closers.pop()!();
    await t.db.deleteFrom('mail_outbox').execute();
  });
  afterAll(() => t.close());

  const drain = (now?: Date) => {
    const transport = transportFor(t.config);
    return drainOutbox(t.db, transport, t.config.MAIL_FROM, now ? { now } : {}).finally(() => transport.close());
  };

  it('delivers the ticket confirmation to a real SMTP server with the subject and tracking code', async () => {
    const smtp = await startSmtp(port);
    closers.push(smtp.close);
    const user = await t.makeUser({ firstName: 'Mina' });
    const ticket = await createTicketFor(t, user, { subject: 'Card declined' });
    expect(await drain()).toEqual({ sent: 1, failed: 0 });
    expect(smtp.received).toHaveLength(1);
    const raw = smtp.received[0]!;
    expect(raw).toMatch(new RegExp(`^Subject: \\[${ticket.tracking_code}\\] Card declined`, 'm'));
    expect(raw).toContain('We received your support ticket');
    expect(raw).toMatch(new RegExp(`^To: ${user.email}`, 'm'));
    expect(raw).toContain(`Tracking code: ${ticket.tracking_code}`);
    expect(raw).toContain('Card declined');
    const row = await t.db.selectFrom('mail_outbox').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'sent', attempts: 1, locked_until: null });
    expect(await drain()).toEqual({ sent: 0, failed: 0 });
  });

  it('writes the confirmation in Persian for a Persian-speaking owner', async () => {
    const smtp = await startSmtp(port);
    closers.push(smtp.close);
    const user = await t.makeUser({ locale: 'fa' });
    const ticket = await createTicketFor(t, user);
    await drain();
    const row = await t.db.selectFrom('mail_outbox').select(['subject', 'text_body']).executeTakeFirstOrThrow();
    expect(row.subject).toBe(`[${ticket.tracking_code}] ${ticket.subject}`);
    expect(row.text_body).toContain('تیکت پشتیبانی شما دریافت شد');
    expect(row.text_body).toContain(`کد پیگیری: ${ticket.tracking_code}`);
    expect(smtp.received).toHaveLength(1);
  });

  it('retries with backoff after the SMTP server was down, then delivers', async () => {
    const user = await t.makeUser();
    const ticket = await createTicketFor(t, user);
    const start = new Date();
    expect(await drain(start)).toEqual({ sent: 0, failed: 1 });
    const pending = await t.db.selectFrom('mail_outbox').selectAll().executeTakeFirstOrThrow();
    expect(pending).toMatchObject({ status: 'pending', attempts: 1, locked_until: null });
    expect(pending.last_error).toBeTruthy();
    expect(Date.parse(pending.next_attempt_at)).toBe(start.getTime() + 30_000);
    // Not due yet: nothing is tried.
    expect(await drain(new Date(start.getTime() + 1_000))).toEqual({ sent: 0, failed: 0 });
    expect(await drain(new Date(start.getTime() + 30_000))).toEqual({ sent: 0, failed: 1 });
    const second = await t.db
      .selectFrom('mail_outbox')
      .select(['attempts', 'next_attempt_at'])
      .executeTakeFirstOrThrow();
    expect(second.attempts).toBe(2);
    expect(Date.parse(second.next_attempt_at)).toBe(start.getTime() + 30_000 + 60_000);

    const smtp = await startSmtp(port);
    closers.push(smtp.close);
    expect(await drain(new Date(start.getTime() + 90_000))).toEqual({ sent: 1, failed: 0 });
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]).toContain(ticket.tracking_code);
  });

  it('gives a mail up as failed after the last attempt', async () => {
    await enqueueMail(t.db, { to: 'nobody@example.com', subject: 'x', text: 'y' });
    const transport = transportFor(t.config);
    await drainOutbox(t.db, transport, t.config.MAIL_FROM, { maxAttempts: 1 });
    transport.close();
    expect(await t.db.selectFrom('mail_outbox').select(['status', 'attempts']).executeTakeFirstOrThrow()).toEqual({
      status: 'failed',
      attempts: 1,
    });
  });

  it('never sends one mail twice when two workers drain at once', async () => {
    for (let i = 0; i < 6; i++) await enqueueMail(t.db, { to: `p${i}@example.com`, subject: `m${i}`, text: 'body' });
    const folder = path.join(t.dataDir, 'concurrent-mail');
    const sentTo: string[] = [];
    const counting = (): MailTransport => {
      const inner = fileTransport(folder);
      return {
        send: async (mail) => {
          sentTo.push(mail.to);
          await inner.send(mail);
        },
        close: inner.close,
      };
    };
    const results = await Promise.all([
      drainOutbox(t.db, counting(), 'a@x.test'),
      drainOutbox(t.db, counting(), 'b@x.test'),
    ]);
    expect(results[0].sent + results[1].sent).toBe(6);
    expect(sentTo.sort()).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p5'].map((p) => `${p}@example.com`));
    expect(fs.readdirSync(folder).filter((f) => f.endsWith('.eml'))).toHaveLength(6);
  });
});

describe('mail worker without SMTP_URL', () => {
  it('is started with the app and writes the confirmation as an .eml file under DATA_DIR/mail', async () => {
    const t = await buildTestApp({ startWorkers: true });
    try {
      const user = await t.makeUser();
      const ticket = await createTicketFor(t, user);
      const folder = path.join(t.dataDir, 'mail');
      let files: string[] = [];
      for (let i = 0; i < 100 && files.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 100));
        files = fs.existsSync(folder) ? fs.readdirSync(folder).filter((f) => f.endsWith('.eml')) : [];
      }
      expect(files).toHaveLength(1);
      const raw = fs.readFileSync(path.join(folder, files[0]!), 'utf8');
      expect(raw).toContain(ticket.tracking_code);
      expect(raw).toMatch(new RegExp(`^To: ${user.email}`, 'm'));
    } finally {
      await t.close();
    }
  });
});
