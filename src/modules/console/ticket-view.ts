// The ticket as staff see it: the member's detail plus the whole story in order (the member's
// message, comments, internal notes, the activity trail), the member with their other tickets,
// the assistant conversation it was escalated from, and its version (for the warning before a
// reply). Built only for the staff routes: the member's GET /api/tickets/{id} never calls this.
import type { AppDeps } from '../../core/deps.js';
import { person } from '../tickets/presenter.js';
import type { TicketRow } from '../tickets/rows.js';
import { ticketDetail, ticketVersion } from '../tickets/service.js';
import { usersByIds, type UserRecord } from '../users/service.js';
import * as repo from './ticket-query.js';

const OTHER_TICKETS = 20;
/** Activities the story already tells as entries of their own. */
const TOLD_ELSEWHERE = new Set(['created', 'comment_added', 'attachment_added']);

type Detail = Awaited<ReturnType<typeof ticketDetail>>;
type Author = { id: number | null; first_name: string | null; last_name: string | null; role: 'member' | 'staff' };

export interface TimelineEntry {
  kind: 'message' | 'reply' | 'note' | 'activity';
  id: string;
  author: Author | null;
  body: string;
  attachments: Detail['attachments'];
  created_at: string;
  type?: string;
  field?: string | null;
  old_value?: string | null;
  new_value?: string | null;
}

const as = (
  who: { id: number | null; first_name: string | null; last_name: string | null } | null,
  role: Author['role'],
) => (who ? { id: who.id, first_name: who.first_name, last_name: who.last_name, role } : null);

/** The story in order (ties keep the order: message, comments, notes, activities, each by id). */
export function timelineOf(detail: Detail, notes: repo.NoteRow[], people: Map<number, UserRecord>) {
  const entries: TimelineEntry[] = [
    {
      kind: 'message',
      id: 'ticket',
      author: as(detail.user, 'member'),
      body: detail.message,
      attachments: detail.attachments,
      created_at: detail.created_at,
    },
    ...detail.comments.map(
      (c): TimelineEntry => ({
        kind: c.is_staff ? 'reply' : 'message',
        id: `comment-${c.id}`,
        author: as(c.user, c.is_staff ? 'staff' : 'member'),
        body: c.message,
        attachments: c.attachments,
        created_at: c.created_at,
      }),
    ),
    ...notes.map(
      (n): TimelineEntry => ({
        kind: 'note',
        id: `note-${n.id}`,
        author: as(n.user_id === null ? null : person(people.get(n.user_id)), 'staff'),
        body: n.message,
        attachments: [],
        created_at: n.created_at,
      }),
    ),
    ...detail.activities
      .filter((a) => !TOLD_ELSEWHERE.has(a.type))
      .map(
        (a): TimelineEntry => ({
          kind: 'activity',
          id: `activity-${a.id}`,
          author: as(a.user, 'staff'),
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
  // A stable sort: entries of the same instant keep the order above.
  return entries.sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
}

export async function staffTicketView(deps: AppDeps, ticket: TicketRow) {
  const [detail, notes, others, conversation, version] = await Promise.all([
    ticketDetail(deps, ticket),
    repo.notesOf(deps.db, ticket.id),
    repo.otherTickets(deps.db, { userId: ticket.user_id, email: ticket.email }, ticket.id, OTHER_TICKETS),
    repo.conversationOf(deps.db, ticket.id),
    ticketVersion(deps, ticket.id),
  ]);
  const authors = await usersByIds(
    deps.db,
    notes.map((n) => n.user_id).filter((id): id is number => id !== null),
  );
  return {
    ...detail,
    timeline: timelineOf(detail, notes, authors),
    ...(detail.user ? { member: { ...detail.user, other_tickets: others } } : {}),
    conversation,
    version: String(version),
  };
}
