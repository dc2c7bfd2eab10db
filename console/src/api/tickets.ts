// The queue and the ticket as the pages use them, read through the typed client. The agreed
// extensions of the existing staff endpoints (views, the timeline, the member's other tickets,
// the version) are typed here as optional additions to the generated shapes; while the service
// lacks them (GET /api/admin/tickets/views answers 404) the queue maps each view to the filters
// the list already has and the ticket's history is assembled from its comments and activities.
import type { components, paths } from '../../generated/api';
import { api, call, currentCredential } from './client';
import type { ViewName } from './pending';

type Schemas = components['schemas'];
export type Attachment = Schemas['Attachment'];
export type Tag = Schemas['Tag'];
type ListQuery = NonNullable<paths['/api/admin/tickets']['get']['parameters']['query']>;

/** The agreed additions to the list's query (view, tag, sort by the next SLA deadline). */
interface AgreedListQuery {
  view?: ViewName;
  tag?: number;
  sort?: 'sla' | 'created_at' | 'updated_at';
}
export type QueueQuery = Omit<ListQuery, 'sort' | 'sla_status'> & AgreedListQuery;

export type Summary = Schemas['StaffTicketSummary'] & {
  sla?: { status: string; next_due_at: string | null };
  last_activity_at?: string;
};

export const VIEWS: ViewName[] = ['mine', 'unassigned', 'open', 'at_risk', 'closed'];

let viewsSupported: boolean | undefined;

/** The views endpoint's answer; its status also says whether the list understands views. */
function readViews() {
  return api.GET('/api/admin/tickets/views').then((answer) => {
    viewsSupported = answer.response.ok;
    return answer;
  });
}

/** The count of each view; from the service's views endpoint, else one list call per view. */
export async function viewCounts(): Promise<Record<ViewName, number | null>> {
  const answer = await readViews();
  const counts = Object.fromEntries(VIEWS.map((v) => [v, null])) as Record<ViewName, number | null>;
  if (answer.response.ok && answer.data) {
    for (const { view, count } of (answer.data as { data: { view: ViewName; count: number }[] }).data)
      counts[view] = count;
    return counts;
  }
  await Promise.all(
    VIEWS.map(async (view) => {
      const query = legacyQuery({ view, per_page: 1 });
      if (!query) return;
      const { meta } = await call(api.GET('/api/admin/tickets', { params: { query } }));
      counts[view] = meta.total;
    }),
  );
  return counts;
}

/** The query the current list endpoint understands for a view; null when it cannot express it. */
function legacyQuery(query: QueueQuery): ListQuery | null {
  const { view, tag: _tag, sort, ...rest } = query;
  const me = currentCredential()?.user.id;
  const base: ListQuery = { ...rest, sort: view === 'closed' || sort === 'created_at' ? 'created_at' : 'sla_deadline' };
  if (view === 'mine') return me ? { ...base, assignee_id: me } : null;
  if (view === 'open') return { ...base, status: base.status ?? 'open' };
  if (view === 'at_risk') return { ...base, sla_status: 'at_risk' };
  if (view === 'closed') return { ...base, status: 'closed' };
  if (view === 'unassigned') return null;
  return base;
}

export async function listQueue(query: QueueQuery) {
  if (viewsSupported === undefined) await readViews().catch(() => undefined);
  if (viewsSupported) {
    // The agreed query (view, tag, sort=sla) is what the service documents once it has views.
    const agreed = { sort: query.view === 'closed' ? 'updated_at' : 'sla', ...query } as ListQuery;
    const answer = await call(api.GET('/api/admin/tickets', { params: { query: agreed } }));
    return { rows: answer.data as Summary[], meta: answer.meta, exact: true };
  }
  const legacy = legacyQuery(query) ?? legacyQuery({ ...query, view: undefined })!;
  const answer = await call(api.GET('/api/admin/tickets', { params: { query: legacy } }));
  return { rows: answer.data as Summary[], meta: answer.meta, exact: legacyQuery(query) !== null };
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

export function attachmentUrl(ticketId: number, attachmentId: number, inline = false): string {
  return `/api/admin/tickets/${ticketId}/attachments/${attachmentId}/download${inline ? '?inline=1' : ''}`;
}

export const PREVIEWABLE = new Set(['image/png', 'image/jpeg', 'image/gif']);
