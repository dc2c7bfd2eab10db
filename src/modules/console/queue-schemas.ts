// TypeBox schemas of the queue: the staff list with its views, filters and orders, the views'
// counts, the tags, the CSV export's query.
import { Type, type TSchema } from 'typebox';
import { MAX_ID } from '../../core/ids.js';
import { PageMetaSchema, paginationQuery } from '../../core/pagination.js';
import { errorResponses, NO_NUL, Timestamp } from '../../http/schemas.js';
import {
  LegacySlaStatusEnum,
  PersonWithEmail,
  PriorityEnum,
  SlaStatusEnum,
  StatusEnum,
  SummaryProperties,
  TagSchema,
} from '../tickets/schemas.js';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const ViewEnum = Type.Enum(['mine', 'unassigned', 'open', 'at_risk', 'closed'], {
  description:
    'mine: open tickets assigned to the caller; unassigned: open tickets without an assignee; open: ' +
    'every ticket not closed; at_risk: open tickets at risk of breaching or breached (resolution ' +
    'target); closed.',
});

const FilterProperties = {
  view: Type.Optional(ViewEnum),
  status: Type.Optional(StatusEnum),
  priority: Type.Optional(PriorityEnum),
  category: Type.Optional(Type.String({ maxLength: 255, pattern: NO_NUL, description: 'Exact match.' })),
  tag: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'Only tickets with this tag id.' })),
  assignee_id: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'Only tickets assigned to this staff member.' }),
  ),
  q: Type.Optional(
    Type.String({
      maxLength: 200,
      pattern: NO_NUL,
      description: 'Text: a case-insensitive substring of the tracking code, subject or message.',
    }),
  ),
  sla_status: Type.Optional(
    Type.Union([SlaStatusEnum, LegacySlaStatusEnum], {
      description:
        'Only tickets whose sla_status is this now; the deprecated words of sla.status still filter for one release.',
    }),
  ),
};

export const QueueQuery = Type.Object({
  ...FilterProperties,
  sort: Type.Optional(
    Type.Enum(['sla', 'sla_deadline', 'created_at', 'updated_at'], {
      description:
        'sla: the next SLA deadline first (first response until answered, then resolution; closed tickets ' +
        'last, latest change first); sla_deadline: soonest resolution deadline first; created_at: newest ' +
        'first (the default); updated_at: latest change first.',
    }),
  ),
  ...paginationQuery(15, 100),
});

export const ExportQuery = Type.Object(FilterProperties);

export const QueueRow = Type.Object(
  {
    ...SummaryProperties,
    user: Nullable(PersonWithEmail),
    sla: Type.Object(
      {
        status: LegacySlaStatusEnum,
        next_due_at: Nullable(Timestamp),
      },
      {
        description:
          'next_due_at: the first response deadline until staff answered, then the resolution one; null once closed. status: deprecated, read sla_status.',
      },
    ),
    last_activity_at: Timestamp,
  },
  { title: 'StaffTicketSummary' },
);

const ok = <T extends TSchema>(data: T) => Type.Object({ success: Type.Boolean(), data });

export const QueueResponses = {
  list: {
    200: Type.Object({ success: Type.Boolean(), data: Type.Array(QueueRow), meta: PageMetaSchema }),
    ...errorResponses(401, 403, 422),
  },
  views: {
    200: ok(
      Type.Array(Type.Object({ view: ViewEnum, count: Type.Integer() }), { description: 'The five views in order.' }),
    ),
    ...errorResponses(401, 403),
  },
  tags: { 200: ok(Type.Array(TagSchema, { description: 'Every tag, by name.' })), ...errorResponses(401, 403) },
  export: {
    200: Type.Unsafe<unknown>({
      type: 'string',
      description:
        'text/csv (UTF-8 with a byte order mark), streamed: a header line, then one line per ticket in id ' +
        'order. A cell starting with =, +, - or @ (or a tab or carriage return) is prefixed with an ' +
        'apostrophe.',
    }),
    ...errorResponses(401, 403, 422),
  },
};
