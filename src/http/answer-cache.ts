// Answers (response bodies) kept in memory with the version of the data they were built from: a
// counter in the database that every change to that data raises in the change's transaction. An
// answer is reused only while the counter read for the request is the one it was built at, so a
// change made by any instance or by the CLI is seen on the next request, and, for answers that
// also depend on the clock, only until the moment they were built to expire. Least recently used
// answers are dropped once their bytes pass the budget. Used by GET /api/notifications (per user)
// and GET /api/tickets (per user and query) and /stats (per user).

interface Entry {
  version: number;
  body: Buffer;
  /** Epoch ms from which the answer is out of date whatever the version (Infinity: never). */
  validUntil: number;
}

export class AnswerCache<K> {
  private readonly entries = new Map<K, Entry>();
  private bytes = 0;

  /** maxBytes 0 turns the cache off. */
  constructor(private readonly maxBytes: number) {}

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  /**
   * The answer for `key`: the one held when `readVersion` gives the version it was built at and it
   * has not expired, otherwise the one `build` makes, kept with that version and the expiry
   * `build` names (none: until the version moves). With the cache off the version is not read;
   * an answer whose version is unknown (undefined) is built and not kept.
   */
  async answer(
    key: K,
    readVersion: () => Promise<number | undefined>,
    build: (now: number) => Promise<{ body: Buffer; validUntil?: number }>,
  ): Promise<Buffer> {
    const version = this.enabled ? await readVersion() : undefined;
    const now = Date.now();
    const held = version === undefined ? undefined : this.get(key, version, now);
    if (held) return held;
    const { body, validUntil } = await build(now);
    if (version !== undefined) this.set(key, version, body, validUntil);
    return body;
  }

  /** The answer built at this version, if it is still held and still valid at `now`. */
  get(key: K, version: number, now = Date.now()): Buffer | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.version !== version) return undefined;
    if (!(now < entry.validUntil)) {
      this.remove(key, entry);
      return undefined;
    }
    // Most recently used last: Map keeps insertion order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.body;
  }

  /** Keeps the answer unless a newer version is already held (two requests raced). */
  set(key: K, version: number, body: Buffer, validUntil = Number.POSITIVE_INFINITY): void {
    if (body.length > this.maxBytes) return;
    const held = this.entries.get(key);
    if (held) {
      if (held.version > version) return;
      this.remove(key, held);
    }
    this.entries.set(key, { version, body, validUntil });
    this.bytes += body.length;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(oldest, entry);
    }
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  private remove(key: K, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.body.length;
  }
}

/**
 * The reuse key of an answer: what it is, whose it is, and the validated request values it was
 * built from (filters, page), every key of them in a fixed order. Built from the values object
 * itself, never from a list of its fields, so a filter added to a route is part of the key.
 */
export function answerKey(kind: string, callerId: number, values: object): string {
  const canonical = (value: unknown): unknown =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.keys(value)
          .sort()
          .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
          .map((k) => [k, canonical((value as Record<string, unknown>)[k])])
      : value;
  return JSON.stringify([kind, callerId, canonical(values)]);
}
