// Messages the inbound mail tests deliver, written as the common clients write them, each with
// the outcome it must have. Built per ticket (its tracking code, signed reply address, thread root
// and owner), so a case exercises the matching rule it names.
import { PNG } from '../tickets/helpers.js';

export interface TicketMailFacts {
  code: string;
  replyAddress: string;
  rootId: string;
  owner: string;
  ownerName: string;
  support: string;
}

export interface Expected {
  status: 'comment' | 'ticket' | 'held' | 'ignored' | 'bounce' | 'duplicate';
  reason?: string;
  /** A held message's claimed sender is mailed why (one outbox row). */
  notice?: boolean;
  /** The comment or new ticket's text contains each, and none of `without`. */
  text?: string[];
  without?: string[];
  attachments?: string[];
}

export interface Case {
  name: string;
  raw: (f: TicketMailFacts, n: number) => string;
  expected: Expected;
}

let serial = 0;
const id = (tag: string) => `<${tag}.${Date.now()}.${++serial}@client.example>`;
const b64 = (text: string | Buffer, charset = 'utf-8') =>
  (typeof text === 'string' ? Buffer.from(text, charset === 'utf-8' ? 'utf8' : 'latin1') : text)
    .toString('base64')
    .replace(/.{76}/g, '$&\r\n');
const qp = (text: string) =>
  Buffer.from(text, 'utf8')
    .toString('binary')
    .split('')
    .map((c) =>
      c === '\n'
        ? '\r\n'
        : /[\x21-\x3c\x3e-\x7e ]/.test(c)
          ? c
          : `=${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
const word = (text: string) => `=?UTF-8?B?${Buffer.from(text).toString('base64')}?=`;

/** The authserv-id of the receiving server the tests trust (MAIL_TRUSTED_AUTHSERV_ID). */
export const TRUSTED_AUTHSERV = 'mx.platform.test';
const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1);

/** What the trusted receiving server writes above a message whose From checked out. */
export const verifiedBy = (address: string, server = TRUSTED_AUTHSERV) =>
  `${server};\r\n  dkim=pass header.d=${domainOf(address)} header.s=s1 header.b=Zx9k;\r\n  spf=pass (${server}: domain of ${address} designates 192.0.2.10 as permitted sender) smtp.mailfrom=${address};\r\n  dmarc=pass (p=REJECT sp=REJECT dis=NONE) header.from=${domainOf(address)}`;

/** A message: headers (CRLF) and a body. */
export function message(headers: Record<string, string | undefined>, body: string): string {
  const lines = Object.entries(headers)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}: ${v}`);
  return `${lines.join('\r\n')}\r\n\r\n${body.replace(/\r?\n/g, '\r\n')}`;
}

const reply = (
  f: TicketMailFacts,
  extra: Record<string, string | undefined>,
  body: string,
  type = 'text/plain; charset=utf-8',
) =>
  message(
    {
      'Authentication-Results': verifiedBy(f.owner),
      From: `${f.ownerName} <${f.owner}>`,
      To: f.replyAddress,
      Subject: `Re: [${f.code}] Card declined`,
      Date: 'Wed, 25 Nov 2026 10:30:00 +0000',
      'Message-ID': id('reply'),
      'In-Reply-To': f.rootId,
      References: f.rootId,
      'MIME-Version': '1.0',
      'Content-Type': type,
      ...extra,
    },
    body,
  );

const OLD = 'Hello, we received your support ticket and will get back to you soon.';

export const REPLIES: Case[] = [
  {
    name: 'Gmail reply in English (signed reply address)',
    raw: (f) =>
      reply(
        f,
        {},
        `Thanks, that fixed it.\n\nOn Wed, Nov 25, 2026 at 10:00 AM Platform Support <${f.support}> wrote:\n> ${OLD}\n`,
      ),
    expected: { status: 'comment', text: ['Thanks, that fixed it.'], without: [OLD, 'wrote:'] },
  },
  {
    name: 'Gmail reply in Persian, base64, with the «... نوشت:» line',
    raw: (f) =>
      reply(
        f,
        { 'Content-Transfer-Encoding': 'base64', Subject: `${word('پاسخ:')} [${f.code}]` },
        b64(
          `ممنون، مشکل حل شد.\n\nدر تاریخ چهارشنبه ۵ آذر ۱۴۰۵ ساعت ۱۰:۰۰ Platform Support <${f.support}> نوشت:\n> ${OLD}\n`,
        ),
      ),
    expected: { status: 'comment', text: ['ممنون، مشکل حل شد.'], without: ['نوشت', OLD] },
  },
  {
    name: 'Outlook reply, quoted-printable, matched by In-Reply-To only',
    raw: (f) =>
      reply(
        f,
        { To: f.support, Subject: 'RE: your ticket', 'Content-Transfer-Encoding': 'quoted-printable' },
        qp(
          `I still see the error – après la mise à jour.\n\n________________________________\nFrom: Platform Support <${f.support}>\nSent: Wednesday, November 25, 2026 10:00 AM\nTo: ${f.owner}\nSubject: [${f.code}] Card declined\n\n${OLD}\n`,
        ),
      ),
    expected: { status: 'comment', text: ['I still see the error – après la mise à jour.'], without: [OLD, 'Sent:'] },
  },
  {
    name: 'Outlook HTML-only reply in Persian',
    raw: (f) =>
      reply(
        f,
        { 'Content-Transfer-Encoding': 'base64' },
        b64(
          `<html dir="rtl"><head><style>p{margin:0}</style></head><body><p>هنوز خطا می‌دهد &amp; پرداخت انجام نمی‌شود.</p><div id="divRplyFwdMsg"><b>From:</b> Platform Support<br><b>Sent:</b> Wednesday<br>${OLD}</div></body></html>`,
        ),
        'text/html; charset=utf-8',
      ),
    expected: { status: 'comment', text: ['هنوز خطا می‌دهد & پرداخت انجام نمی‌شود.'], without: [OLD, 'Sent:', 'margin'] },
  },
  {
    name: 'Apple Mail from an iPhone, matched by the tracking code in the subject',
    raw: (f) =>
      reply(
        f,
        { To: f.support, 'In-Reply-To': undefined, References: undefined },
        `Sounds good, thank you.\n\nSent from my iPhone\n\n> On Nov 25, 2026, at 10:00, Platform Support <${f.support}> wrote:\n> \n> ${OLD}\n`,
      ),
    expected: { status: 'comment', text: ['Sounds good, thank you.'], without: ['iPhone', OLD] },
  },
  {
    name: 'Thunderbird reply with a signature, attribution on two lines',
    raw: (f) =>
      reply(
        f,
        {},
        `The charge is back on my card.\n\n-- \n${f.ownerName}\nAcme Ltd\n\nOn 11/25/26 10:00, Platform Support\nwrote:\n> ${OLD}\n`,
      ),
    expected: { status: 'comment', text: ['The charge is back on my card.'], without: ['Acme Ltd', OLD] },
  },
  {
    name: 'Android phone reply in Persian with its footer',
    raw: (f) => reply(f, {}, `باشه، ممنون.\n\nارسال شده از گوشی Android\n\n> ${OLD}\n`),
    expected: { status: 'comment', text: ['باشه، ممنون.'], without: ['Android', OLD] },
  },
  {
    name: 'reply to the signed address through a server that writes no verdict',
    raw: (f) =>
      reply(
        f,
        { 'Authentication-Results': undefined },
        `Got it, thanks.\n\nOn Wed, Platform Support wrote:\n> ${OLD}\n`,
      ),
    expected: { status: 'comment', text: ['Got it, thanks.'], without: [OLD] },
  },
  {
    name: 'windows-1256 base64 body (an odd charset) with an ISO-8859-1 encoded-word subject',
    raw: (f) =>
      reply(
        f,
        {
          Subject: `=?ISO-8859-1?Q?R=E9ponse?= [${f.code}]`,
          'Content-Type': 'text/plain; charset=windows-1256',
          'Content-Transfer-Encoding': 'base64',
        },
        // "سلام" in windows-1256
        Buffer.from([0xd3, 0xe1, 0xc7, 0xe3, 0x20, 0x4f, 0x4b]).toString('base64'),
      ),
    expected: { status: 'comment', text: ['سلام OK'] },
  },
  {
    name: 'reply with an inline image (multipart/related) and a refused executable',
    raw: (f) =>
      reply(
        f,
        {},
        `--outer\r\nContent-Type: multipart/related; boundary="rel"\r\n\r\n--rel\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>Screenshot attached <img src="cid:shot@x"></p>\r\n--rel\r\nContent-Type: image/png; name="shot.png"\r\nContent-ID: <shot@x>\r\nContent-Disposition: inline; filename="shot.png"\r\nContent-Transfer-Encoding: base64\r\n\r\n${b64(PNG)}\r\n--rel--\r\n--outer\r\nContent-Type: application/octet-stream; name="tool.exe"\r\nContent-Disposition: attachment; filename="tool.exe"\r\nContent-Transfer-Encoding: base64\r\n\r\n${b64('MZ not allowed')}\r\n--outer--\r\n`,
        'multipart/mixed; boundary="outer"',
      ),
    expected: {
      status: 'comment',
      text: ['Screenshot attached', '[Attachment not accepted: tool.exe (type not allowed)]'],
      attachments: ['shot.png'],
    },
  },
];

export const OTHERS: Case[] = [
  {
    name: 'a forwarded message opens a new ticket with the forwarded text',
    raw: (f) =>
      message(
        {
          From: f.owner,
          To: f.support,
          Subject: 'Fwd: Payment failed',
          'Message-ID': id('fwd'),
          'Content-Type': 'text/plain; charset=utf-8',
        },
        `Please look at this.\n\n---------- Forwarded message ---------\nFrom: Bank <no-reply@bank.example>\nDate: Tue, 24 Nov 2026\nSubject: Payment failed\n\nYour payment of 120 failed.\n`,
      ),
    expected: { status: 'ticket', text: ['Please look at this.', 'Your payment of 120 failed.'] },
  },
  {
    name: 'HTML-only new mail becomes text',
    raw: (f) =>
      message(
        {
          From: f.owner,
          To: f.support,
          Subject: 'Cannot log in',
          'Message-ID': id('html'),
          'MIME-Version': '1.0',
          'Content-Type': 'text/html; charset=utf-8',
        },
        '<html><head><style>.x{color:red}</style></head><body><div>I cannot log in&nbsp;since Monday.</div><ul><li>Chrome</li><li>Firefox</li></ul></body></html>',
      ),
    expected: {
      status: 'ticket',
      text: ['I cannot log in since Monday.', '- Chrome'],
      without: ['color:red', '<div>'],
    },
  },
  {
    name: 'malformed MIME (unterminated multipart, broken header) still opens a ticket',
    raw: (f) =>
      `From: ${f.owner}\r\nTo: ${f.support}\r\nSubject: Broken\r\nMessage-ID: ${id('broken')}\r\nContent-Type: multipart/mixed; boundary="b"\r\nX-Broken header without colon\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nMy withdrawal is stuck for days.\r\n--b\r\nContent-Type: application/pdf\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!not base64`,
    expected: { status: 'ticket', text: ['My withdrawal is stuck for days.'] },
  },
  {
    name: 'missing Message-ID, Date and Subject',
    raw: (f, n) => `From: ${f.owner}\r\nTo: ${f.support}\r\n\r\nNo headers to speak of, message ${n}.\r\n`,
    expected: { status: 'ticket', text: ['No headers to speak of'] },
  },
  {
    name: 'no From address at all',
    raw: (f) => `To: ${f.support}\r\nSubject: anonymous\r\nMessage-ID: ${id('anon')}\r\n\r\nWho am I?\r\n`,
    expected: { status: 'ignored', reason: 'no_sender' },
  },
  {
    name: 'forged From with a stolen tracking code is held for staff',
    raw: (f) =>
      message(
        {
          From: 'Mallory <mallory@evil.example>',
          To: f.support,
          Subject: `Re: [${f.code}] Card declined`,
          'Message-ID': id('forged'),
        },
        'Please send the refund to my account instead.',
      ),
    expected: { status: 'held', reason: 'not_owner' },
  },
  {
    name: "forged From equal to the owner's with a stolen tracking code, no verdict: held, the owner told",
    raw: (f) =>
      message(
        { From: f.owner, To: f.support, Subject: `Re: [${f.code}] Card declined`, 'Message-ID': id('forged-owner') },
        'Please send the refund to IBAN XX00 instead.',
      ),
    expected: { status: 'held', reason: 'unverified_sender', notice: true },
  },
  {
    name: "forged From equal to the owner's answering the guessable thread root, a pass written by another server",
    raw: (f) =>
      message(
        {
          'Authentication-Results': verifiedBy(f.owner, 'mx.evil.example'),
          From: f.owner,
          To: f.support,
          Subject: 'Re: your ticket',
          'In-Reply-To': f.rootId,
          'Message-ID': id('forged-thread'),
        },
        'Close this ticket please.',
      ),
    expected: { status: 'held', reason: 'unverified_sender', notice: true },
  },
  {
    name: "forged From equal to the owner's, DKIM and SPF pass for the forger's own domain only",
    raw: (f) =>
      message(
        {
          'Authentication-Results': `${TRUSTED_AUTHSERV}; dkim=pass header.d=evil.example; spf=pass smtp.mailfrom=bounce@evil.example; dmarc=none header.from=${f.owner.split('@')[1]}`,
          From: f.owner,
          To: f.support,
          Subject: `[${f.code}]`,
          'Message-ID': id('forged-aligned'),
        },
        'Change my payout address.',
      ),
    expected: { status: 'held', reason: 'unverified_sender', notice: true },
  },
  {
    name: "forged From equal to the owner's with a fake trusted pass below the server's real verdict",
    raw: (f) =>
      message(
        {
          'Authentication-Results': `${TRUSTED_AUTHSERV}; spf=softfail smtp.mailfrom=evil.example; dkim=none; dmarc=none header.from=${f.owner.split('@')[1]}`,
          Received: 'from relay.evil.example by mx.platform.test; Wed, 25 Nov 2026 10:00:00 +0000',
          'authentication-results': verifiedBy(f.owner),
          From: f.owner,
          To: f.support,
          Subject: `Re: [${f.code}]`,
          'Message-ID': id('forged-below'),
        },
        'Refund to my new card please.',
      ),
    expected: { status: 'held', reason: 'unverified_sender', notice: true },
  },
  {
    name: 'to the signed reply address, but the trusted server says DMARC fail: held',
    raw: (f) =>
      reply(
        f,
        {
          'Authentication-Results': `${TRUSTED_AUTHSERV}; spf=fail smtp.mailfrom=x@evil.example; dkim=none; dmarc=fail (p=NONE) header.from=${f.owner.split('@')[1]}`,
        },
        'Someone who saw the reply address.',
      ),
    expected: { status: 'held', reason: 'unverified_sender', notice: true },
  },
  {
    name: 'a reply address with a wrong signature does not match: a new ticket for the sender',
    raw: (f) =>
      message(
        {
          From: 'eve@evil.example',
          To: f.replyAddress.replace(/\.[a-f0-9]+@/, '.000000000000@'),
          Subject: 'hello',
          'Message-ID': id('badsig'),
        },
        'Guessing an address.',
      ),
    expected: { status: 'ticket' },
  },
  {
    name: 'Auto-Submitted: auto-replied',
    raw: (f) => reply(f, { 'Auto-Submitted': 'auto-replied', Subject: `Re: [${f.code}]` }, 'I am away.'),
    expected: { status: 'ignored', reason: 'auto_reply' },
  },
  {
    name: 'Out of office by subject (Outlook)',
    raw: (f) =>
      reply(f, { Subject: `Automatic reply: [${f.code}] Card declined` }, 'I am out of the office until Monday.'),
    expected: { status: 'ignored', reason: 'auto_reply' },
  },
  {
    name: 'X-Autoreply',
    raw: (f) => reply(f, { 'X-Autoreply': 'yes' }, 'Vacation.'),
    expected: { status: 'ignored', reason: 'auto_reply' },
  },
  {
    name: 'Precedence: bulk',
    raw: (f) =>
      message(
        { From: f.owner, To: f.support, Subject: 'Newsletter', Precedence: 'bulk', 'Message-ID': id('bulk') },
        'Our news.',
      ),
    expected: { status: 'ignored', reason: 'bulk' },
  },
  {
    name: 'Precedence: list (a mailing list)',
    raw: (f) =>
      message(
        { From: f.owner, To: f.support, Subject: 'digest', Precedence: 'list', 'Message-ID': id('list') },
        'List mail.',
      ),
    expected: { status: 'ignored', reason: 'bulk' },
  },
  {
    name: 'loop attempt: our own address writing with a tracking code',
    raw: (f) =>
      message(
        { From: f.support, To: f.support, Subject: `Re: [${f.code}] Card declined`, 'Message-ID': id('loop') },
        'Echo.',
      ),
    expected: { status: 'ignored', reason: 'own_mail' },
  },
  {
    name: 'loop attempt: a copy of our own mail (our header)',
    raw: (f) =>
      message(
        { From: f.owner, To: f.support, Subject: `[${f.code}] x`, 'X-Platform-Mail': 'reply', 'Message-ID': id('own') },
        'Copy.',
      ),
    expected: { status: 'ignored', reason: 'own_mail' },
  },
  {
    name: 'loop attempt: a message that went round (30 Received headers)',
    raw: (f) =>
      `${Array.from({ length: 30 }, (_, i) => `Received: from relay${i}.example by relay${i + 1}.example; Wed, 25 Nov 2026 10:00:00 +0000`).join('\r\n')}\r\nFrom: ${f.owner}\r\nTo: ${f.support}\r\nSubject: again\r\nMessage-ID: ${id('round')}\r\n\r\nround and round\r\n`,
    expected: { status: 'ignored', reason: 'loop' },
  },
];

/** A delivery status notification for a mail we sent (its Message-ID quoted in the returned headers). */
export function bounceFor(f: TicketMailFacts, sentMessageId: string): string {
  return message(
    {
      From: 'Mail Delivery Subsystem <MAILER-DAEMON@mx.example>',
      To: f.support,
      Subject: 'Undelivered Mail Returned to Sender',
      'Message-ID': id('dsn'),
      'Auto-Submitted': 'auto-replied',
      'MIME-Version': '1.0',
      'Content-Type': 'multipart/report; report-type=delivery-status; boundary="dsn"',
    },
    `--dsn\nContent-Type: text/plain\n\nYour message could not be delivered.\n--dsn\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; mx.example\n\nFinal-Recipient: rfc822; ${f.owner}\nAction: failed\nStatus: 5.1.1\n--dsn\nContent-Type: text/rfc822-headers\n\nFrom: ${f.support}\nTo: ${f.owner}\nSubject: Re: [${f.code}] Card declined\nMessage-ID: ${sentMessageId}\n--dsn--\n`,
  );
}
