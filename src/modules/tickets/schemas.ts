// TypeBox schemas of the tickets endpoints: requests and responses, with descriptions for the
// OpenAPI document.
import { Type, type TObject, type TSchema } from 'typebox';
import { PageMetaSchema, paginationQuery } from '../../core/pagination.js';
import type { OpenApiTag } from '../../http/openapi.js';
import { NO_NUL, PathId, StringEnum, Timestamp, errorResponses } from '../../http/schemas.js';
import { MAX_ID } from '../../core/ids.js';
import { ALLOWED_EXTENSIONS, MAX_FILE_BYTES, MAX_FILES } from './file-check.js';
import { inboundMailTag } from './email/tags.js';

const Nullable = <T extends TSchema>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description ? { description } : {});

export const StatusEnum = StringEnum(['open', 'in-progress', 'closed'], {
  title: 'TicketStatus',
  description: 'open, in-progress or closed.',
});
export const PriorityEnum = StringEnum(['low', 'normal', 'high'], {
  title: 'TicketPriority',
  description: 'low, normal or high.',
});
/** The one SLA vocabulary of a ticket (sla.ts slaStatusOf). */
export const SlaStatusEnum = StringEnum(['on_time', 'warning', 'overdue', 'met', 'missed'], {
  title: 'SlaStatus',
  description:
    'Extension. Open: on_time, warning (under 25% of the window left) or overdue; closed: met (by the deadline) or missed.',
});
/** The words `sla.status` used before: kept one release for clients that read them (docs/decisions.md). */
export const LegacySlaStatusEnum = StringEnum(['on_track', 'at_risk', 'breached', 'met'], {
  title: 'LegacySlaStatus',
  deprecated: true,
  description:
    'Deprecated, use SlaStatus (sla_status): on_track = on_time, at_risk = warning, breached = overdue or missed, met = met. Removed in the next release.',
});

export const TicketIdParams = Type.Object({
  id: PathId('Ticket id. Anything but a positive integer answers the ticket 404.'),
});
export const AttachmentParams = Type.Object({
  id: PathId('Ticket id.'),
  attachment_id: PathId('Attachment id.'),
});

export const ListQuery = Type.Object({
  status: Type.Optional(StatusEnum),
  priority: Type.Optional(PriorityEnum),
  category: Type.Optional(Type.String({ maxLength: 255, pattern: NO_NUL, description: 'Exact match.' })),
  q: Type.Optional(
    Type.String({
      maxLength: 200,
      pattern: NO_NUL,
      description: 'Case-insensitive substring of tracking code, subject or message.',
    }),
  ),
  ...paginationQuery(15, 100),
});

/** The upload routes take JSON or a multipart form (documented with attachments[] as files). */
export const UPLOAD_TYPES = ['application/json', 'multipart/form-data'];

/** An upload route's body as a multipart form: the JSON body's fields, the files under attachments[]. */
export function uploadForm(body: TObject): Record<string, unknown> {
  return {
    type: 'object',
    required: body.required ?? [],
    properties: {
      ...body.properties,
      'attachments[]': {
        type: 'array',
        maxItems: MAX_FILES,
        items: { type: 'string', format: 'binary' },
        description: `Files: ${ALLOWED_EXTENSIONS.join(', ')}; each under ${MAX_FILE_BYTES} bytes, with content of the type its extension names.`,
      },
    },
  };
}

export const CreateBody = Type.Object(
  {
    subject: Type.String({ minLength: 1, maxLength: 255, pattern: NO_NUL, description: 'At most 255 characters.' }),
    message: Type.String({ minLength: 10, pattern: NO_NUL, description: 'At least 10 characters.' }),
    priority: Type.Optional(PriorityEnum),
    category: Type.Optional(
      Nullable(Type.String({ maxLength: 255, pattern: NO_NUL }), 'Free text, at most 255 characters.'),
    ),
    tags: Type.Optional(
      Type.Array(Type.Integer({ minimum: 1, maximum: MAX_ID }), { maxItems: 20, description: 'Ids of existing tags.' }),
    ),
  },
  {
    description:
      `JSON, or multipart/form-data with the files under attachments[] (${ALLOWED_EXTENSIONS.join(', ')}; ` +
      `each under ${MAX_FILE_BYTES / 1_048_576} MB; at most ${MAX_FILES}).`,
  },
);

export const UpdateBody = Type.Object({
  priority: Type.Optional(PriorityEnum),
  category: Type.Optional(Nullable(Type.String({ maxLength: 255, pattern: NO_NUL }), 'null clears it.')),
});

export const CommentBody = Type.Object(
  {
    message: Type.String({ minLength: 5, maxLength: 10_000, pattern: NO_NUL, description: 'At least 5 characters.' }),
  },
  { description: 'JSON, or multipart/form-data with files under attachments[] (same limits as tickets).' },
);

export const StaffReplyBody = Type.Object(
  {
    message: Type.String({ minLength: 5, maxLength: 10_000, pattern: NO_NUL, description: 'At least 5 characters.' }),
    if_version: Type.Optional(
      Type.String({
        maxLength: 20,
        description:
          "The version the reply was written against: 409 when a comment arrived since (the ticket's version changed).",
      }),
    ),
  },
  { description: 'JSON, or multipart/form-data with files under attachments[] (same limits as tickets).' },
);

export const PersonSchema = Type.Object(
  { id: Type.Integer(), first_name: Type.String(), last_name: Type.String() },
  { title: 'Person' },
);
export const PersonWithEmail = Type.Object(
  {
    id: Nullable(Type.Integer()),
    first_name: Nullable(Type.String()),
    last_name: Nullable(Type.String()),
    email: Type.String(),
  },
  { title: 'PersonWithEmail', description: 'id and names are null for an address without an account.' },
);
export const TagSchema = Type.Object({ id: Type.Integer(), name: Type.String() }, { title: 'Tag' });
export const AttachmentSchema = Type.Object(
  {
    id: Type.Integer(),
    file_name: Type.String({ description: 'The original name, without any path.' }),
    file_type: Type.String({ description: 'MIME type.' }),
    file_size: Type.Integer({ description: 'Bytes.' }),
    created_at: Timestamp,
  },
  { title: 'Attachment' },
);

export const SummaryProperties = {
  id: Type.Integer(),
  tracking_code: Type.String({ description: 'TK- and 8 characters A-Z0-9.' }),
  subject: Type.String(),
  status: StatusEnum,
  priority: PriorityEnum,
  category: Nullable(Type.String()),
  assignee: Nullable(PersonSchema),
  tags: Type.Array(TagSchema),
  created_at: Timestamp,
  sla_status: SlaStatusEnum,
};
const Summary = Type.Object(SummaryProperties, { title: 'TicketSummary' });
const FullProperties = {
  ...SummaryProperties,
  message: Type.String(),
  sla_deadline: Type.String({ description: 'Resolution deadline; follows the priority, counted from created_at.' }),
  first_response_due_at: Type.String({ description: 'Extension: first staff reply deadline.' }),
  first_response_at: Nullable(Type.String(), 'Extension: when staff first replied.'),
  resolved_at: Nullable(Type.String(), 'Set when closed; null while open.'),
  attachments: Type.Array(AttachmentSchema, { description: 'Files sent with the ticket itself.' }),
  updated_at: Timestamp,
  sla: Type.Object(
    {
      clock: Type.Enum(['calendar', 'business'], {
        description:
          'calendar: wall-clock hours; business: working hours of SLA_BUSINESS_HOURS in SLA_TIMEZONE, holidays excluded.',
      }),
      time_zone: Type.String({ description: 'The IANA zone working hours are kept in (SLA_TIMEZONE).' }),
      status: LegacySlaStatusEnum,
      first_response_due_at: Timestamp,
      first_response_at: Nullable(Timestamp),
      resolution_due_at: Timestamp,
      resolved_at: Nullable(Timestamp),
    },
    { description: 'Extension: the service-level targets and the clock they were counted with.' },
  ),
};
const FullTicket = Type.Object(FullProperties, { title: 'Ticket' });

export const CommentSchema = Type.Object(
  {
    id: Type.Integer(),
    ticket_id: Type.Integer(),
    user: Nullable(PersonSchema),
    message: Type.String(),
    is_staff: Type.Boolean({ description: 'Extension: a reply by support staff.' }),
    attachments: Type.Array(AttachmentSchema),
    created_at: Timestamp,
  },
  { title: 'Comment' },
);

const ActivitySchema = Type.Object(
  {
    id: Type.Integer(),
    type: Type.String({
      description: 'created, status_changed, field_updated, assigned, comment_added or attachment_added.',
    }),
    field: Nullable(Type.String()),
    old_value: Nullable(Type.String()),
    new_value: Nullable(Type.String()),
    user: Nullable(PersonSchema),
    created_at: Timestamp,
  },
  { title: 'Activity' },
);

export const DetailTicket = Type.Object(
  {
    ...FullProperties,
    assignee: Nullable(PersonWithEmail),
    user: Nullable(PersonWithEmail),
    comments: Type.Array(CommentSchema),
    activities: Type.Array(ActivitySchema, { description: 'Audit trail, oldest first.' }),
  },
  { title: 'TicketDetail' },
);

const ok = <T extends TSchema>(data: T) => Type.Object({ success: Type.Boolean(), data });
const okWithMessage = <T extends TSchema>(data: T) =>
  Type.Object({ success: Type.Boolean(), message: Type.String(), data });

export const Responses = {
  list: {
    200: Type.Object({ success: Type.Boolean(), data: Type.Array(Summary), meta: PageMetaSchema }),
    ...errorResponses(401, 422),
  },
  stats: {
    200: ok(
      Type.Object({ total: Type.Integer(), open: Type.Integer(), in_progress: Type.Integer(), closed: Type.Integer() }),
    ),
    ...errorResponses(401),
  },
  create: { 201: okWithMessage(FullTicket), ...errorResponses(400, 401, 413, 415, 422) },
  detail: { 200: ok(DetailTicket), ...errorResponses(401, 404) },
  update: {
    200: okWithMessage(
      Type.Object({
        id: Type.Integer(),
        tracking_code: Type.String(),
        priority: PriorityEnum,
        sla_deadline: Type.String(),
        status: StatusEnum,
      }),
    ),
    ...errorResponses(400, 401, 404, 422),
  },
  close: {
    200: okWithMessage(Type.Object({ id: Type.Integer(), status: StatusEnum, resolved_at: Type.String() })),
    ...errorResponses(400, 401, 404),
  },
  comment: { 201: okWithMessage(CommentSchema), ...errorResponses(400, 401, 404, 413, 415, 422) },
  staffReply: {
    201: okWithMessage(CommentSchema),
    409: Type.Object(
      { success: Type.Boolean(), message: Type.String(), version: Type.String() },
      { description: 'A comment arrived since the version sent: the current version is given.' },
    ),
    ...errorResponses(400, 401, 403, 404, 413, 415, 422),
  },
  download: {
    // A stream, not a string: documented as binary, never serialised.
    200: Type.Unsafe<unknown>({
      type: 'string',
      format: 'binary',
      description: 'The raw file (binary), with Content-Type, Content-Length and Content-Disposition.',
    }),
    ...errorResponses(401, 404),
  },
};

/** The tags of the ticket operations in the OpenAPI document. */
export const openApiTags: OpenApiTag[] = [
  {
    name: 'tickets',
    description: 'Support tickets of the caller: open, list, read, change, close, comment, download attachments.',
  },
  { name: 'tickets-staff', description: 'Every ticket, for support staff: queue, assignment, status, staff replies.' },
  inboundMailTag,
];
