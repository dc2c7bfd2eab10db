// Live notifications over Server-Sent Events: GET /api/notifications/stream and the stream tokens
// that let a browser's EventSource (no headers) open it. The streams themselves, their signals
// and what they send live in live/; this file is the HTTP side: who may open one, the response
// headers and the socket.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { currentUser } from '../../http/auth.js';
import { HttpError, serviceUnavailable } from '../../core/errors.js';
import { startEventStream } from '../../http/event-stream.js';
import { errorResponses } from '../../http/schemas.js';
import type { NotificationRecord } from './repository.js';
import { Notification, NotificationStreamData, StreamQuery, StreamToken } from './schemas.js';
import { issueStreamToken, redeemStreamToken } from './stream-tokens.js';

const tags = ['notifications'];
/** The reconnection delay suggested to EventSource (retry:), in ms. */
const RETRY_MS = 3_000;
const CURSOR = /^\d{1,15}$/;

/** Last-Event-ID as a cursor; anything else is ignored (the stream starts from now). */
function cursorOf(header: string | string[] | undefined): number | undefined {
  return typeof header === 'string' && CURSOR.test(header.trim()) ? Number(header.trim()) : undefined;
}

const routes: FastifyPluginAsync = async (instance) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config } = app.deps;
  const streams = app.notificationStreams;

  app.post(
    '/notifications/stream-tokens',
    {
      schema: {
        summary: 'A single-use ticket (60 s) for opening the notification stream from a browser EventSource',
        operationId: 'createNotificationStreamToken',
        description:
          'A browser EventSource cannot send an Authorization header: this ticket, valid 60 s and for one connection, goes in ?stream_token= instead.',
        tags,
        response: { 201: StreamToken, ...errorResponses(401, 429, 503) },
      },
      config: { auth: 'user', validationForm: 'general' },
    },
    async (req, reply) => reply.code(201).send(await issueStreamToken(db, currentUser(req).id)),
  );

  app.get(
    '/notifications/stream',
    {
      schema: {
        summary: "The caller's notifications as they happen (Server-Sent Events)",
        operationId: 'streamNotifications',
        description:
          'Authorization: Bearer, or ?stream_token= from POST /api/notifications/stream-tokens (never the bearer token in the URL). ' +
          'Sends unread_count on connect, then notification events (id = cursor) and unread_count after every change, from any instance or the CLI. ' +
          `A reconnect with Last-Event-ID first gets the caller's unread notifications after that cursor. At ` +
          `most NOTIFICATION_STREAMS_PER_USER (${config.NOTIFICATION_STREAMS_PER_USER} here) open streams per ` +
          `user and instance; the next is answered 429.`,
        tags,
        querystring: StreamQuery,
        response: {
          200: {
            description: 'An open stream (text/event-stream).',
            content: { 'text/event-stream': { schema: NotificationStreamData } },
          },
          ...errorResponses(401, 429, 503),
        },
      },
      config: {
        auth: 'user',
        validationForm: 'general',
        metrics: false,
        queryToken: (req) => redeemStreamToken(db, (req.query as { stream_token?: unknown }).stream_token),
      },
    },
    async (req, reply) => {
      const user = currentUser(req);
      if (streams.closed) throw serviceUnavailable();
      if (!streams.accepts(user.id)) {
        throw new HttpError(
          429,
          {
            message: `Too many open notification streams: at most ${config.NOTIFICATION_STREAMS_PER_USER} per user. Close one or try again later.`,
          },
          { 'retry-after': '30' },
        );
      }
      const serialize = reply.compileSerializationSchema(Notification as unknown as Record<string, unknown>) as (
        n: NotificationRecord,
      ) => string;
      const res = startEventStream(reply);
      res.write(`retry: ${RETRY_MS}\n\n`);
      // A HEAD request gets the stream's headers and nothing more (no body can follow them).
      if (req.method === 'HEAD') return void res.end();
      const stream = streams.add(
        user.id,
        { write: (text) => res.write(text), backlog: () => res.writableLength, end: () => res.end() },
        serialize,
        cursorOf(req.headers['last-event-id'] ?? req.query.last_event_id),
      );
      // accepts() was asked in the same tick, so add() cannot refuse; the guard keeps the types honest.
      if (!stream) return void res.end();
      res.on('close', () => streams.close(stream));
      req.log.debug({ userId: user.id, open: streams.open }, 'notification stream opened');
    },
  );
};

export default routes;
