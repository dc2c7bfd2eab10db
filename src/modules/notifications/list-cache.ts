// The last GET /api/notifications answer built for each user, kept with the notifications version
// it was built at (users.notifications_version, raised by every change in the change's
// transaction). An answer is reused only while the stored version is unchanged, so a change made
// by any instance or by the CLI is seen on the next request. Clients poll this list far more often
// than it changes; a reused answer costs one primary-key read instead of reading up to 100 rows.
// Least recently used answers are dropped once their bytes pass the configured budget.

interface Entry {
  version: number;
  body: Buffer;
}

export class UnreadListCache {
  private readonly entries = new Map<number, Entry>();
  private bytes = 0;

  /** maxBytes 0 turns the cache off. */
  constructor(private readonly maxBytes: number) {}

  /** The answer built at this version, if it is still held. */
  get(userId: number, version: number): Buffer | undefined {
    const entry = this.entries.get(userId);
    if (!entry || entry.version !== version) return undefined;
    // Most recently used last: Map keeps insertion order.
    this.entries.delete(userId);
    this.entries.set(userId, entry);
    return entry.body;
  }

  /** Keeps the answer unless a newer version is already held (two requests raced). */
  set(userId: number, version: number, body: Buffer): void {
    if (body.length > this.maxBytes) return;
    const held = this.entries.get(userId);
    if (held) {
      if (held.version > version) return;
      this.entries.delete(userId);
      this.bytes -= held.body.length;
    }
    this.entries.set(userId, { version, body });
    this.bytes += body.length;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.body.length;
    }
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }
}
