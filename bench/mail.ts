// npm run bench -- mail [--replies 1000] [--tickets 100] [--connections 8]
//
// Tickets by email: --replies member replies (spread over --tickets tickets, written to each
// ticket's signed reply address as a mail client answering our mail does) are delivered into a real IMAP mailbox (dovecot on loopback, harness/dovecot.ts) that
// the service fetches (MAIL_INBOX_URL). Measured: the time from the first delivery until every
// reply is a comment (goal: 1,000 in under 60 s), and, meanwhile, GET /api/tickets/{id} at
// --connections connections with wrk (its p99 next to the tickets' target).
// SQLite by default; set DATABASE_URL=postgres://... to run on PostgreSQL.
import { parseArgs } from 'node:util';
import { startDovecot } from '../harness/dovecot.js';
import { loadConfig } from '../src/config.js';
import { replyAddressFor } from '../src/modules/tickets/email/addresses.js';
import { userWithToken } from '../harness/users.js';
import { ensureWrk, wrk } from './lib/wrk.js';
import { startServerProcess } from './lib/server.js';

export default async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      replies: { type: 'string', default: '1000' },
      tickets: { type: 'string', default: '100' },
      connections: { type: 'string', default: '8' },
    },
  });
  const replies = Number(values.replies);
  const ticketCount = Number(values.tickets);
  ensureWrk();
  const dovecot = await startDovecot();
  const replyKey = 'mail-benchmark-reply-key';
  const replyConfig = loadConfig({ MAIL_REPLY_KEY: replyKey });
  const server = await startServerProcess(
    {
      MAIL_INBOX_URL: dovecot.url,
      MAIL_REPLY_KEY: replyKey,
      MAIL_INBOUND_PER_SENDER_PER_HOUR: '100000',
      LOG_LEVEL: 'warn',
    },
    { discardStdout: true },
  );
  process.stdout.write(`${server.placement}\n`);
  try {
    const { db } = server.database;
    const tickets: Array<{ id: number; code: string; email: string; auth: Record<string, string> }> = [];
    for (let i = 0; i < ticketCount; i++) {
      const owner = await userWithToken(db, {
        email: `mail.bench.${i}@bench.local`,
        firstName: 'Bench',
        lastName: `Owner ${i}`,
      });
      const res = await fetch(`${server.url}/api/tickets`, {
        method: 'POST',
        headers: { ...owner.auth, 'content-type': 'application/json' },
        body: JSON.stringify({ subject: `Bench ticket ${i}`, message: 'A ticket the mail benchmark replies to.' }),
      });
      const body = (await res.json()) as { data: { id: number; tracking_code: string } };
      tickets.push({ id: body.data.id, code: body.data.tracking_code, email: owner.email, auth: owner.auth });
    }
    const messages = Array.from({ length: replies }, (_, n) => {
      const t = tickets[n % tickets.length]!;
      return (
        `From: ${t.email}\r\nTo: ${replyAddressFor(replyConfig, t.code)}\r\nSubject: Re: [${t.code}] Bench ticket\r\n` +
        `Message-ID: <bench.${n}@bench.local>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n` +
        `Reply number ${n}.\r\n\r\nOn Mon, Support <support@platform.local> wrote:\r\n> the earlier mail\r\n`
      );
    });
    const count = async () =>
      Number(
        (
          await db
            .selectFrom('inbound_mail')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const started = Date.now();
    const delivered = dovecot.deliver(...messages);
    const target = tickets[0]!;
    const api = wrk(
      server.url,
      { path: `/api/tickets/${target.id}`, headers: target.auth },
      Number(values.connections),
      10,
    );
    let done = await count();
    while (done < replies && Date.now() - started < 600_000) {
      await new Promise((r) => setTimeout(r, 250));
      done = await count();
    }
    const seconds = (Date.now() - started) / 1000;
    await delivered;
    const load = await api;
    const comments = Number(
      (
        await db
          .selectFrom('ticket_comments')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    process.stdout.write(
      `\n| replies | applied | comments | seconds (goal 1,000 < 60) | replies/s | GET /api/tickets/{id} ` +
        `during: p50 / p99 ms (goal p99 < 20), req/s, errors + non-2xx |\n|---|---|---|---|---|---|\n` +
        `| ${replies} | ${done} | ${comments} | ${seconds.toFixed(1)} | ${(done / seconds).toFixed(0)} | ` +
        `${(load.p50 / 1000).toFixed(1)} / ${(load.p99 / 1000).toFixed(1)}, ${load.requestsPerSecond}, ` +
        `${load.errors + load.non2xx} |\n`,
    );
  } finally {
    await server.close();
    await dovecot.stop();
  }
}
