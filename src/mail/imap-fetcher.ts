// The mailbox fetcher: one instance at a time (a lease in the database, taken over when its holder
// stops) reads the messages of MAIL_INBOX_URL's mailbox past the last processed UID, hands each to
// the handler (which records the message and the new position in one transaction), then flags it
// \Seen. It waits for new mail with IDLE (imapflow idles on its own while nothing else is asked),
// and looks again every pollMs as a fallback. A message whose handling fails stays in the mailbox
// unflagged and is tried again; after maxAttempts the fetcher moves past it (flagged
// $PlatformFailed, never deleted) so one broken message cannot stop the rest.
import { randomBytes } from 'node:crypto';
import type { ImapFlow } from 'imapflow';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { releaseLease, takeLease } from './lease-query.js';

export interface MailboxPlace {
  mailbox: string;
  uidValidity: string;
  uid: number;
}

export interface InboxHandler {
  /** The position the handler last recorded in this mailbox, or undefined. */
  position(mailbox: string): Promise<{ uidValidity: string; lastUid: number } | undefined>;
  /** Processes one message and records place in the same transaction; throws when it could not. */
  process(raw: Buffer, place: MailboxPlace): Promise<void>;
  /** Records the position past a message given up on. */
  skip(place: MailboxPlace): Promise<void>;
}

export interface FetcherLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface FetcherOptions {
  leaseMs: number;
  pollMs: number;
  maxAttempts: number;
  /** The lease's name: fetchers of one mailbox share it, so only one of them fetches at a time. */
  lease: string;
  /** Called per message with processed, failed or skipped (the metric). */
  count?: (outcome: 'processed' | 'failed' | 'skipped') => void;
}

export const INBOX_LEASE = 'mail-inbox';
const DEFAULTS: FetcherOptions = { leaseMs: 30_000, pollMs: 60_000, maxAttempts: 3, lease: INBOX_LEASE };

export class InboxFetcher {
  readonly holder = `${process.pid}-${randomBytes(4).toString('hex')}`;
  private readonly options: FetcherOptions;
  private stopped = true;
  private loop: Promise<void> | undefined;
  private client: ImapFlow | undefined;
  private wake: (() => void) | undefined;
  /** New mail was announced (EXISTS) while the fetcher was busy: look again before waiting. */
  private announced = false;
  private readonly attempts = new Map<number, number>();
  /** Messages handled by this instance (for tests and logs). */
  processed = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly url: string,
    private readonly handler: InboxHandler,
    private readonly log: FetcherLog,
    options: Partial<FetcherOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  get mailbox(): string {
    return decodeURIComponent(new URL(this.url).pathname.replace(/^\/+/, '')) || 'INBOX';
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.client?.logout().catch(() => undefined);
    await this.loop;
    await releaseLease(this.db, this.options.lease, this.holder).catch(() => undefined);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      try {
        if (!(await takeLease(this.db, this.options.lease, this.holder, this.options.leaseMs))) {
          await this.sleep(this.options.leaseMs / 3);
          continue;
        }
        await this.session();
        failures = 0;
      } catch (err) {
        if (this.stopped) break;
        failures++;
        this.log.warn({ err }, 'mail inbox session failed');
        await this.sleep(Math.min(30_000, 500 * 2 ** Math.min(failures, 6)));
      }
    }
  }

  /** One connection: fetch what is new, then wait for more, while this instance holds the lease. */
  private async session(): Promise<void> {
    const url = new URL(this.url);
    // Loaded by the instance that fetches, when it first does.
    const { ImapFlow } = await import('imapflow');
    const client = new ImapFlow({
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: Number(url.port) || (url.protocol === 'imaps:' ? 993 : 143),
      secure: url.protocol === 'imaps:',
      auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) },
      logger: false,
      // IDLE soon after each fetch, so the server announces new mail at once.
      autoIdleDelay: 500,
    });
    this.client = client;
    let holding = true;
    const renew = setInterval(() => {
      takeLease(this.db, this.options.lease, this.holder, this.options.leaseMs)
        .then((held) => {
          if (!held) holding = false;
        })
        .catch(() => (holding = false))
        .finally(() => {
          if (!holding) this.wake?.();
        });
    }, this.options.leaseMs / 3);
    client.on('exists', () => {
      this.announced = true;
      this.wake?.();
    });
    client.on('error', (err: unknown) => this.log.warn({ err }, 'mail inbox connection error'));
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    try {
      await client.connect();
      await client.mailboxOpen(this.mailbox);
      while (!this.stopped && holding && client.usable) {
        this.announced = false;
        await this.fetchNew(client, () => holding);
        if (!this.announced) await Promise.race([this.sleep(this.options.pollMs), closed]);
      }
    } finally {
      clearInterval(renew);
      this.client = undefined;
      if (client.usable) await client.logout().catch(() => undefined);
      if (!holding) this.log.info({ holder: this.holder }, 'mail inbox lease lost; another instance fetches');
    }
  }

  private async fetchNew(client: ImapFlow, holding: () => boolean): Promise<void> {
    const mailbox = this.mailbox;
    const box = client.mailbox;
    if (!box) return;
    const uidValidity = String(box.uidValidity);
    const position = await this.handler.position(mailbox);
    const last = position?.uidValidity === uidValidity ? position.lastUid : 0;
    const found = await client.search({ uid: `${last + 1}:*` }, { uid: true });
    const uids = (found || []).filter((uid) => uid > last).sort((a, b) => a - b);
    for (const uid of uids) {
      if (this.stopped || !holding()) return;
      const place = { mailbox, uidValidity, uid };
      const message = await client.fetchOne(String(uid), { source: true }, { uid: true });
      if (message === false || message.source === undefined) continue;
      try {
        await this.handler.process(message.source, place);
      } catch (err) {
        const attempts = (this.attempts.get(uid) ?? 0) + 1;
        this.attempts.set(uid, attempts);
        this.log.error({ err, uid, attempts }, 'mail inbox message failed; it stays in the mailbox');
        if (attempts < this.options.maxAttempts) {
          this.options.count?.('failed');
          return;
        }
        await this.handler.skip(place);
        await client.messageFlagsAdd(String(uid), ['$PlatformFailed'], { uid: true });
        this.options.count?.('skipped');
        continue;
      }
      this.attempts.delete(uid);
      this.processed++;
      this.options.count?.('processed');
      await client.messageFlagsAdd(String(uid), ['\\Seen'], { uid: true });
    }
  }
}
