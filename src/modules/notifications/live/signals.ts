// How an instance learns that a user's notifications changed, whoever changed them (this instance,
// another one, the CLI, SQL typed by an operator):
// - PostgreSQL: LISTEN on the channel the answer_versions trigger of migration 202611240200
//   notifies at commit ("<schema> <user id>"), on one connection of its own. When that connection
//   drops, it reconnects and every open stream is checked again (signals may have been missed).
// - SQLite: no channel crosses processes, so while streams are open the instance reads their
//   users' notifications versions (one indexed read per 500 users) every NOTIFICATION_STREAM_POLL_MS.
// Why not Redis pub/sub: the CLI and SQL writes would have to publish too, and a publish is not
// tied to the commit; the trigger sees every writer and fires only for committed changes.
import type pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { ChannelListener } from '../../../db/channel-listener.js';
import type { Database } from '../../../db/schema.js';
import { notificationVersions } from '../stream-repository.js';
import type { NotificationStreams } from './streams.js';

/** The channel of migration 202611240200's trigger. */
export const NOTIFICATION_CHANNEL = 'platform_notifications';

export interface ChangeSignals {
  start(): Promise<void>;
  stop(): Promise<void>;
}

export class PostgresSignals implements ChangeSignals {
  private readonly listener: ChannelListener;

  constructor(connection: pg.ClientConfig, streams: NotificationStreams, log: FastifyBaseLogger) {
    this.listener = new ChannelListener({
      connection,
      channel: NOTIFICATION_CHANNEL,
      label: 'notification streams',
      log,
      onNotify: (payload, schema) => {
        const [from, id] = payload.split(' ');
        const userId = Number(id);
        if (from === schema && Number.isSafeInteger(userId)) streams.changed(userId);
      },
      onReconnect: () => streams.changedAll(),
    });
  }

  start(): Promise<void> {
    return this.listener.start();
  }

  stop(): Promise<void> {
    return this.listener.stop();
  }
}

export class SqlitePoll implements ChangeSignals {
  private readonly seen = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;
  private polling = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly streams: NotificationStreams,
    private readonly intervalMs: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start(): Promise<void> {
    this.timer = setInterval(() => void this.poll(), this.intervalMs);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    const users = this.streams.users();
    if (users.length === 0) {
      this.seen.clear();
      return;
    }
    if (this.polling) return;
    this.polling = true;
    try {
      const versions = await notificationVersions(this.db, users);
      const watched = new Set(users);
      for (const userId of this.seen.keys()) if (!watched.has(userId)) this.seen.delete(userId);
      for (const userId of users) {
        const version = versions.get(userId) ?? 0;
        const before = this.seen.get(userId);
        this.seen.set(userId, version);
        // First sight: the stream's own start read may have raced a change; a check costs one read.
        if (before === undefined) this.streams.check(userId);
        else if (before !== version) this.streams.changed(userId);
      }
    } catch (err) {
      this.log.warn({ err }, 'notification streams: cannot read the notifications versions');
    } finally {
      this.polling = false;
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
  }
}
