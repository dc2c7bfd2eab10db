// Inbound mail over HTTP: the webhook mail providers' inbound routing posts raw messages to (admin
// token), and staff's review of what came in (the held messages to accept or reject).
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import { businessRule, msg } from '../../../core/errors.js';
import { t } from '../../../core/i18n.js';
import { PageMetaSchema, pageMeta, paginationQuery } from '../../../core/pagination.js';
import { currentUser } from '../../../http/auth.js';
import { requestLocale } from '../../../http/i18n.js';
import { IntegerId, Timestamp, errorResponses } from '../../../http/schemas.js';
import type { AttachmentStorage } from '../storage/index.js';
import { processInbound } from './inbound.js';
import { acceptHeld, listInboundMail, rejectHeld } from './review.js';
import { inboundMailTag } from './tags.js';

const tags = [inboundMailTag.name];
/** A 30 MB message and its transfer encoding's growth. */
export const MAX_INBOUND_BYTES = 48 * 1_048_576;

const STATUSES = ['comment', 'ticket', 'held', 'accepted', 'rejected', 'deferred', 'ignored', 'bounce'] as const;
const Nullable = <T extends ReturnType<typeof Type.String>>(s: T) => Type.Union([s, Type.Null()]);
const NullableInt = Type.Union([Type.Integer(), Type.Null()]);

const InboundMail = Type.Object({
  id: Type.Integer(),
  message_id: Type.String(),
  from_address: Nullable(Type.String()),
  subject: Type.String(),
  status: Type.Enum([...STATUSES], {
    description:
      'comment or ticket: applied; held: waits for staff (sender not the owner); accepted/rejected: staff ' +
      'decided; deferred: the sender was over the hourly limit, applied later; ignored: automatic reply, ' +
      'own mail, loop or no sender; bounce: a delivery report.',
  }),
  reason: Nullable(Type.String()),
  ticket_id: NullableInt,
  comment_id: NullableInt,
  outbox_id: Type.Union([Type.Integer(), Type.Null()], { description: 'The sent mail a bounce marked bounced.' }),
  original_text: Type.String({ description: 'The whole text as received, quotes and signature included.' }),
  decided_by: NullableInt,
  decided_at: Type.Union([Timestamp, Type.Null()]),
  created_at: Timestamp,
});

const Outcome = Type.Object({
  status: Type.Enum([...STATUSES, 'duplicate'], {
    description: 'What became of the message; duplicate: already received.',
  }),
  reason: Type.Optional(Type.String()),
  inbound_id: Type.Optional(Type.Integer()),
  ticket_id: Type.Optional(Type.Integer()),
  comment_id: Type.Optional(Type.Integer()),
});

const IdParams = Type.Object({ id: IntegerId });
const withMessage = <T extends ReturnType<typeof Type.Object>>(data: T) =>
  Type.Object({ success: Type.Boolean(), message: Type.String(), data });

const mailRoutes: FastifyPluginAsync<{ storage: AttachmentStorage }> = async (root, { storage }) => {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const deps = app.deps;
  app.addContentTypeParser(
    ['message/rfc822'],
    { parseAs: 'buffer', bodyLimit: MAX_INBOUND_BYTES },
    (_req, body, done) => done(null, body),
  );

  app.post(
    '/admin/inbound-mail',
    {
      schema: {
        operationId: 'receiveInboundMail',
        summary: 'Receive one raw mail message (inbound routing webhook)',
        description:
          'The body is the whole message as received (Content-Type message/rfc822, up to 48 MB). It is ' +
          "processed as the mailbox fetcher's messages are: matched to a ticket by the signed reply address, " +
          'then In-Reply-To/References, then the tracking code in the subject; a comment when the sender owns ' +
          'the ticket or is staff, held for staff review otherwise; a new ticket when nothing matches. ' +
          'Automatic replies, bounces and our own mail change nothing. The same Message-ID again answers ' +
          'status duplicate.',
        tags,
        consumes: ['message/rfc822'],
        response: { 200: withMessage(Outcome), ...errorResponses(400, 401, 403, 413, 415) },
      },
      bodyLimit: MAX_INBOUND_BYTES,
      config: { auth: 'admin', validationForm: 'general', rateLimit: false },
    },
    async (req) => {
      // The raw message has no JSON schema: the parser above accepts only message/rfc822 bytes.
      const raw = req.body as unknown;
      if (!Buffer.isBuffer(raw) || raw.length === 0) throw businessRule(msg('mail.not_a_message'));
      const outcome = await processInbound(deps, storage, raw);
      return { success: true, message: t(requestLocale(req), 'mail.received'), data: outcome };
    },
  );

  app.get(
    '/admin/inbound-mail',
    {
      schema: {
        operationId: 'listInboundMail',
        summary: 'Mail received, newest first (staff)',
        description:
          'Every message received by mail, with what became of it; status=held lists the ones waiting for a decision.',
        tags,
        querystring: Type.Object({ status: Type.Optional(Type.Enum([...STATUSES])), ...paginationQuery(15, 100) }),
        response: {
          200: Type.Object({ success: Type.Boolean(), data: Type.Array(InboundMail), meta: PageMetaSchema }),
          ...errorResponses(401, 403, 422),
        },
      },
      config: { auth: 'staff', validationForm: 'general' },
    },
    async (req) => {
      const { page = 1, per_page: perPage = 15, status } = req.query;
      const { total, rows } = await listInboundMail(deps, status, page, perPage);
      return { success: true, data: rows, meta: pageMeta(total, page, perPage) };
    },
  );

  for (const decision of ['accept', 'reject'] as const) {
    app.post(
      `/admin/inbound-mail/:id/${decision}`,
      {
        schema: {
          operationId: decision === 'accept' ? 'acceptInboundMail' : 'rejectInboundMail',
          summary: decision === 'accept' ? 'Add a held message to its ticket (staff)' : 'Reject a held message (staff)',
          description:
            decision === 'accept'
              ? 'The held message becomes a comment on the ticket it named, as its sender wrote it; 400 when it is not held.'
              : 'The held message changes nothing and its raw copy is dropped; 400 when it is not held.',
          tags,
          params: IdParams,
          response: { 200: withMessage(InboundMail), ...errorResponses(400, 401, 403, 404, 422) },
        },
        config: { auth: 'staff', validationForm: 'general' },
      },
      async (req) => {
        const staff = currentUser(req);
        const data =
          decision === 'accept'
            ? await acceptHeld(deps, storage, staff.id, req.params.id)
            : await rejectHeld(deps, staff.id, req.params.id);
        return { success: true, message: t(requestLocale(req), `mail.${decision}ed`), data };
      },
    );
  }
};

export default mailRoutes;
