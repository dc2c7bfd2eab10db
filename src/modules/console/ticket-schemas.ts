// TypeBox schemas of the ticket as staff see it: the detail with its story, member, conversation
// and version; notes; presence; the staff update (the staff reply is the tickets module's).
import { Type, type TSchema } from 'typebox';
import { MAX_ID } from '../../core/ids.js';
import { errorResponses, NO_NUL, Timestamp } from '../../http/schemas.js';
import { AttachmentSchema, DetailTicket, PersonSchema, PriorityEnum, StatusEnum } from '../tickets/schemas.js';

const Nullable = <T extends TSchema>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description ? { description } : {});
const ok = <T extends TSchema>(data: T) => Type.Object({ success: Type.Boolean(), data });
const okWithMessage = <T extends TSchema>(data: T) =>
  Type.Object({ success: Type.Boolean(), message: Type.String(), data });

const Author = Type.Object({
  id: Nullable(Type.Integer()),
  first_name: Nullable(Type.String()),
  last_name: Nullable(Type.String()),
  role: Type.Enum(['member', 'staff']),
});

const TimelineEntry = Type.Object(
  {
    kind: Type.Enum(['message', 'reply', 'note', 'activity'], {
      description:
        'message: the member (the ticket itself or a comment); reply: staff to the member; note: internal, staff-only; activity: a change.',
    }),
    id: Type.String({ description: 'ticket, comment-<id>, note-<id> or activity-<id>.' }),
    author: Nullable(Author),
    body: Type.String(),
    attachments: Type.Array(AttachmentSchema),
    created_at: Timestamp,
    type: Type.Optional(Type.String()),
    field: Type.Optional(Nullable(Type.String())),
    old_value: Type.Optional(Nullable(Type.String())),
    new_value: Type.Optional(Nullable(Type.String())),
  },
  { title: 'TimelineEntry' },
);

export const StaffTicketDetail = Type.Object(
  {
    ...DetailTicket.properties,
    timeline: Type.Array(TimelineEntry, { description: 'The whole story, oldest first, internal notes included.' }),
    member: Type.Optional(
      Type.Object(
        {
          id: Nullable(Type.Integer()),
          first_name: Nullable(Type.String()),
          last_name: Nullable(Type.String()),
          email: Type.String(),
          other_tickets: Type.Array(
            Type.Object({
              id: Type.Integer(),
              tracking_code: Type.String(),
              subject: Type.String(),
              status: Type.String(),
              created_at: Timestamp,
            }),
            { description: 'Their other tickets, newest first (at most 20).' },
          ),
        },
        { description: 'The member who filed the ticket; absent for a ticket without an owner.' },
      ),
    ),
    conversation: Nullable(
      Type.Object({
        id: Type.Integer(),
        title: Nullable(Type.String()),
        messages: Type.Array(Type.Object({ role: Type.String(), content: Type.String(), created_at: Timestamp })),
      }),
      'The assistant conversation this ticket was escalated from, with its transcript.',
    ),
    version: Type.String({
      description: 'Changes when a comment (member or staff) is added; send it back as if_version with a reply.',
    }),
  },
  { title: 'StaffTicketDetail' },
);

export const StaffChangeBody = Type.Object({
  status: Type.Optional(StatusEnum),
  assignee_id: Type.Optional(
    Nullable(Type.Integer({ minimum: 1, maximum: MAX_ID }), 'A staff member; null unassigns.'),
  ),
  priority: Type.Optional(PriorityEnum),
  category: Type.Optional(Nullable(Type.String({ maxLength: 255, pattern: NO_NUL }), 'null clears it.')),
  tags: Type.Optional(
    Type.Array(Type.Integer({ minimum: 1, maximum: MAX_ID }), {
      maxItems: 20,
      description: 'Ids of existing tags: the ticket then has exactly these.',
    }),
  ),
});

export const NoteBody = Type.Object({
  message: Type.String({ minLength: 1, maxLength: 10_000, pattern: NO_NUL, description: '1 to 10000 characters.' }),
});

const NoteSchema = Type.Object(
  {
    id: Type.Integer(),
    ticket_id: Type.Integer(),
    user: Nullable(PersonSchema),
    message: Type.String(),
    created_at: Timestamp,
  },
  { title: 'InternalNote' },
);

export const PresenceBody = Type.Object({
  state: Type.Enum(['viewing', 'replying', 'left'], { description: 'left removes the caller at once.' }),
});

const Viewer = Type.Object(
  {
    id: Type.Integer(),
    first_name: Type.String(),
    last_name: Type.String(),
    state: Type.Enum(['viewing', 'replying']),
  },
  { title: 'Viewer' },
);

export const TicketResponses = {
  detail: { 200: ok(StaffTicketDetail), ...errorResponses(401, 403, 404) },
  update: { 200: okWithMessage(StaffTicketDetail), ...errorResponses(400, 401, 403, 404, 422) },
  note: { 201: okWithMessage(NoteSchema), ...errorResponses(401, 403, 404, 422) },
  presence: {
    200: ok(
      Type.Object({ viewers: Type.Array(Viewer, { description: 'Staff on the page now, the caller included.' }) }),
    ),
    ...errorResponses(401, 403, 404, 422),
  },
};
