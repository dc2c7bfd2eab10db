// How an instance's assistant follows the knowledge base edited anywhere (this instance, another
// one, the CLI): every write logs a change in its transaction (repository.recordChange), and each
// instance applies the changes after the last one it applied (knowledge-feed.applyChanges).
// - PostgreSQL: LISTEN on the kb channel, notified at commit, on a connection of its own; a lost
//   connection is opened again and the log read, as notifications may have been missed meanwhile.
// - SQLite: no channel crosses processes, so the log is read every KB_POLL_MS (one indexed read).
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type pg from 'pg';
import { ChannelListener } from '../../db/channel-listener.js';
import type { Database } from '../../db/schema.js';
import type { PassageSource } from '../assistant/knowledge.js';
import { applyChanges } from './knowledge-feed.js';
import { KB_CHANNEL } from './repository.js';

/** How often an instance on SQLite reads the change log: well inside the 2 s an edit may take to reach it. */
export const KB_POLL_MS = 500;

export class KnowledgeWatch {
  private seen: number;
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private listener: ChannelListener | undefined;
  private stopped = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly index: PassageSource,
    seen: number,
    private readonly log: FastifyBaseLogger,
    private readonly connection?: pg.ClientConfig,
  ) {
    this.seen = seen;
  }

  /** The last change this instance's index holds. */
  get applied(): number {
    return this.seen;
  }

  /** Reads the log now (once more after the current read when one is running). */
  catchUp(): Promise<void> {
    if (this.running !== undefined) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          this.seen = await applyChanges(this.db, this.index, this.seen);
        } catch (err) {
          this.log.warn({ err }, 'knowledge base: cannot read the change log; trying again at the next signal');
        }
      } while (this.again && !this.stopped);
      this.running = undefined;
    })();
    return this.running;
  }

  async start(): Promise<void> {
    if (this.connection) {
      this.listener = new ChannelListener({
        connection: this.connection,
        channel: KB_CHANNEL,
        label: 'knowledge base',
        log: this.log,
        onNotify: (payload, schema) => {
          if (payload.split(' ')[0] === schema) void this.catchUp();
        },
        onReconnect: () => void this.catchUp(),
      });
      await this.listener.start();
    } else {
      this.timer = setInterval(() => void this.catchUp(), KB_POLL_MS);
      this.timer.unref();
    }
    await this.catchUp();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.listener?.stop();
    await this.running;
  }
}
