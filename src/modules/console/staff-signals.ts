// How an instance learns that a ticket, comment or note was written anywhere: on PostgreSQL the
// triggers of migration 202611251700 NOTIFY platform_staff at commit (LISTEN on a connection of
// its own, reconnecting when it drops, and reading again after a reconnect); on SQLite, a poll
// every NOTIFICATION_STREAM_POLL_MS while streams are open (the read after the cursors is the
// poll: three primary-key range reads).
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { StaffStreams } from './staff-stream.js';

export const STAFF_CHANNEL = 'platform_staff';
const RECONNECT_MS = 1_000;

export interface Signals {
  start(): Promise<void>;
  stop(): Promise<void>;
}

export class StaffPostgresSignals implements Signals {
  private client: pg.Client | undefined;
  private schema: string | undefined;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly connection: pg.ClientConfig,
    private readonly streams: StaffStreams,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client(this.connection);
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => {
      if (message.payload === this.schema) this.streams.changed();
    });
    this.client = client;
    await client.connect();
    const { rows } = await client.query<{ schema: string }>('select current_schema() as schema');
    this.schema = rows[0]!.schema;
    await client.query(`listen ${STAFF_CHANNEL}`);
  }

  private lost(client: pg.Client, err?: Error): void {
    if (this.stopped || client !== this.client) return;
    this.client = undefined;
    this.log.warn({ err }, 'staff stream: the PostgreSQL signal connection was lost; reconnecting');
    client.end().catch(() => {});
    this.reconnectSoon();
  }

  private reconnectSoon(): void {
    this.retry = setTimeout(() => {
      this.connect().then(
        // Signals may have been missed meanwhile: read what is new.
        () => this.streams.changed(),
        (err: unknown) => {
          this.log.warn({ err }, 'staff stream: cannot reconnect to PostgreSQL yet');
          this.client?.end().catch(() => {});
          this.client = undefined;
          if (!this.stopped) this.reconnectSoon();
        },
      );
    }, RECONNECT_MS);
    this.retry.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }
}

export class StaffPoll implements Signals {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly streams: StaffStreams,
    private readonly intervalMs: number,
  ) {}

  async start(): Promise<void> {
    this.timer = setInterval(() => this.streams.changed(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
  }
}
