// How an instance learns that a ticket, comment or note was written anywhere: on PostgreSQL the
// triggers of migration 202611251700 NOTIFY platform_staff at commit (LISTEN on a connection of
// its own, reconnecting when it drops, and reading again after a reconnect); on SQLite, a poll
// every NOTIFICATION_STREAM_POLL_MS while streams are open (the read after the cursors is the
// poll: three primary-key range reads).
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { ChannelListener } from '../../db/channel-listener.js';
import type { StaffStreams } from './staff-stream.js';

export const STAFF_CHANNEL = 'platform_staff';

export interface Signals {
  start(): Promise<void>;
  stop(): Promise<void>;
}

export class StaffPostgresSignals implements Signals {
  private readonly listener: ChannelListener;

  constructor(connection: pg.ClientConfig, streams: StaffStreams, log: FastifyBaseLogger) {
    this.listener = new ChannelListener({
      connection,
      channel: STAFF_CHANNEL,
      label: 'staff stream',
      log,
      onNotify: (payload, schema) => {
        if (payload === schema) streams.changed();
      },
      onReconnect: () => streams.changed(),
    });
  }

  start(): Promise<void> {
    return this.listener.start();
  }

  stop(): Promise<void> {
    return this.listener.stop();
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
