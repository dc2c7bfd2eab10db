// Inbound mail through the webhook (POST /api/admin/inbound-mail): the corpus of client replies and
// other mail, each with its expected outcome; ownership, staff, held mail review, bounces, the
// per-sender limit and the route's own answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replyAddressFor } from '../../src/modules/tickets/email/addresses.js';
import { releaseDeferred } from '../../src/modules/tickets/email/inbound.js';
import { buildTestApp, rowCount, type TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';
import { buildMailApp, ticketMailFacts } from '../helpers/mail.js';
import { createTicketFor } from '../tickets/helpers.js';
import { OTHERS, REPLIES, TRUSTED_AUTHSERV, bounceFor, message, verifiedBy, type Expected } from './corpus.js';

const KEY = 'inbound-test-key-0123456789';

describe('inbound mail (webhook)', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await buildMailApp(KEY, 1000);
    admin = await t.makeUser({ admin: true, firstName: 'Ada', lastName: 'Admin' });
  });
  afterAll(() => t.close());

  const post = (raw: string | Buffer, who: TestUser = admin, type = 'message/rfc822') =>
    t.app.inject({
      method: 'POST',
      url: '/api/admin/inbound-mail',
      headers: { ...who.auth, 'content-type': type },
      payload: raw,
    });

  const facts = () => ticketMailFacts(t);

  const counts = async () => ({
    tickets: await rowCount(t, 'tickets'),
    comments: await rowCount(t, 'ticket_comments'),
    outbox: await rowCount(t, 'mail_outbox'),
  });

  function checkText(text: string, expected: Expected) {
    for (const part of expected.text ?? []) expect(text).toContain(part);
    for (const part of expected.without ?? []) expect(text).not.toContain(part);
  }

  for (const c of REPLIES) {
    it(`adds the owner's reply as a comment: ${c.name}`, async () => {
      const { ticket, f } = await facts();
      const before = await counts();
      const res = await post(c.raw(f, 1));
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ status: c.expected.status, ticket_id: ticket.id });
      const detail = (
        await t.app.inject({ method: 'GET', url: `/api/admin/tickets/${ticket.id}`, headers: admin.auth })
      ).json().data;
      expect(detail.comments).toHaveLength(1);
      checkText(detail.comments[0].message, c.expected);
      expect(detail.comments[0].attachments.map((a: { file_name: string }) => a.file_name)).toEqual(
        c.expected.attachments ?? [],
      );
      // A member's reply sends no mail back.
      expect((await counts()).outbox).toBe(before.outbox);
      const record = await t.db
        .selectFrom('inbound_mail')
        .select(['original_text', 'comment_id'])
        .where('id', '=', res.json().data.inbound_id)
        .executeTakeFirstOrThrow();
      expect(record.comment_id).toBe(detail.comments[0].id);
      expect(record.original_text.length).toBeGreaterThan(0);
    });
  }

  for (const c of OTHERS) {
    it(`${c.name} -> ${c.expected.status}`, async () => {
      const { f } = await facts();
      const before = await counts();
      const res = await post(c.raw(f, Date.now()));
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(data.status).toBe(c.expected.status);
      if (c.expected.reason) expect(data.reason).toBe(c.expected.reason);
      const after = await counts();
      if (c.expected.status === 'ticket') {
        expect(after.tickets).toBe(before.tickets + 1);
        const ticket = await t.db
          .selectFrom('tickets')
          .selectAll()
          .where('id', '=', data.ticket_id)
          .executeTakeFirstOrThrow();
        checkText(ticket.message, c.expected);
        expect(ticket.source).toBe('email');
        // The confirmation, as for the API.
        expect(after.outbox).toBe(before.outbox + 1);
      } else {
        expect(after).toEqual({ ...before, outbox: before.outbox + (c.expected.notice ? 1 : 0) });
      }
    });
  }

  it('records a message once: the same Message-ID again is a duplicate and changes nothing', async () => {
    const { f } = await facts();
    const raw = REPLIES[0]!.raw(f, 1);
    expect((await post(raw)).json().data.status).toBe('comment');
    const before = await counts();
    expect((await post(raw)).json().data).toEqual({ status: 'duplicate' });
    expect(await counts()).toEqual(before);
    // Without a Message-ID, the same bytes are the same message.
    const bare = `From: ${f.owner}\r\nTo: ${f.replyAddress}\r\nSubject: [${f.code}]\r\n\r\nSame bytes twice.\r\n`;
    expect((await post(bare)).json().data.status).toBe('comment');
    expect((await post(bare)).json().data.status).toBe('duplicate');
  });

  it('opens a ticket for an address without an account; its later reply by address is the owner', async () => {
    const address = `new.${Date.now()}@client.example`;
    const first = await post(
      message(
        {
          From: `Nima <${address}>`,
          To: 'support@platform.local',
          Subject: 'پرداخت ناموفق',
          'Message-ID': '<first@c.example>',
        },
        'پرداخت من انجام نشد.',
      ),
    );
    const { ticket_id } = first.json().data;
    const ticket = await t.db.selectFrom('tickets').selectAll().where('id', '=', ticket_id).executeTakeFirstOrThrow();
    expect(ticket).toMatchObject({ user_id: null, email: address });
    const confirmation = await t.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('ticket_id', '=', ticket_id)
      .executeTakeFirstOrThrow();
    expect(confirmation).toMatchObject({ to_address: address, in_reply_to: '<first@c.example>' });
    expect(confirmation.subject).toBe(`[${ticket.tracking_code}] پرداخت ناموفق`);
    expect(confirmation.text_body).toContain('تیکت پشتیبانی شما دریافت شد');
    const second = await post(
      message(
        {
          From: address,
          To: confirmation.reply_to!,
          Subject: 'more',
          'In-Reply-To': confirmation.message_id!,
          'Message-ID': '<second@c.example>',
        },
        'یک توضیح دیگر.',
      ),
    );
    expect(second.json().data).toMatchObject({ status: 'comment', ticket_id });
    // The user who signs up with that address sees the ticket.
    const later = await t.makeUser({ email: address });
    const mine = await t.app.inject({ method: 'GET', url: `/api/tickets/${ticket_id}`, headers: later.auth });
    expect(mine.statusCode).toBe(200);
  });

  it('staff replying by mail add a staff comment that is mailed to the owner', async () => {
    const { ticket, f } = await facts();
    const before = await counts();
    const res = await post(
      message(
        { From: admin.email, To: f.replyAddress, Subject: `Re: [${f.code}]`, 'Message-ID': `<staff.${Date.now()}@c>` },
        'We are on it.',
      ),
    );
    expect(res.json().data).toMatchObject({ status: 'comment', ticket_id: ticket.id });
    const comment = await t.db
      .selectFrom('ticket_comments')
      .selectAll()
      .where('id', '=', res.json().data.comment_id)
      .executeTakeFirstOrThrow();
    expect(comment).toMatchObject({ is_staff: 1, user_id: admin.id });
    expect((await counts()).outbox).toBe(before.outbox + 1);
  });

  it('held mail: staff list it, accept one into its ticket, reject another; members get 403', async () => {
    const { ticket, f } = await facts();
    const forged = OTHERS.find((c) => c.expected.status === 'held')!;
    const a = (await post(forged.raw(f, 1))).json().data;
    const b = (await post(forged.raw(f, 2))).json().data;
    const list = await t.app.inject({ method: 'GET', url: '/api/admin/inbound-mail?status=held', headers: admin.auth });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((r: { id: number }) => r.id)).toEqual(
      expect.arrayContaining([a.inbound_id, b.inbound_id]),
    );
    const member = await t.makeUser();
    for (const path of ['/api/admin/inbound-mail', `/api/admin/inbound-mail/${a.inbound_id}/accept`]) {
      const method = path.endsWith('accept') ? 'POST' : 'GET';
      expect((await t.app.inject({ method, url: path, headers: member.auth })).statusCode).toBe(403);
      expect((await t.app.inject({ method, url: path })).statusCode).toBe(401);
    }
    expect((await post('x', member)).statusCode).toBe(403);
    const accept = await t.app.inject({
      method: 'POST',
      url: `/api/admin/inbound-mail/${a.inbound_id}/accept`,
      headers: admin.auth,
    });
    expect(accept.statusCode).toBe(200);
    expect(accept.json()).toMatchObject({
      success: true,
      message: 'The message was added to its ticket.',
      data: { status: 'accepted', decided_by: admin.id },
    });
    const comments = await t.db.selectFrom('ticket_comments').selectAll().where('ticket_id', '=', ticket.id).execute();
    expect(comments).toHaveLength(1);
    expect(comments[0]!.message).toContain('Please send the refund');
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/admin/inbound-mail/${a.inbound_id}/accept`,
      headers: admin.auth,
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ success: false, message: 'This message is not waiting for review.' });
    const reject = await t.app.inject({
      method: 'POST',
      url: `/api/admin/inbound-mail/${b.inbound_id}/reject`,
      headers: { ...admin.auth, 'accept-language': 'fa' },
    });
    expect(reject.json()).toMatchObject({ success: true, message: 'نامه رد شد.', data: { status: 'rejected' } });
    expect(
      await t.db.selectFrom('ticket_comments').selectAll().where('ticket_id', '=', ticket.id).execute(),
    ).toHaveLength(1);
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/admin/inbound-mail/999999/reject',
      headers: admin.auth,
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ success: false, message: 'Held message not found.' });
    const invalid = await t.app.inject({
      method: 'POST',
      url: '/api/admin/inbound-mail/abc/reject',
      headers: admin.auth,
    });
    expect(invalid.statusCode).toBe(422);
  });

  it('an unverifiable From of the owner or of staff adds nothing: held, its address told once an hour, staff may accept', async () => {
    const { ticket, f } = await facts();
    const before = await counts();
    const forged = (n: number, from: string) =>
      post(
        message(
          { From: from, To: f.support, Subject: `Re: [${f.code}]`, 'Message-ID': `<unverified.${n}.${Date.now()}@c>` },
          `Forged number ${n}.`,
        ),
      );
    const first = (await forged(1, f.owner)).json().data;
    expect(first).toMatchObject({ status: 'held', reason: 'unverified_sender', ticket_id: ticket.id });
    expect((await forged(2, f.owner)).json().data).toMatchObject({ status: 'held', reason: 'unverified_sender' });
    // Staff's own address forged: it would otherwise be mailed to the owner as a staff reply.
    expect((await forged(3, admin.email)).json().data).toMatchObject({ status: 'held', reason: 'unverified_sender' });
    const after = await counts();
    expect(after.comments).toBe(before.comments);
    // One notice to the owner (not one per message) and one to the staff address.
    expect(after.outbox).toBe(before.outbox + 2);
    const notices = await t.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('ticket_id', '=', ticket.id)
      .orderBy('id', 'desc')
      .limit(2)
      .execute();
    expect(notices.map((n) => n.to_address).sort()).toEqual([admin.email, f.owner].sort());
    const toOwner = notices.find((n) => n.to_address === f.owner)!;
    expect(toOwner).toMatchObject({
      in_reply_to: f.rootId,
      reply_to: f.replyAddress,
      auto_submitted: 1,
      subject: `Re: [${f.code}] Card declined`,
    });
    expect(toOwner.text_body).toContain('could not confirm that you sent it');
    expect(toOwner.text_body).toContain('reply to this mail');
    // Staff decide: the held message becomes the owner's comment.
    const accept = await t.app.inject({
      method: 'POST',
      url: `/api/admin/inbound-mail/${first.inbound_id}/accept`,
      headers: admin.auth,
    });
    expect(accept.json().data).toMatchObject({ status: 'accepted', decided_by: admin.id });
    const comments = await t.db.selectFrom('ticket_comments').selectAll().where('ticket_id', '=', ticket.id).execute();
    expect(comments.map((c) => c.message)).toEqual(['Forged number 1.']);
    // The same From vouched for by the trusted server is the owner's comment at once.
    const genuine = await post(
      message(
        {
          'Authentication-Results': verifiedBy(f.owner),
          From: f.owner,
          To: f.support,
          Subject: `Re: [${f.code}]`,
          'Message-ID': `<verified.${Date.now()}@c>`,
        },
        'Really me.',
      ),
    );
    expect(genuine.json().data).toMatchObject({ status: 'comment', ticket_id: ticket.id });
    // A host under the trusted id is the same provider (mx1…mx6.messagingengine.com); a look-alike is not.
    for (const [server, status] of [
      [`in2.${TRUSTED_AUTHSERV}`, 'comment'],
      [`evil${TRUSTED_AUTHSERV}`, 'held'],
    ] as const) {
      const res = await post(
        message(
          {
            'Authentication-Results': verifiedBy(f.owner, server),
            From: f.owner,
            To: f.support,
            Subject: `Re: [${f.code}]`,
            'Message-ID': `<verified.${server}.${Date.now()}@c>`,
          },
          `Via ${server}.`,
        ),
      );
      expect(res.json().data.status, server).toBe(status);
    }
  });

  it('without MAIL_TRUSTED_AUTHSERV_ID no verdict is believed: only the signed reply address lets a From in', async () => {
    const plain = await buildTestApp({ config: { MAIL_REPLY_KEY: KEY } });
    try {
      const boss = await plain.makeUser({ admin: true });
      const owner = await plain.makeUser();
      const ticket = await createTicketFor(plain, owner, { subject: 'Card declined' });
      const send = (headers: Record<string, string>, n: number) =>
        plain.app
          .inject({
            method: 'POST',
            url: '/api/admin/inbound-mail',
            headers: { ...boss.auth, 'content-type': 'message/rfc822' },
            payload: message(
              {
                From: owner.email,
                Subject: `Re: [${ticket.tracking_code}]`,
                'Message-ID': `<plain.${n}@c>`,
                ...headers,
              },
              `Message ${n}.`,
            ),
          })
          .then((r) => r.json().data);
      expect(
        await send({ 'Authentication-Results': verifiedBy(owner.email), To: 'support@platform.local' }, 1),
      ).toMatchObject({ status: 'held', reason: 'unverified_sender' });
      expect(await send({ To: replyAddressFor(plain.config, ticket.tracking_code)! }, 2)).toMatchObject({
        status: 'comment',
        ticket_id: ticket.id,
      });
    } finally {
      await plain.close();
    }
  });

  it('a bounce marks the sent mail bounced and creates nothing', async () => {
    const { ticket, f } = await facts();
    await t.app.inject({
      method: 'POST',
      url: `/api/admin/tickets/${ticket.id}/comments`,
      headers: admin.auth,
      payload: { message: 'Here is the answer.' },
    });
    const sent = await t.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('ticket_id', '=', ticket.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const before = await counts();
    const res = await post(bounceFor(f, sent.message_id!));
    expect(res.json().data).toMatchObject({ status: 'bounce', reason: 'outbox_bounced' });
    expect(await counts()).toEqual(before);
    const row = await t.db.selectFrom('mail_outbox').selectAll().where('id', '=', sent.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('bounced');
    expect(row.bounced_at).not.toBeNull();
    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/admin/inbound-mail?status=bounce',
      headers: admin.auth,
    });
    expect(listed.json().data[0]).toMatchObject({ outbox_id: sent.id });
  });

  it('slows a flooding sender without losing mail: over the hourly limit messages wait, then apply', async () => {
    const limited = await buildTestApp({ config: { MAIL_INBOUND_PER_SENDER_PER_HOUR: 2 } });
    try {
      const boss = await limited.makeUser({ admin: true });
      const send = (n: number) =>
        limited.app.inject({
          method: 'POST',
          url: '/api/admin/inbound-mail',
          headers: { ...boss.auth, 'content-type': 'message/rfc822' },
          payload: message(
            {
              From: 'flood@client.example',
              To: 'support@platform.local',
              Subject: `flood ${n}`,
              'Message-ID': `<flood.${n}@c>`,
            },
            `Message number ${n}.`,
          ),
        });
      const statuses = [];
      for (let n = 1; n <= 4; n++) statuses.push((await send(n)).json().data.status);
      expect(statuses).toEqual(['ticket', 'ticket', 'deferred', 'deferred']);
      const storage = limited.app.attachmentStorage;
      const deps = limited.app.deps;
      expect(await releaseDeferred(deps, storage)).toBe(0);
      // An hour later the sender's window has room again.
      await limited.db
        .updateTable('inbound_mail')
        .set({ created_at: '2000-01-01T00:00:00.000Z' })
        .where('status', '=', 'ticket')
        .execute();
      expect(await releaseDeferred(deps, storage)).toBe(2);
      const rows = await limited.db
        .selectFrom('inbound_mail')
        .select(['status', 'raw_message'])
        .orderBy('id')
        .execute();
      expect(rows.map((r) => r.status)).toEqual(['ticket', 'ticket', 'ticket', 'ticket']);
      expect(rows.every((r) => r.raw_message === null)).toBe(true);
    } finally {
      await limited.close();
    }
  });

  it('answers 400 for an empty body and 415 for another content type, 401 without a token', async () => {
    const empty = await post('');
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ success: false, message: 'The body must be a mail message (message/rfc822).' });
    expect((await post('From: a@b\r\n\r\nx', admin, 'application/pdf')).statusCode).toBe(415);
    expect((await post('From: a@b\r\n\r\nx', admin, 'text/plain')).statusCode).toBe(400);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/admin/inbound-mail',
      headers: { 'content-type': 'message/rfc822' },
      payload: 'x',
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ message: 'Unauthenticated.' });
  });

  it('takes a 30 MB message: its too-large file is refused and noted, the text kept', async () => {
    const { ticket, f } = await facts();
    const big = Buffer.alloc(22 * 1_048_576, 0x41)
      .toString('base64')
      .replace(/.{76}/g, '$&\r\n');
    const raw = `From: ${f.owner}\r\nTo: ${f.replyAddress}\r\nSubject: big\r\nMessage-ID: <big.${Date.now()}@c>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="x"\r\n\r\n--x\r\nContent-Type: text/plain\r\n\r\nThe log file is attached.\r\n--x\r\nContent-Type: text/plain; name="log.txt"\r\nContent-Disposition: attachment; filename="log.txt"\r\nContent-Transfer-Encoding: base64\r\n\r\n${big}\r\n--x--\r\n`;
    expect(raw.length).toBeGreaterThan(30 * 1_000_000);
    const res = await post(raw);
    expect(res.json().data).toMatchObject({ status: 'comment', ticket_id: ticket.id });
    const comment = await t.db
      .selectFrom('ticket_comments')
      .select('message')
      .where('id', '=', res.json().data.comment_id)
      .executeTakeFirstOrThrow();
    expect(comment.message).toContain('The log file is attached.');
    expect(comment.message).toContain('[Attachment not accepted: log.txt (too large)]');
  });
});
