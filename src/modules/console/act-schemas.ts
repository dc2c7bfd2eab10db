// TypeBox schemas of bulk actions and saved replies.
import { Type, type TSchema } from 'typebox';
import { MAX_ID } from '../../core/ids.js';
import { errorResponses, NO_NUL, SuccessMessage, Timestamp } from '../../http/schemas.js';

const ok = <T extends TSchema>(data: T) => Type.Object({ success: Type.Boolean(), data });
const okWithMessage = <T extends TSchema>(data: T) =>
  Type.Object({ success: Type.Boolean(), message: Type.String(), data });

export const BULK_MAX = 100;

export const BulkBody = Type.Object({
  ids: Type.Array(Type.Integer({ minimum: 1, maximum: MAX_ID }), {
    minItems: 1,
    maxItems: BULK_MAX,
    description: `1 to ${BULK_MAX} ticket ids (a repeated id counts once).`,
  }),
  action: Type.Enum(['assign', 'status', 'priority', 'tag', 'close'], {
    description:
      'assign: value is a staff member id or null (unassign); status: open, in-progress or closed; ' +
      'priority: low, normal or high; tag: value is a tag id added to each ticket; close: no value.',
  }),
  value: Type.Optional(Type.Union([Type.String({ maxLength: 20 }), Type.Integer(), Type.Null()])),
});

export const BulkResult = Type.Object(
  {
    updated: Type.Array(Type.Integer(), {
      description: 'Tickets now in the state asked for (changed, or already so), in the order given.',
    }),
    failed: Type.Array(Type.Object({ id: Type.Integer(), message: Type.String() }), {
      description: 'Tickets left as they were, with the reason (not found, closed tickets cannot be updated).',
    }),
  },
  { title: 'BulkResult' },
);

const Lang = Type.Enum(['en', 'fa'], { description: 'The language staff use it in.' });

export const SavedReplyBody = Type.Object({
  title: Type.String({ minLength: 1, maxLength: 120, pattern: NO_NUL }),
  body: Type.String({
    minLength: 1,
    maxLength: 10_000,
    pattern: NO_NUL,
    description:
      'The text. Placeholders: {{first_name}}, {{last_name}} (the member), {{tracking_code}}, {{subject}} (the ticket), {{agent_name}} (the staff member); any other is refused.',
  }),
  lang: Lang,
});

export const SavedReplyQuery = Type.Object({
  lang: Type.Optional(
    Type.String({ pattern: '^(en|fa)$', description: 'en or fa: only the replies of that language.' }),
  ),
});
export const SavedReplyParams = Type.Object({ id: Type.String({ description: 'Saved reply id (integer).' }) });

const SavedReply = Type.Object(
  {
    id: Type.Integer(),
    title: Type.String(),
    body: Type.String(),
    lang: Lang,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'SavedReply' },
);

export const ActResponses = {
  bulk: { 200: ok(BulkResult), ...errorResponses(401, 403, 422) },
  savedReplies: { 200: ok(Type.Array(SavedReply)), ...errorResponses(401, 403, 422) },
  savedReplyCreated: { 201: okWithMessage(SavedReply), ...errorResponses(401, 403, 422) },
  savedReplyUpdated: { 200: okWithMessage(SavedReply), ...errorResponses(401, 403, 404, 422) },
  savedReplyDeleted: { 200: SuccessMessage, ...errorResponses(401, 403, 404) },
};
