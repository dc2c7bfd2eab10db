// How an instance's assistant follows the knowledge base edited anywhere (this instance, another
// one, the CLI): every write logs a change in its transaction (repository.recordChange), and each
// instance applies the changes after the last one it applied (knowledge-feed.applyChanges).
// - PostgreSQL: LISTEN on the kb channel, notified at commit, on a connection of its own; a lost
//   connection is opened again and the log read, as notifications may have been missed meanwhile.
// - SQLite: no channel crosses processes, so the log is read every KB_POLL_MS (one indexed read).
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import pg from 'pg';
import type { Database } from '../../db/schema.js';
import type { PassageSource } from '../assistant/knowledge.js';
import { applyChanges } from './knowledge-feed.js';
import { KB_CHANNEL } from './repository.js';

/** How often an instance on SQLite reads the change log: well inside the 2 s an edit may take to reach it. */
export const KB_POLL_MS = 500;
const RECONNECT_MS = 1_000;

export class KnowledgeWatch {
  private seen: number;
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private client: pg.Client | undefined;
  private schema: string | undefined;
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
    if (this.connection) await this.listen();
    else {
      this.timer = setInterval(() => void this.catchUp(), KB_POLL_MS);
      this.timer.unref();
    }
    await this.catchUp();
  }

  private async listen(): Promise<void> {
    const client = new pg.Client(this.connection);
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => {
      if ((message.payload ?? '').split(' ')[0] === this.schema) void this.catchUp();
    });
    this.client = client;
    await client.connect();
    const { rows } = await client.query<{ schema: string }>('select current_schema() as schema');
    this.schema = rows[0]!.schema;
    await client.query(`listen ${KB_CHANNEL}`);
  }

  private lost(client: pg.Client, err?: Error): void {
    if (this.stopped || client !== this.client) return;
    this.client = undefined;
    this.log.warn({ err }, 'knowledge base: the PostgreSQL signal connection was lost; reconnecting');
    client.end().catch(() => {});
    this.timer = setTimeout(() => {
      this.listen().then(
        () => this.catchUp(),
        () => this.lost(this.client ?? client),
      );
    }, RECONNECT_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
    await this.running;
  }
}
