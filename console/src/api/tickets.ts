// The queue and the ticket as the pages use them, read through the typed client generated from
// the service's OpenAPI document: the views and their counts, the queue in the order of the next
// SLA deadline, the ticket with its whole story. A ticket's SLA state is read from `sla_status`
// (the API's one vocabulary); the row's `sla.status` is a deprecated alias the console never reads.
import type { components, paths } from '../../generated/api';
import { api, call } from './client';
import type { ViewName } from './pending';

type Schemas = components['schemas'];
export type Attachment = Schemas['Attachment'];
export type Tag = Schemas['Tag'];
export type SlaStatus = Schemas['SlaStatus'];
export type QueueQuery = NonNullable<paths['/api/admin/tickets']['get']['parameters']['query']>;
export type Summary = Schemas['StaffTicketSummary'];

export const VIEWS: ViewName[] = ['mine', 'unassigned', 'open', 'at_risk', 'closed'];

/** The count of each view (GET /api/admin/tickets/views). */
export async function viewCounts(): Promise<Record<ViewName, number | null>> {
  const answer = await call(api.GET('/api/admin/tickets/views'));
  const counts = Object.fromEntries(VIEWS.map((v) => [v, null])) as Record<ViewName, number | null>;
  for (const { view, count } of answer.data) counts[view] = count;
  return counts;
}

/** A page of the queue: open tickets by their next SLA deadline, closed ones by their last change. */
export async function listQueue(query: QueueQuery) {
  const sort = query.view === 'closed' ? 'updated_at' : 'sla';
  const answer = await call(api.GET('/api/admin/tickets', { params: { query: { sort, ...query } } }));
  return { rows: answer.data, meta: answer.meta };
}

export interface Author {
  id?: number | null;
  first_name: string | null;
  last_name: string | null;
  role?: string;
}

export interface TimelineEntry {
  kind: 'message' | 'reply' | 'note' | 'activity';
  id: number | string;
  author: Author | null;
  body: string;
  attachments: Attachment[];
  created_at: string;
  type?: string;
  field?: string | null;
  old_value?: string | null;
  new_value?: string | null;
}

export interface OtherTicket {
  id: number;
  tracking_code: string;
  subject: string;
  status: string;
  created_at: string;
}

type Detail = Schemas['TicketDetail'];
type AgreedDetail = Detail & {
  timeline?: TimelineEntry[];
  member?: {
    id: number | null;
    first_name: string | null;
    last_name: string | null;
    email: string;
    other_tickets: OtherTicket[];
  };
  conversation?: {
    id: number;
    title: string | null;
    messages: { role: string; content: string; created_at: string }[];
  } | null;
  version?: number | string;
};

export interface TicketView {
  detail: Detail;
  timeline: TimelineEntry[];
  member: {
    first_name: string | null;
    last_name: string | null;
    email: string;
    other_tickets: OtherTicket[] | null;
  } | null;
  conversation: AgreedDetail['conversation'] | null;
  version: string;
}

/** The history from the detail's comments and activities (before the service sends a timeline). */
function assembleTimeline(detail: Detail): TimelineEntry[] {
  const entries: TimelineEntry[] = [
    {
      kind: 'message',
      id: 'ticket',
      author: detail.user,
      body: detail.message,
      attachments: detail.attachments,
      created_at: detail.created_at,
    },
    ...detail.comments.map(
      (c): TimelineEntry => ({
        kind: c.is_staff ? 'reply' : 'message',
        id: c.id,
        author: c.user,
        body: c.message,
        attachments: c.attachments,
        created_at: c.created_at,
      }),
    ),
    ...detail.activities
      .filter((a) => !['comment_added', 'attachment_added', 'created'].includes(a.type))
      .map(
        (a): TimelineEntry => ({
          kind: 'activity',
          id: `activity-${a.id}`,
          author: a.user,
          body: '',
          attachments: [],
          created_at: a.created_at,
          type: a.type,
          field: a.field,
          old_value: a.old_value,
          new_value: a.new_value,
        }),
      ),
  ];
  return entries.sort((a, b) => a.created_at.localeCompare(b.created_at));
}

export function viewOf(detail: AgreedDetail): TicketView {
  return {
    detail,
    timeline: detail.timeline ?? assembleTimeline(detail),
    member: detail.member ?? (detail.user ? { ...detail.user, other_tickets: null } : null),
    conversation: detail.conversation ?? null,
    version: String(detail.version ?? detail.updated_at),
  };
}

export async function loadTicket(id: number): Promise<TicketView> {
  const answer = await call(api.GET('/api/admin/tickets/{id}', { params: { path: { id } } }));
  return viewOf(answer.data);
}

/** The agreed fields of the staff update (priority, category and tags join status and assignee). */
export type TicketChange = NonNullable<
  paths['/api/admin/tickets/{id}']['put']['requestBody']
>['content']['application/json'] & {
  priority?: 'low' | 'normal' | 'high';
  category?: string | null;
  tags?: number[];
};

export async function updateTicket(id: number, change: TicketChange): Promise<TicketView> {
  const answer = await call(api.PUT('/api/admin/tickets/{id}', { params: { path: { id } }, body: change }));
  return viewOf(answer.data);
}

export function attachmentUrl(ticketId: number, attachmentId: number): string {
  return `/api/admin/tickets/${ticketId}/attachments/${attachmentId}/download`;
}

export const PREVIEWABLE = new Set(['image/png', 'image/jpeg', 'image/gif']);
