// LISTEN on one PostgreSQL channel over a connection of its own, for the instances to learn of
// commits made anywhere (triggers NOTIFY at commit). The payloads are checked against the
// connection's schema by the caller. When the connection drops it reconnects every RECONNECT_MS
// and then calls onReconnect, because notifications sent meanwhile are lost.
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { pgDriver } from './pg.js';

const RECONNECT_MS = 1_000;

export interface ChannelListenerOptions {
  connection: pg.ClientConfig;
  channel: string;
  /** Names the listener in log lines: "notification streams", "staff stream". */
  label: string;
  log: FastifyBaseLogger;
  /** A notification's payload, with the schema this connection works in. */
  onNotify: (payload: string, schema: string | undefined) => void;
  /** After a reconnect: read again what may have been missed. */
  onReconnect: () => void;
}

export class ChannelListener {
  private client: pg.Client | undefined;
  private schema: string | undefined;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(private readonly options: ChannelListenerOptions) {}

  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    const client = new (pgDriver().Client)(this.options.connection);
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => this.options.onNotify(message.payload ?? '', this.schema));
    this.client = client;
    await client.connect();
    const { rows } = await client.query<{ schema: string }>('select current_schema() as schema');
    this.schema = rows[0]!.schema;
    await client.query(`listen ${this.options.channel}`);
  }

  private lost(client: pg.Client, err?: Error): void {
    if (this.stopped || client !== this.client) return;
    this.client = undefined;
    this.options.log.warn({ err }, `${this.options.label}: the PostgreSQL signal connection was lost; reconnecting`);
    client.end().catch(() => {});
    this.reconnectSoon();
  }

  private reconnectSoon(): void {
    this.retry = setTimeout(() => {
      this.connect().then(
        () => this.options.onReconnect(),
        (err: unknown) => {
          this.options.log.warn({ err }, `${this.options.label}: cannot reconnect to PostgreSQL yet`);
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
