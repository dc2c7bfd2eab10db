// The open notification streams of this instance (GET /api/notifications/stream) and what they
// are sent. A stream never receives a change itself: a signal says only "user N's notifications
// changed" (PostgreSQL NOTIFY or the SQLite poll, live/signals.ts), and the user's streams then
// read from the database what is new after their cursor and the unread count. So a signal can be
// lost, repeated or merged without a stream missing or doubling a notification, and what a stream
// sends is what GET /api/notifications would show.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { eventText } from '../../../http/event-stream.js';
import { countUnread, UNREAD_LIST_LIMIT, type NotificationRecord } from '../repository.js';
import { latestCursor, ownsCursor, unreadAfter } from '../stream-repository.js';

/** Where a stream's bytes go (the HTTP response); the hub knows nothing of HTTP. */
export interface StreamSink {
  write(text: string): void;
  /** Bytes written but not yet taken by the client. */
  backlog(): number;
  end(): void;
}

/** A client that leaves this much unread in its socket is cut off; it reconnects with Last-Event-ID. */
const MAX_BACKLOG_BYTES = 1_048_576;

export class NotificationStream {
  /** The cursor (notification seq) of the last notification sent; undefined until the first read. */
  cursor: number | undefined;
  /** The unread count last sent; undefined until the first. */
  count: number | undefined;
  closed = false;

  constructor(
    readonly userId: number,
    private readonly sink: StreamSink,
    readonly serialize: (notification: NotificationRecord) => string,
    /** Last-Event-ID of a reconnect, to be checked against the user's notifications. */
    readonly resumeFrom: number | undefined,
  ) {}

  send(event: string, data: string, id?: number): void {
    if (this.closed) return;
    this.sink.write(eventText(event, data, id));
  }

  comment(text: string): void {
    if (!this.closed) this.sink.write(`: ${text}\n\n`);
  }

  get backlog(): number {
    return this.sink.backlog();
  }

  end(): void {
    if (this.closed) return;
    this.closed = true;
    this.sink.end();
  }
}

export interface StreamsOptions {
  perUser: number;
  heartbeatMs: number;
  log: FastifyBaseLogger;
  /** Called with +1 or -1 as streams open and close (the metrics gauge). */
  onCount?: (delta: number) => void;
}

interface Work {
  again: boolean;
  changed: boolean;
}

export class NotificationStreams {
  private readonly byUser = new Map<number, Set<NotificationStream>>();
  private readonly work = new Map<number, Work>();
  private readonly heartbeat: NodeJS.Timeout;
  private total = 0;
  private closing = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: StreamsOptions,
  ) {
    this.heartbeat = setInterval(() => this.beat(), options.heartbeatMs);
    this.heartbeat.unref();
  }

  get open(): number {
    return this.total;
  }

  /** Whether the user may open one more stream (below the cap). */
  accepts(userId: number): boolean {
    return (this.byUser.get(userId)?.size ?? 0) < this.options.perUser;
  }

  /** True once the instance began shutting down: no stream opens any more. */
  get closed(): boolean {
    return this.closing;
  }

  /** The users with at least one open stream (what the SQLite poll watches). */
  users(): number[] {
    return [...this.byUser.keys()];
  }

  /**
   * Registers a stream and starts it (unread count, then what a reconnect missed); undefined when
   * the user already holds the most streams allowed, or the instance is shutting down.
   */
  add(
    userId: number,
    sink: StreamSink,
    serialize: (n: NotificationRecord) => string,
    resumeFrom?: number,
  ): NotificationStream | undefined {
    if (this.closing || !this.accepts(userId)) return undefined;
    let streams = this.byUser.get(userId);
    if (!streams) {
      streams = new Set();
      this.byUser.set(userId, streams);
    }
    const stream = new NotificationStream(userId, sink, serialize, resumeFrom);
    streams.add(stream);
    this.total++;
    this.options.onCount?.(1);
    this.schedule(userId, false);
    return stream;
  }

  /** Forgets a stream whose client went away (or that was ended). */
  close(stream: NotificationStream): void {
    const streams = this.byUser.get(stream.userId);
    if (!streams?.delete(stream)) return;
    if (streams.size === 0) this.byUser.delete(stream.userId);
    this.total--;
    this.options.onCount?.(-1);
    stream.end();
  }

  /** A signal: the user's notifications changed (new, read, deleted) somewhere. */
  changed(userId: number): void {
    this.schedule(userId, true);
  }

  /** Signals may have been lost (the signal connection dropped): every user is checked again. */
  changedAll(): void {
    for (const userId of this.byUser.keys()) this.schedule(userId, true);
  }

  /** A look without a known change (a user the SQLite poll sees for the first time). */
  check(userId: number): void {
    this.schedule(userId, false);
  }

  /** Ends every stream (shutdown): each client reconnects, to another instance if this one is gone. */
  closeAll(): void {
    this.closing = true;
    clearInterval(this.heartbeat);
    for (const streams of [...this.byUser.values()]) for (const stream of [...streams]) this.close(stream);
  }

  /** Runs one refresh per user at a time; signals arriving meanwhile make one more run. */
  private schedule(userId: number, changed: boolean): void {
    if (!this.byUser.has(userId)) return;
    const pending = this.work.get(userId);
    if (pending) {
      pending.again = true;
      pending.changed ||= changed;
      return;
    }
    const work: Work = { again: false, changed: false };
    this.work.set(userId, work);
    void this.run(userId, changed, work);
  }

  private async run(userId: number, changed: boolean, work: Work): Promise<void> {
    for (;;) {
      try {
        await this.refresh(userId, changed);
      } catch (err) {
        // The database is away: the streams stay open and the next signal tries again.
        this.options.log.warn({ err, userId }, 'notification stream: cannot read the changes');
      }
      if (!work.again) break;
      changed = work.changed;
      work.again = false;
      work.changed = false;
    }
    this.work.delete(userId);
  }

  private async refresh(userId: number, changed: boolean): Promise<void> {
    const streams = [...(this.byUser.get(userId) ?? [])];
    if (streams.length === 0) return;
    const starting = streams.filter((s) => s.cursor === undefined);
    if (starting.length > 0) {
      const latest = await latestCursor(this.db, userId);
      for (const stream of starting) {
        const resume = stream.resumeFrom;
        // An unknown or foreign cursor is ignored: the stream starts from now.
        stream.cursor =
          resume !== undefined && resume < latest && (await ownsCursor(this.db, userId, resume)) ? resume : latest;
      }
    }
    // A change committed while this runs raises another signal, which makes one more run.
    const count = await countUnread(this.db, userId);
    for (const stream of starting) {
      stream.count = count;
      stream.send('unread_count', JSON.stringify({ count }));
    }
    let from = Math.min(...streams.map((s) => s.cursor!));
    for (;;) {
      const page = await unreadAfter(this.db, userId, from);
      for (const stream of streams) {
        for (const { seq, notification } of page) {
          if (seq <= stream.cursor!) continue;
          stream.send('notification', stream.serialize(notification), seq);
          stream.cursor = seq;
        }
      }
      if (page.length < UNREAD_LIST_LIMIT) break;
      from = page[page.length - 1]!.seq;
    }
    for (const stream of streams) {
      if (!starting.includes(stream) && (changed || stream.count !== count)) {
        stream.count = count;
        stream.send('unread_count', JSON.stringify({ count }));
      }
      if (stream.backlog > MAX_BACKLOG_BYTES) this.close(stream);
    }
  }

  private beat(): void {
    for (const streams of this.byUser.values()) {
      for (const stream of [...streams]) {
        if (stream.backlog > MAX_BACKLOG_BYTES) this.close(stream);
        else stream.comment('heartbeat');
      }
    }
  }
}
