// The open staff streams of this instance (GET /api/admin/stream) and what they are sent: new
// tickets and new comments and notes, whoever wrote them, on any instance. As with the
// notification streams, a signal carries no data: it says only "something was written" (a
// PostgreSQL NOTIFY at commit, or the SQLite poll), and the hub then reads what is new after its
// cursors and sends it to every stream. A lost, repeated or merged signal costs nothing.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { eventText } from '../../http/event-stream.js';
import * as repo from './live-query.js';

export interface StaffSink {
  userId: number;
  write(text: string): void;
  end(): void;
}

const BATCH = 200;

export class StaffStreams {
  private readonly sinks = new Set<StaffSink>();
  private cursors: repo.Cursors | undefined;
  private reading = false;
  private again = false;
  private readonly heartbeat: NodeJS.Timeout;
  closed = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly perUser: number,
    heartbeatMs: number,
    private readonly log: FastifyBaseLogger,
  ) {
    this.heartbeat = setInterval(() => this.broadcast(': heartbeat\n\n'), heartbeatMs);
    this.heartbeat.unref();
  }

  get open(): number {
    return this.sinks.size;
  }

  accepts(userId: number): boolean {
    let count = 0;
    for (const sink of this.sinks) if (sink.userId === userId) count++;
    return !this.closed && count < this.perUser;
  }

  /** Adds a stream; it gets what is written from now on. */
  async add(sink: StaffSink): Promise<void> {
    if (!this.cursors) this.cursors = await repo.latestIds(this.db);
    this.sinks.add(sink);
  }

  remove(sink: StaffSink): void {
    this.sinks.delete(sink);
    // Without streams the cursors would go stale: the next stream starts from the newest rows.
    if (this.sinks.size === 0) this.cursors = undefined;
  }

  /** Something was written: read what is new (once at a time; a signal meanwhile reads again after). */
  changed(): void {
    if (this.sinks.size === 0 || !this.cursors) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    void this.readNew()
      .catch((err: unknown) => this.log.warn({ err }, 'staff stream: cannot read what is new'))
      .finally(() => {
        this.reading = false;
        if (this.again) {
          this.again = false;
          this.changed();
        }
      });
  }

  private async readNew(): Promise<void> {
    for (let more = true; more && this.cursors; ) {
      const at = this.cursors;
      const [tickets, comments, notes] = await Promise.all([
        repo.ticketsAfter(this.db, at.ticket, BATCH),
        repo.commentsAfter(this.db, at.comment, BATCH),
        repo.notesAfter(this.db, at.note, BATCH),
      ]);
      for (const t of tickets) {
        const data = {
          id: t.id,
          tracking_code: t.tracking_code,
          subject: t.subject,
          priority: t.priority,
          status: t.status,
        };
        this.broadcast(eventText('ticket_created', JSON.stringify(data)));
      }
      for (const c of comments) {
        const kind = c.is_staff ? 'staff' : 'member';
        this.broadcast(eventText('comment_added', JSON.stringify({ ticket_id: c.ticket_id, comment_id: c.id, kind })));
      }
      for (const n of notes)
        this.broadcast(
          eventText('comment_added', JSON.stringify({ ticket_id: n.ticket_id, comment_id: n.id, kind: 'note' })),
        );
      if (!this.cursors) return;
      this.cursors = {
        ticket: tickets.at(-1)?.id ?? at.ticket,
        comment: comments.at(-1)?.id ?? at.comment,
        note: notes.at(-1)?.id ?? at.note,
      };
      more = tickets.length === BATCH || comments.length === BATCH || notes.length === BATCH;
    }
  }

  private broadcast(text: string): void {
    for (const sink of this.sinks) sink.write(text);
  }

  closeAll(): void {
    this.closed = true;
    clearInterval(this.heartbeat);
    for (const sink of this.sinks) sink.end();
    this.sinks.clear();
  }
}
