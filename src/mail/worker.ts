// The background sender: runs drainOutbox every pollMs, one cycle at a time, until stopped.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { drainOutbox, type OutboxOptions } from './outbox.js';
import type { MailTransport } from './transport.js';

export interface MailWorkerLog {
  warn(obj: object, msg: string): void;
}

export class MailWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = true;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly transport: MailTransport,
    private readonly from: string,
    private readonly log: MailWorkerLog,
    private readonly pollMs = 2_000,
    private readonly options: Partial<OutboxOptions> = {},
    private readonly stopWaitMs = 3_000,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = drainOutbox(this.db, this.transport, this.from, this.options)
        .catch((err: unknown) => this.log.warn({ err }, 'mail outbox cycle failed'))
        .finally(() => {
          this.running = undefined;
          this.schedule(this.pollMs);
        });
    }, delay);
    this.timer.unref();
  }

  /**
   * Stops polling and waits for a cycle in progress to finish, but at most stopWaitMs: a send stuck
   * on a mail server that does not answer must not hold up the shutdown. Its mail stays pending and
   * claimed; once the claim expires (lockMs) any instance sends it.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.running !== undefined) {
      let timer: NodeJS.Timeout | undefined;
      const gaveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.stopWaitMs)));
      await Promise.race([this.running, gaveUp]);
      clearTimeout(timer);
    }
    this.transport.close();
  }
}
