// TypeBox schemas of the notification endpoints and of the admin integration API.
import { Type, type TSchema } from 'typebox';
import { IntegerId, Timestamp } from '../../http/schemas.js';
import {
  INVESTMENT_STATUSES,
  NOTIFICATION_TYPES,
  type NotificationType,
  NOTIFYING_INVESTMENT_STATUSES,
  NOTIFYING_PROJECT_STATUSES,
  PROJECT_STATUSES,
} from './events.js';
import type { OpenApiTag } from '../../http/openapi.js';
import { MAX_ID } from '../../core/ids.js';

const MAX_SAFE_AMOUNT = Number.MAX_SAFE_INTEGER;
/** Text without NUL characters, which PostgreSQL cannot store. */
const NO_NUL = '^[^\\u0000]*$';

const Message = Type.String({ description: "One sentence in the recipient's language (en or fa)." });
const NullableText = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const ProjectStatusChangedData = Type.Object(
  {
    type: Type.Literal('project_status_changed'),
    project_id: Type.Integer(),
    project_title: Type.String(),
    status: Type.Enum([...NOTIFYING_PROJECT_STATUSES]),
    message: Message,
    comment: NullableText("The administrator's comment on the change, or null."),
    url: Type.String({ description: 'Project page: APP_URL/projects/{project_id}.' }),
  },
  { title: 'project_status_changed data' },
);

export const ProjectRevisionRequestedData = Type.Object(
  {
    type: Type.Literal('project_revision_requested'),
    project_id: Type.Integer(),
    project_title: Type.String(),
    message: Message,
    revision_notes: Type.String({ description: 'What the administrator asks to change.' }),
    url: Type.String({ description: 'Project edit page: APP_URL/projects/{project_id}/edit.' }),
  },
  { title: 'project_revision_requested data' },
);

export const NewInvestmentReceivedData = Type.Object(
  {
    type: Type.Literal('new_investment_received'),
    investment_id: Type.Integer(),
    project_id: Type.Integer(),
    project_title: Type.String(),
    amount: Type.Integer({ description: 'Whole platform currency units.' }),
    investor_name: Type.String({ description: "The investor's first and last name." }),
    message: Message,
    url: Type.String({ description: 'Investment overview of the project: APP_URL/projects/{project_id}/investments.' }),
  },
  { title: 'new_investment_received data' },
);

export const InvestmentStatusChangedData = Type.Object(
  {
    type: Type.Literal('investment_status_changed'),
    investment_id: Type.Integer(),
    project_title: Type.String(),
    amount: Type.Integer({ description: 'Whole platform currency units.' }),
    status: Type.Enum([...NOTIFYING_INVESTMENT_STATUSES]),
    message: Message,
    notes: NullableText('Notes of the platform on the investment (a refund amount, for example), or null.'),
    url: Type.String({ description: 'Investment detail page: APP_URL/investments/{investment_id}.' }),
  },
  { title: 'investment_status_changed data' },
);

const DATA_SCHEMAS = [
  ProjectStatusChangedData,
  ProjectRevisionRequestedData,
  NewInvestmentReceivedData,
  InvestmentStatusChangedData,
] as const;

export const Notification = Type.Object(
  {
    id: Type.String({ description: 'UUID of the notification.' }),
    type: Type.Enum([...NOTIFICATION_TYPES], { description: 'One of the four notification types.' }),
    data: Type.Union([...DATA_SCHEMAS], {
      description: 'Payload of the notification; its fields depend on the type, which it repeats.',
    }),
    read_at: Type.Union([Timestamp, Type.Null()], { description: 'When it was marked read; null while unread.' }),
    created_at: Timestamp,
  },
  { title: 'Notification' },
);

export const NotificationList = Type.Array(Notification, {
  description: 'The unread notifications, newest first, at most 100.',
});

/** The data schema of each notification type (data-text.ts writes the stored data with it). */
export const DATA_SCHEMA_OF = {
  project_status_changed: ProjectStatusChangedData,
  project_revision_requested: ProjectRevisionRequestedData,
  new_investment_received: NewInvestmentReceivedData,
  investment_status_changed: InvestmentStatusChangedData,
} as const satisfies Record<NotificationType, TSchema>;

export const NotificationIdParams = Type.Object({
  id: Type.String({ description: 'UUID of the notification; any other value answers 404.' }),
});

export const UnreadCount = Type.Object({
  success: Type.Boolean(),
  count: Type.Integer({ description: 'Number of unread notifications of the caller (not capped).' }),
});

export const ReadAllResult = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  count: Type.Integer({ description: 'How many notifications were marked read by this call.' }),
});

// Live notifications (GET /api/notifications/stream and its stream tokens).

export const StreamToken = Type.Object(
  {
    token: Type.String({ description: 'Single-use ticket for ?stream_token= on GET /api/notifications/stream.' }),
    expires_at: Type.String({
      description: 'ISO 8601 UTC; the ticket is refused after this moment (60 s after issue).',
    }),
  },
  { title: 'StreamToken' },
);

export const StreamQuery = Type.Object({
  stream_token: Type.Optional(
    Type.String({
      maxLength: 100,
      description:
        'A ticket from POST /api/notifications/stream-tokens, for clients that cannot send an Authorization header (EventSource). Used up by the first connection.',
    }),
  ),
  last_event_id: Type.Optional(
    Type.String({
      maxLength: 40,
      description:
        'The same as a Last-Event-ID header (which wins), for an EventSource reconnecting with a new stream token.',
    }),
  ),
});

const UnreadCountEvent = Type.Object(
  { count: Type.Integer({ description: 'Unread notifications of the caller.' }) },
  {
    title: 'UnreadCountEvent',
    description: 'event: unread_count. On connect, and after every change of the unread set.',
  },
);

/**
 * The data of each event of the notification stream, parsed from its JSON: what a generated
 * Server-Sent Events client yields. x-sse-events names the schema of each event type.
 */
export const NotificationStreamData = Type.Union([UnreadCountEvent, Notification], {
  title: 'NotificationStreamData',
  description:
    'The stream is Server-Sent Events; this schema is the data of one event (its JSON, parsed), and x-sse-events gives the schema of each event type: ' +
    'unread_count (UnreadCountEvent), notification (a new notification of the caller exactly as GET ' +
    '/api/notifications shows it; its id: line is the cursor to send back as Last-Event-ID). ' +
    'The stream starts with a retry: hint and carries comment lines (heartbeats) at least every 25 s; it ends when the instance shuts down.',
  'x-sse-events': { unread_count: UnreadCountEvent, notification: Notification },
});

// Admin integration API.

const NotificationIds = Type.Array(Type.String(), {
  description: 'UUIDs of the notifications written with this change (empty when none was due).',
});

export const RecordIdParams = Type.Object({ id: IntegerId });

export const ProjectBody = Type.Object({
  title: Type.String({
    minLength: 1,
    maxLength: 255,
    pattern: NO_NUL,
    description: 'Project title as shown to users.',
  }),
  owner_id: Type.Integer({
    minimum: 1,
    maximum: MAX_ID,
    description: 'Id of an existing user: the project owner.',
  }),
  status: Type.Enum([...PROJECT_STATUSES], {
    description: 'draft is silent; a change into any other status notifies the owner.',
  }),
  comment: Type.Optional(
    Type.Union([Type.String({ maxLength: 2000, pattern: NO_NUL }), Type.Null()], {
      description: 'Comment carried in the status notification.',
    }),
  ),
});

export const Project = Type.Object({
  id: Type.Integer(),
  owner_id: Type.Integer(),
  title: Type.String(),
  status: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const ProjectResult = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  data: Project,
  notification_ids: NotificationIds,
});

export const RevisionRequestBody = Type.Object({
  revision_notes: Type.String({
    minLength: 1,
    maxLength: 5000,
    pattern: NO_NUL,
    description: 'What the owner should change before approval.',
  }),
});

export const RevisionRequestResult = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  data: Type.Object({
    id: Type.Integer(),
    project_id: Type.Integer(),
    revision_notes: Type.String(),
    created_at: Timestamp,
  }),
  notification_ids: NotificationIds,
});

export const InvestmentBody = Type.Object({
  project_id: Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'Id of an existing project.' }),
  investor_id: Type.Integer({
    minimum: 1,
    maximum: MAX_ID,
    description: 'Id of an existing user: the investor.',
  }),
  amount: Type.Integer({
    minimum: 0,
    maximum: MAX_SAFE_AMOUNT,
    description: 'Whole platform currency units, 0 to 2^53 - 1.',
  }),
  status: Type.Enum([...INVESTMENT_STATUSES], {
    description:
      'pending is silent; a change into any other status notifies the investor, into paid also the project owner.',
  }),
  notes: Type.Optional(
    Type.Union([Type.String({ maxLength: 2000, pattern: NO_NUL }), Type.Null()], {
      description: 'Carried in the status notification.',
    }),
  ),
});

export const Investment = Type.Object({
  id: Type.Integer(),
  project_id: Type.Integer(),
  investor_id: Type.Integer(),
  amount: Type.Integer(),
  status: Type.String(),
  notes: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const InvestmentResult = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  data: Investment,
  notification_ids: NotificationIds,
});

/** The tags of the notification operations in the OpenAPI document. */
export const openApiTags: OpenApiTag[] = [
  {
    name: 'notifications',
    description: "The caller's notifications: list, unread count, marking read, deleting, and a live stream.",
  },
  {
    name: 'admin integration',
    description:
      'Calls from the main platform (admin token): user accounts and tokens, project and investment changes.',
  },
];
