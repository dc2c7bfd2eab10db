// A Server-Sent Events client for the tests, over a real socket (node:http): it parses the stream
// as EventSource does (event, id, data lines, comments, retry) and lets a test wait for the next
// event that matches. It keeps the raw text so the whole stream can be checked against the
// OpenAPI document at the end (test/helpers/contract.ts).
import http from 'node:http';

export interface SseEvent {
  event: string;
  id?: string;
  data: string;
  /** data parsed from JSON. */
  json: any;
}

export interface SseOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

export class SseClient {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  retry: number | undefined;
  raw = '';
  ended = false;
  private buffer = '';
  private waiters: Array<() => void> = [];
  private request: http.ClientRequest | undefined;
  /** Events handed out by next(); the next call looks after them. */
  private cursor = 0;

  constructor(readonly response: http.IncomingMessage) {}

  /** Opens the stream; resolves once the status and headers are in (any status: the test checks it). */
  static open(url: string, options: SseOptions = {}): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const req = http.request(
        url,
        { method: options.method ?? 'GET', headers: { accept: 'text/event-stream', ...options.headers } },
        (res) => {
          const client = new SseClient(res);
          client.request = req;
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => client.take(chunk));
          res.on('end', () => {
            client.ended = true;
            client.wake();
          });
          res.on('error', () => {
            client.ended = true;
            client.wake();
          });
          resolve(client);
        },
      );
      req.on('error', reject);
      if (options.body !== undefined) req.end(options.body);
      else req.end();
    });
  }

  get status(): number {
    return this.response.statusCode ?? 0;
  }

  private take(chunk: string): void {
    this.raw += chunk;
    this.buffer += chunk;
    for (let end = this.buffer.indexOf('\n\n'); end >= 0; end = this.buffer.indexOf('\n\n')) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const event: Partial<SseEvent> & { data?: string } = {};
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) this.comments.push(line.slice(1).trim());
        else if (line.startsWith('event: ')) event.event = line.slice(7);
        else if (line.startsWith('id: ')) event.id = line.slice(4);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
        else if (line.startsWith('retry: ')) this.retry = Number(line.slice(7));
      }
      if (data.length > 0) {
        const text = data.join('\n');
        this.events.push({ event: event.event ?? 'message', id: event.id, data: text, json: JSON.parse(text) });
      }
    }
    this.wake();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /** Resolves when `check` holds (checked at once and after every chunk), or rejects after timeoutMs. */
  async until(check: () => boolean, timeoutMs = 5_000, what = 'the condition'): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline)
        throw new Error(
          `timed out after ${timeoutMs} ms waiting for ${what}; events so far: ${JSON.stringify(this.events.map((e) => [e.event, e.data]))}`,
        );
      if (this.ended && !check())
        throw new Error(
          `the stream ended while waiting for ${what}; events: ${JSON.stringify(this.events.map((e) => [e.event, e.data]))}`,
        );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The next event not handed out yet (of this name, if given), waiting for it. */
  async next(name?: string, timeoutMs = 5_000): Promise<SseEvent> {
    let found: SseEvent | undefined;
    await this.until(
      () => {
        for (let i = this.cursor; i < this.events.length; i++) {
          if (name === undefined || this.events[i]!.event === name) {
            found = this.events[i];
            this.cursor = i + 1;
            return true;
          }
        }
        return false;
      },
      timeoutMs,
      `a ${name ?? 'any'} event`,
    );
    return found!;
  }

  /** Events received after those next() handed out, without waiting. */
  pending(): SseEvent[] {
    return this.events.slice(this.cursor);
  }

  /** The client goes away (closes its socket). */
  close(): void {
    this.request?.destroy();
    this.response.destroy();
  }

  /** The whole body once the server ended the stream. */
  async finished(timeoutMs = 5_000): Promise<string> {
    await this.until(() => this.ended, timeoutMs, 'the end of the stream');
    return this.raw;
  }
}
