// The staff stream (Server-Sent Events): new tickets and new comments and notes as they are
// written, on any instance, for the console's queue and ticket pages. A browser's EventSource
// cannot send headers, so it first asks POST /api/admin/stream-tokens for a single-use token
// (the notification stream's tokens: 60 s, one use, only a hash stored).
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import { HttpError, serviceUnavailable } from '../../core/errors.js';
import { currentUser } from '../../http/auth.js';
import { startEventStream } from '../../http/event-stream.js';
import { errorResponses } from '../../http/schemas.js';
import { issueStreamToken, redeemStreamToken } from '../notifications/stream-tokens.js';
import { bodyAsObject } from '../tickets/uploads.js';
import { STAFF_GENERAL as STAFF } from './queue-routes.js';
import { type Signals, StaffPoll, StaffPostgresSignals } from './staff-signals.js';
import { StaffStreams } from './staff-stream.js';

const tags = ['tickets-staff'];
const RETRY_MS = 3_000;

const streamRoutes: FastifyPluginAsync = async (root) => {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config, database } = app.deps;
  const streams = new StaffStreams(
    db,
    config.NOTIFICATION_STREAMS_PER_USER,
    config.NOTIFICATION_STREAM_HEARTBEAT_SECONDS * 1000,
    app.log,
  );
  const signals: Signals = database.pool
    ? new StaffPostgresSignals(database.pool.options, streams, app.log)
    : new StaffPoll(streams, config.NOTIFICATION_STREAM_POLL_MS);
  app.addHook('onReady', async () => signals.start());
  app.addHook('preClose', (done) => {
    streams.closeAll();
    done();
  });
  app.addHook('onClose', async () => signals.stop());

  app.post(
    '/admin/stream-tokens',
    {
      schema: {
        operationId: 'createStaffStreamToken',
        summary: 'A single-use token (60 s) for opening the staff stream from a browser EventSource',
        description: 'Use it once as ?stream_token= on GET /api/admin/stream.',
        tags,
        body: Type.Object({}, { description: 'Empty.' }),
        response: {
          201: Type.Object({
            success: Type.Boolean(),
            data: Type.Object({ token: Type.String(), expires_at: Type.String() }),
          }),
          ...errorResponses(401, 403),
        },
      },
      config: STAFF,
      preValidation: bodyAsObject,
    },
    async (req, reply) =>
      reply.code(201).send({ success: true, data: await issueStreamToken(db, currentUser(req).id) }),
  );

  app.get(
    '/admin/stream',
    {
      schema: {
        operationId: 'staffStream',
        summary: 'New tickets and comments as they happen (staff, Server-Sent Events)',
        description:
          'Authorization: Bearer, or ?stream_token= from POST /api/admin/stream-tokens. Events: ticket_created ' +
          '{id, tracking_code, subject, priority, status}; comment_added {ticket_id, comment_id, kind: member, ' +
          'staff or note}; written on any instance, sent within a second or two. Heartbeat comments keep idle ' +
          'connections open.',
        tags,
        querystring: Type.Object({
          stream_token: Type.Optional(
            Type.String({ maxLength: 100, description: 'A token from POST /api/admin/stream-tokens.' }),
          ),
        }),
        response: {
          200: {
            description: 'An open stream (text/event-stream).',
            content: { 'text/event-stream': { schema: Type.String({ description: 'Server-Sent Events.' }) } },
          },
          ...errorResponses(401, 403, 429, 503),
        },
      },
      config: {
        ...STAFF,
        metrics: false,
        queryToken: (req) => redeemStreamToken(db, (req.query as { stream_token?: unknown }).stream_token),
      },
    },
    async (req, reply) => {
      const user = currentUser(req);
      if (streams.closed) throw serviceUnavailable();
      if (!streams.accepts(user.id))
        throw new HttpError(
          429,
          { message: 'Too many open staff streams. Close one or try again later.' },
          { 'retry-after': '30' },
        );
      const res = startEventStream(reply);
      res.write(`retry: ${RETRY_MS}\n\n`);
      if (req.method === 'HEAD') return void res.end();
      const sink = { userId: user.id, write: (text: string) => res.write(text), end: () => res.end() };
      res.on('close', () => streams.remove(sink));
      await streams.add(sink);
      res.write(': connected\n\n');
    },
  );
};

export default streamRoutes;
