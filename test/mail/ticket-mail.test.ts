// Outbound mail of a ticket: staff replies and status changes reach the owner through the outbox
// and a real SMTP server, threaded under the confirmation, in the owner's language, with a signed
// reply address; a member's own comment and a staff change without a status change send nothing.
import { simpleParser, type ParsedMail } from 'mailparser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freePort } from '../../harness/ports.js';
import { drainOutbox } from '../../src/mail/outbox.js';
import { transportFor } from '../../src/mail/transport.js';
import { trackingCodeOfAddress } from '../../src/modules/tickets/email/addresses.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';
import { startSmtp, type LoopbackSmtp } from '../helpers/smtp.js';
import { createTicketFor } from '../tickets/helpers.js';

const KEY = 'a-test-key-of-enough-length';

describe('ticket mail to the owner', () => {
  let t: TestApp;
  let smtp: LoopbackSmtp;
  let admin: TestUser;

  beforeAll(async () => {
    const port = await freePort();
    smtp = await startSmtp(port);
    t = await buildTestApp({
      config: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_REPLY_KEY: KEY, MAIL_REPLY_DOMAIN: 'help.example.org' },
    });
    admin = await t.makeUser({ admin: true, firstName: 'Ada', lastName: 'Admin' });
  });
  beforeEach(() => void smtp.received.splice(0));
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  async function delivered(): Promise<ParsedMail[]> {
    const transport = transportFor(t.config);
    await drainOutbox(t.db, transport, t.config.MAIL_FROM).finally(() => transport.close());
    return Promise.all(smtp.received.splice(0).map((raw) => simpleParser(raw)));
  }

  const reply = (id: number, message: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/admin/tickets/${id}/comments`,
      headers: admin.auth,
      payload: { message },
    });

  it('mails a staff reply in one thread with the confirmation, answerable at a signed address', async () => {
    const owner = await t.makeUser({ firstName: 'Mina' });
    const ticket = await createTicketFor(t, owner, { subject: 'Card declined' });
    const [confirmation] = await delivered();
    expect((await reply(ticket.id, 'We refunded the charge.')).statusCode).toBe(201);
    const [mail] = await delivered();
    expect(mail!.to).toMatchObject({ value: [{ address: owner.email }] });
    expect(mail!.subject).toBe(`Re: [${ticket.tracking_code}] Card declined`);
    expect(mail!.text).toContain('We refunded the charge.');
    expect(mail!.text).toContain('Ada Admin');
    expect(mail!.html).toContain('dir="ltr"');
    expect(confirmation!.messageId).toBe(`<ticket-${ticket.id}@help.example.org>`);
    expect(mail!.messageId).toMatch(new RegExp(`^<ticket-${ticket.id}\\..+@help\\.example\\.org>$`));
    expect(mail!.inReplyTo).toBe(confirmation!.messageId);
    expect(mail!.references).toBe(confirmation!.messageId);
    const replyTo = mail!.replyTo!.value[0]!.address!;
    expect(replyTo).toMatch(/^support\+tk-[a-z0-9]{8}\.[a-f0-9]{12}@help\.example\.org$/);
    expect(trackingCodeOfAddress(t.config, replyTo)).toBe(ticket.tracking_code);
    expect(confirmation!.replyTo!.value[0]!.address).toBe(replyTo);
    expect(mail!.headers.get('auto-submitted')).toBeUndefined();
    expect(confirmation!.headers.get('auto-submitted')).toBe('auto-generated');
  });

  it('threads every mail of a ticket as one conversation: one subject, distinct ids, each answering the root', async () => {
    const owner = await t.makeUser({ firstName: 'Mina' });
    const ticket = await createTicketFor(t, owner, { subject: 'Card declined' });
    const put = (payload: object) =>
      t.app.inject({ method: 'PUT', url: `/api/admin/tickets/${ticket.id}`, headers: admin.auth, payload });
    expect((await reply(ticket.id, 'First answer.')).statusCode).toBe(201);
    expect((await put({ status: 'closed' })).statusCode).toBe(200);
    expect((await put({ status: 'open' })).statusCode).toBe(200);
    expect((await reply(ticket.id, 'Second answer.')).statusCode).toBe(201);
    const mails = await delivered();
    expect(mails).toHaveLength(5);
    const [root, ...later] = mails.sort((a, b) =>
      a.messageId === `<ticket-${ticket.id}@help.example.org>`
        ? -1
        : b.messageId === `<ticket-${ticket.id}@help.example.org>`
          ? 1
          : 0,
    );
    expect(root!.messageId).toBe(`<ticket-${ticket.id}@help.example.org>`);
    expect(root!.inReplyTo).toBeUndefined();
    // Gmail and Outlook group by the subject without its "Re:"; Apple Mail and Thunderbird by the ids.
    const topic = (subject: string | undefined) => subject!.replace(/^Re:\s*/i, '');
    for (const mail of mails) {
      expect(topic(mail.subject)).toBe(`[${ticket.tracking_code}] Card declined`);
      expect(mail.to).toMatchObject({ value: [{ address: owner.email }] });
    }
    for (const mail of later) {
      expect(mail.subject).toMatch(/^Re: /);
      expect(mail.inReplyTo).toBe(root!.messageId);
      expect([mail.references].flat()).toEqual([root!.messageId]);
    }
    const ids = mails.map((m) => m.messageId);
    expect(new Set(ids).size).toBe(5);
    for (const id of ids) expect(id).toMatch(/^<ticket-\d+(\.[a-z0-9]+\.[a-f0-9]+)?@help\.example\.org>$/);
  });

  it('keeps the Message-ID of a mail across retries (written with the row)', async () => {
    const owner = await t.makeUser();
    const ticket = await createTicketFor(t, owner);
    await reply(ticket.id, 'First answer.');
    const rows = await t.db
      .selectFrom('mail_outbox')
      .select(['message_id'])
      .where('ticket_id', '=', ticket.id)
      .orderBy('id')
      .execute();
    const mails = await delivered();
    expect(mails.map((m) => m.messageId)).toEqual(rows.map((r) => r.message_id));
    expect(new Set(rows.map((r) => r.message_id)).size).toBe(2);
  });

  it('writes to a Persian-speaking owner in Persian, right to left, HTML and text', async () => {
    const owner = await t.makeUser({ locale: 'fa', firstName: 'مینا' });
    const ticket = await createTicketFor(t, owner, { subject: 'کارت رد شد' });
    await delivered();
    await reply(ticket.id, 'مبلغ برگشت داده شد.');
    const [mail] = await delivered();
    // "Re:" in Persian too: clients recognise it, and a translated prefix would split the thread.
    expect(mail!.subject).toBe(`Re: [${ticket.tracking_code}] کارت رد شد`);
    expect(mail!.text).toContain('مینا');
    expect(mail!.text).toContain('مبلغ برگشت داده شد.');
    expect(mail!.html).toContain('dir="rtl"');
    expect(mail!.html).toContain('lang="fa"');
  });

  it("escapes the reply's markup in the HTML part", async () => {
    const owner = await t.makeUser();
    const ticket = await createTicketFor(t, owner);
    await delivered();
    await reply(ticket.id, 'Use <script>alert(1)</script> & see.');
    const [mail] = await delivered();
    expect(mail!.html).toContain('&lt;script&gt;');
    expect(mail!.html).not.toContain('<script>');
  });

  it('mails status changes by staff; a member comment and an assignee-only change send nothing', async () => {
    const owner = await t.makeUser();
    const ticket = await createTicketFor(t, owner);
    await delivered();
    const comment = await t.app.inject({
      method: 'POST',
      url: `/api/tickets/${ticket.id}/comments`,
      headers: owner.auth,
      payload: { message: 'Any news on this one?' },
    });
    expect(comment.statusCode).toBe(201);
    expect(await delivered()).toHaveLength(0);
    const put = (payload: object) =>
      t.app.inject({ method: 'PUT', url: `/api/admin/tickets/${ticket.id}`, headers: admin.auth, payload });
    expect((await put({ status: 'closed' })).statusCode).toBe(200);
    const [closed] = await delivered();
    expect(closed!.text).toContain(`Your support ticket ${ticket.tracking_code} is now closed.`);
    expect(closed!.headers.get('auto-submitted')).toBe('auto-generated');
    expect(closed!.inReplyTo).toBe(`<ticket-${ticket.id}@help.example.org>`);
    expect((await put({ status: 'closed' })).statusCode).toBe(200);
    expect(await delivered()).toHaveLength(0);
  });
});
