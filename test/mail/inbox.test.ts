// The mailbox fetcher against a real IMAP server (dovecot on loopback): mail delivered to the
// mailbox becomes tickets and comments once each, new mail is picked up while idling, a failing
// message stays in the mailbox, one of two instances fetches and the other takes over when it stops,
// and a server killed mid-batch loses and doubles nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchServer } from '../../harness/server.js';
import { waitFor } from '../../harness/wait.js';
import { InboxFetcher, type InboxHandler } from '../../src/mail/imap-fetcher.js';
import { leaseHolder } from '../../src/mail/lease-query.js';
import { inboxHandler } from '../../src/modules/tickets/email/inbox.js';
import { rowCount, type TestApp } from '../helpers/app.js';
import { buildMailApp, ticketMailFacts } from '../helpers/mail.js';
import { startDovecot, type Dovecot } from '../../harness/dovecot.js';
import { OTHERS, REPLIES, message } from './corpus.js';

const quiet = { info() {}, warn() {}, error() {} };

describe('mailbox fetcher (IMAP)', () => {
  let t: TestApp;
  let dovecot: Dovecot;
  const fetchers: InboxFetcher[] = [];
  beforeAll(async () => {
    dovecot = await startDovecot();
    t = await buildMailApp('imap-test-key-0123456789', 10_000);
  });
  afterAll(async () => {
    for (const f of fetchers) await f.stop();
    await t.close();
    await dovecot.stop();
  });

  const fetcher = (handler?: InboxHandler, options = {}) => {
    const f = new InboxFetcher(t.db, dovecot.url, handler ?? inboxHandler(t.app.deps, t.app.attachmentStorage), quiet, {
      leaseMs: 1_500,
      pollMs: 300,
      ...options,
    });
    fetchers.push(f);
    return f;
  };
  const inboundCount = () => rowCount(t, 'inbound_mail');
  /** The environment of a server process fetching from the mailbox, on this file's database. */
  const fetchingServerEnv = () => ({
    ...t.env,
    MAIL_INBOX_URL: dovecot.url,
    MAIL_INBOX_LEASE_SECONDS: '2',
    MAIL_INBOUND_PER_SENDER_PER_HOUR: '10000',
    LOG_LEVEL: 'silent',
  });
  const newMail = (n: number, tag: string) =>
    message(
      {
        From: `sender.${tag}.${n}@client.example`,
        To: 'support@platform.local',
        Subject: `${tag} ${n}`,
        'Message-ID': `<${tag}.${n}@client.example>`,
      },
      `Ticket body number ${n} of ${tag}.`,
    );

  it('turns delivered replies into comments, flags them seen, and picks up new mail while idling', async () => {
    const { ticket, f } = await ticketMailFacts(t);
    await dovecot.deliver(...REPLIES.map((c) => c.raw(f, 1)));
    // A long poll: what arrives later can only be noticed through IDLE.
    const one = fetcher(undefined, { pollMs: 600_000 });
    one.start();
    try {
      await waitFor(
        'replies applied',
        async () => ((await inboundCount()) >= REPLIES.length ? true : undefined),
        20_000,
      );
      const comments = await t.db
        .selectFrom('ticket_comments')
        .select('message')
        .where('ticket_id', '=', ticket.id)
        .execute();
      expect(comments).toHaveLength(REPLIES.length);
      expect(comments[0]!.message).toBe('Thanks, that fixed it.');
      await waitFor(
        'flags',
        async () => ((await dovecot.messages()).every((m) => m.flags.includes('\\Seen')) ? true : undefined),
        10_000,
      );
      await dovecot.deliver(newMail(1, 'idle'));
      await waitFor(
        'idle pickup',
        async () => ((await inboundCount()) === REPLIES.length + 1 ? true : undefined),
        10_000,
      );
      const state = await t.db.selectFrom('mail_inbox_state').selectAll().executeTakeFirstOrThrow();
      const uids = (await dovecot.messages()).map((m) => m.uid);
      expect(state).toMatchObject({ mailbox: 'INBOX', last_uid: Math.max(...uids) });
    } finally {
      await one.stop();
    }
    expect(await leaseHolder(t.db, 'mail-inbox')).toBeUndefined();
  });

  it('leaves a message that keeps failing in the mailbox, counts it, and goes on with the rest', async () => {
    const counted: string[] = [];
    const real = inboxHandler(t.app.deps, t.app.attachmentStorage);
    const failing: InboxHandler = {
      ...real,
      async process(raw, place) {
        if (raw.toString().includes('FAIL-ME')) throw new Error('cannot process');
        await real.process(raw, place);
      },
    };
    const before = await inboundCount();
    await dovecot.deliver(newMail(1, 'FAIL-ME'), newMail(2, 'after'));
    const f = fetcher(failing, { count: (o: string) => counted.push(o) });
    f.start();
    try {
      await waitFor(
        'skip',
        async () => (counted.includes('skipped') && counted.includes('processed') ? true : undefined),
        20_000,
      );
    } finally {
      await f.stop();
    }
    expect(counted.filter((c) => c === 'failed')).toHaveLength(2);
    expect(await inboundCount()).toBe(before + 1);
    const flags = (await dovecot.messages()).map((m) => m.flags);
    expect(flags.some((fl) => fl.includes('$PlatformFailed') && !fl.includes('\\Seen'))).toBe(true);
  });

  it('lets one of two instances fetch; the other takes over when it stops, each message applied once', async () => {
    const a = fetcher();
    const b = fetcher();
    a.start();
    b.start();
    try {
      const before = await inboundCount();
      await dovecot.deliver(...Array.from({ length: 6 }, (_, i) => newMail(i, 'pair')));
      await waitFor('first six', async () => ((await inboundCount()) === before + 6 ? true : undefined), 20_000);
      const [active, standby] = a.processed > 0 ? [a, b] : [b, a];
      expect(standby.processed).toBe(0);
      expect(active.processed).toBe(6);
      await active.stop();
      await dovecot.deliver(...Array.from({ length: 4 }, (_, i) => newMail(i + 6, 'pair')));
      await waitFor('takeover', async () => ((await inboundCount()) === before + 10 ? true : undefined), 20_000);
      expect(standby.processed).toBe(4);
      const tickets = await t.db.selectFrom('tickets').select('subject').where('subject', 'like', 'pair %').execute();
      expect(tickets).toHaveLength(10);
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it('believes a From through the mailbox only when the trusted server vouches for it or it came to the signed address', async () => {
    const { ticket, f } = await ticketMailFacts(t);
    const pick = (name: string) => [...REPLIES, ...OTHERS].find((c) => c.name.startsWith(name))!;
    const cases = [
      pick('Apple Mail from an iPhone'),
      pick('reply to the signed address through a server that writes no verdict'),
      pick("forged From equal to the owner's with a stolen tracking code"),
      pick("forged From equal to the owner's answering the guessable thread root"),
      pick("forged From equal to the owner's with a fake trusted pass"),
      pick('to the signed reply address, but the trusted server says DMARC fail'),
      pick('forged From with a stolen tracking code is held for staff'),
    ];
    const raws = cases.map((c) => c.raw(f, 1));
    const ids = raws.map((raw) => /^Message-ID: (.+)$/m.exec(raw)![1]!.trim());
    const before = await inboundCount();
    await dovecot.deliver(...raws);
    const f1 = fetcher();
    f1.start();
    try {
      await waitFor(
        'all read',
        async () => ((await inboundCount()) === before + cases.length ? true : undefined),
        20_000,
      );
    } finally {
      await f1.stop();
    }
    const rows = await t.db
      .selectFrom('inbound_mail')
      .select(['message_id', 'status', 'reason', 'ticket_id'])
      .where('message_id', 'in', ids)
      .execute();
    const outcome = (id: string) => rows.find((r) => r.message_id === id);
    cases.forEach((c, i) => {
      expect(outcome(ids[i]!), c.name).toMatchObject({
        status: c.expected.status,
        ticket_id: ticket.id,
        ...(c.expected.reason ? { reason: c.expected.reason } : {}),
      });
    });
    const comments = await t.db
      .selectFrom('ticket_comments')
      .select('message')
      .where('ticket_id', '=', ticket.id)
      .execute();
    expect(comments.map((c) => c.message).sort()).toEqual(['Got it, thanks.', 'Sounds good, thank you.']);
    // The owner is told once that mail from their address was held, not once per forgery.
    const notices = await t.db
      .selectFrom('mail_outbox')
      .select(['to_address', 'text_body'])
      .where('ticket_id', '=', ticket.id)
      .where('text_body', 'like', '%could not confirm%')
      .execute();
    expect(notices).toEqual([{ to_address: f.owner, text_body: expect.stringContaining(ticket.tracking_code) }]);
  });

  it('two fetchers reading one mailbox at the same time apply each message once (its work arrives twice)', async () => {
    // Each has a lease of its own, as when a holder stalls past its lease and another takes over
    // while the first still has messages in hand: both read every message from the same position.
    const real = inboxHandler(t.app.deps, t.app.attachmentStorage);
    const arrived: Array<() => void> = [];
    const bothStarted = new Promise<void>((resolve) => {
      let n = 0;
      arrived.push(
        () => ++n === 2 && resolve(),
        () => ++n === 2 && resolve(),
      );
    });
    const racing = (i: number): InboxHandler => {
      let first = true;
      return {
        ...real,
        async process(raw, place) {
          if (first) {
            first = false;
            arrived[i]!();
            await bothStarted;
          }
          await real.process(raw, place);
        },
      };
    };
    const total = 20;
    const before = await inboundCount();
    await dovecot.deliver(...Array.from({ length: total }, (_, i) => newMail(i, 'race')));
    const a = fetcher(racing(0), { lease: 'race-a' });
    const b = fetcher(racing(1), { lease: 'race-b' });
    a.start();
    b.start();
    try {
      await waitFor(
        'both read all',
        async () => (a.processed === total && b.processed === total ? true : undefined),
        30_000,
      );
    } finally {
      await a.stop();
      await b.stop();
    }
    expect(await inboundCount()).toBe(before + total);
    const tickets = await t.db.selectFrom('tickets').select('subject').where('subject', 'like', 'race %').execute();
    expect(tickets).toHaveLength(total);
    expect(new Set(tickets.map((r) => r.subject)).size).toBe(total);
    // One confirmation per ticket: the side effects of a message happen once too.
    const confirmations = await t.db
      .selectFrom('mail_outbox')
      .select('to_address')
      .where('to_address', 'like', 'sender.race.%')
      .execute();
    expect(confirmations).toHaveLength(total);
    const state = await t.db.selectFrom('mail_inbox_state').selectAll().executeTakeFirstOrThrow();
    expect(state.last_uid).toBe(Math.max(...(await dovecot.messages()).map((m) => m.uid)));
  });

  it('reads the whole mailbox again after its UIDVALIDITY changed, and applies none of it twice', async () => {
    const real = await t.db.selectFrom('mail_inbox_state').selectAll().executeTakeFirstOrThrow();
    const recorded = async () =>
      (await t.db.selectFrom('inbound_mail').select('message_id').execute()).map((r) => r.message_id);
    const ticketCount = async () => (await t.db.selectFrom('tickets').select('id').execute()).length;
    const before = { ids: new Set(await recorded()), tickets: await ticketCount() };
    // As after the server rebuilt the mailbox: the UIDs recorded no longer mean the same messages.
    await t.db.updateTable('mail_inbox_state').set({ uid_validity: '1', last_uid: 999_999 }).execute();
    const counted: string[] = [];
    const f = fetcher(undefined, { count: (o: string) => counted.push(o) });
    f.start();
    try {
      await waitFor(
        'position back',
        async () => {
          const state = await t.db.selectFrom('mail_inbox_state').selectAll().executeTakeFirstOrThrow();
          return state.uid_validity === real.uid_validity && state.last_uid === real.last_uid ? true : undefined;
        },
        30_000,
      );
    } finally {
      await f.stop();
    }
    // Every message was handed over again, none passed over for the old position.
    expect(counted.filter((c) => c === 'processed')).toHaveLength((await dovecot.messages()).length);
    // Only a message never applied before (the one an earlier test's handler kept failing) is new.
    const added = (await recorded()).filter((id) => !before.ids.has(id));
    expect(added).toEqual(['<FAIL-ME.1@client.example>']);
    expect(await ticketCount()).toBe(before.tickets + 1);
  });

  it('two server processes on one mailbox: one fetches; killed mid-batch, the other takes over, each message once', async () => {
    const env = fetchingServerEnv();
    const total = 80;
    const before = await inboundCount();
    const servers = await Promise.all([
      launchServer({ env, timeoutMs: 240_000 }),
      launchServer({ env, timeoutMs: 240_000 }),
    ]);
    try {
      const delivering = dovecot.deliver(...Array.from({ length: total }, (_, i) => newMail(i, 'duo')));
      await waitFor('some applied', async () => ((await inboundCount()) >= before + 5 ? true : undefined), 60_000, 20);
      const holder = await waitFor('a holder', () => leaseHolder(t.db, 'mail-inbox'), 10_000, 20);
      const active = servers.find((s) => holder.startsWith(`${s.pid}-`))!;
      expect(active).toBeDefined();
      await active.kill();
      await delivering;
      expect((await inboundCount()) - before).toBeLessThan(total);
      const survivor = servers.find((s) => s !== active)!;
      await waitFor('all applied', async () => ((await inboundCount()) === before + total ? true : undefined), 90_000);
      expect((await leaseHolder(t.db, 'mail-inbox'))?.startsWith(`${survivor.pid}-`)).toBe(true);
    } finally {
      for (const s of servers) await s.stop();
    }
    const rows = await t.db.selectFrom('tickets').select('subject').where('subject', 'like', 'duo %').execute();
    expect(rows).toHaveLength(total);
    expect(new Set(rows.map((r) => r.subject)).size).toBe(total);
  }, 600_000);

  it('a server killed mid-batch loses and doubles nothing: the next one continues where the database says', async () => {
    const env = fetchingServerEnv();
    const before = await inboundCount();
    const total = 120;
    const first = await launchServer({ env, timeoutMs: 240_000 });
    // Delivered while the first server fetches, so it is killed with mail still coming and in hand.
    let delivering: Promise<void> = Promise.resolve();
    try {
      delivering = dovecot.deliver(...Array.from({ length: total }, (_, i) => newMail(i, 'crash')));
      await waitFor('some applied', async () => ((await inboundCount()) >= before + 10 ? true : undefined), 60_000, 20);
    } finally {
      await first.kill();
      await delivering;
    }
    const applied = (await inboundCount()) - before;
    expect(applied).toBeLessThan(total);
    const second = await launchServer({ env, timeoutMs: 240_000 });
    try {
      await waitFor('all applied', async () => ((await inboundCount()) === before + total ? true : undefined), 90_000);
    } finally {
      await second.stop();
    }
    const rows = await t.db.selectFrom('tickets').select('subject').where('subject', 'like', 'crash %').execute();
    expect(rows).toHaveLength(total);
    expect(new Set(rows.map((r) => r.subject)).size).toBe(total);
  }, 720_000);
});
