// The number of requests the HTTP server holds open, for the http_requests_in_flight gauge.
//
// Counted at the server, not in Fastify's hooks: a route's onRequest hook runs after the app-wide
// ones, so a request refused before it (401 from the auth hook, 404, 405, 413, 415, 429) was never
// counted but its onResponse still subtracted; and onResponse runs on 'finish' only, which an answer
// cut short by the client or a hijacked stream (SSE) may never reach. Every request handed to
// Fastify adds one, and its response's 'close' event, which Node emits exactly once whether the
// answer ended, failed or the client went away, takes it off again. Prepared answers
// (prepared-answers.ts) are written in the same tick and never counted.
import type { ServerResponse } from 'node:http';

export class RequestsInFlight {
  private open = 0;
  private readonly release = () => {
    this.open--;
  };

  /** Counts this request until its response closes. */
  track(res: ServerResponse): void {
    this.open++;
    res.once('close', this.release);
  }

  /** True when this response is being counted (read by the scrape, never per request). */
  counts(res: ServerResponse): boolean {
    return res.listeners('close').includes(this.release);
  }

  get count(): number {
    return this.open;
  }
}
