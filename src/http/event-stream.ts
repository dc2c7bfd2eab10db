// Server-Sent Events at the HTTP edge, for every route that answers as a stream (the notification
// stream, the streamed chat): taking the response over from Fastify with the headers the edge has
// set so far, and writing one event.
import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

/**
 * Takes the response over from Fastify (no serializer, no onSend) and writes the event stream's
 * status and headers: those the edge's hooks set (request id, security headers, CORS) plus the
 * stream's own. Returns the raw response to write events to.
 */
export function startEventStream(reply: FastifyReply): ServerResponse {
  reply.hijack();
  const res = reply.raw;
  const headers: Record<string, string | number | string[]> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = value;
  res.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    // Proxies such as nginx would otherwise hold the events back in their buffer.
    'x-accel-buffering': 'no',
  });
  return res;
}

/** One event: its id line when it has one, its name, and its data (one line: JSON has no raw newlines). */
export function eventText(event: string, data: string, id?: number): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${data}\n\n`;
}
