// The shapes the clients see: list summaries, the full ticket, comments, activities.
import type {
  ActivityValues,
  AttachmentRow,
  CommentRow,
  PersonRow,
  TagRow,
  TicketRow,
  TicketSummaryRow,
} from './rows.js';
import { slaStatusOf, type SlaStatus } from './sla.js';

/** The clock the deadlines are counted with (calendar/clock.ts). */
export interface ClockFacts {
  kind: 'calendar' | 'business';
  timeZone: string;
}

const SLA_OBJECT_STATUS: Record<SlaStatus, 'on_track' | 'at_risk' | 'breached' | 'met'> = {
  on_time: 'on_track',
  warning: 'at_risk',
  overdue: 'breached',
  missed: 'breached',
  met: 'met',
};

/** The detail's `sla` object: both targets, the status of the resolution target, the clock. */
export function slaView(ticket: TicketRow, clock: ClockFacts, now = Date.now()) {
  return {
    clock: clock.kind,
    time_zone: clock.timeZone,
    status: SLA_OBJECT_STATUS[slaStatusOf(ticket, now)],
    first_response_due_at: ticket.first_response_due_at,
    first_response_at: ticket.first_response_at,
    resolution_due_at: ticket.sla_deadline,
    resolved_at: ticket.resolved_at,
  };
}

export interface Person {
  id: number;
  first_name: string;
  last_name: string;
  email?: string;
}

export function person(row: PersonRow | undefined, withEmail = false): Person | null {
  if (!row) return null;
  const base: Person = { id: row.id, first_name: row.first_name, last_name: row.last_name };
  return withEmail ? { ...base, email: row.email } : base;
}

export interface PersonWithEmail {
  id: number | null;
  first_name: string | null;
  last_name: string | null;
  email: string;
}

/** The owner or assignee with their address; an owner without an account is just the address. */
export function personWithEmail(
  row: PersonRow | undefined,
  fallbackEmail: string | null = null,
): PersonWithEmail | null {
  if (row) return { id: row.id, first_name: row.first_name, last_name: row.last_name, email: row.email };
  return fallbackEmail ? { id: null, first_name: null, last_name: null, email: fallbackEmail } : null;
}

export function attachmentView(row: AttachmentRow) {
  return {
    id: row.id,
    file_name: row.file_name,
    file_type: row.file_type,
    file_size: row.file_size,
    created_at: row.created_at,
  };
}

export function summaryView(
  ticket: TicketSummaryRow,
  tags: TagRow[],
  people: Map<number, PersonRow>,
  now = Date.now(),
) {
  return {
    id: ticket.id,
    tracking_code: ticket.tracking_code,
    subject: ticket.subject,
    status: ticket.status,
    priority: ticket.priority,
    category: ticket.category,
    assignee: ticket.assignee_id === null ? null : person(people.get(ticket.assignee_id)),
    tags,
    created_at: ticket.created_at,
    sla_status: slaStatusOf(ticket, now),
  };
}

/** Staff list rows also name the owner. */
export function staffSummaryView(
  ticket: TicketSummaryRow,
  tags: TagRow[],
  people: Map<number, PersonRow>,
  now = Date.now(),
) {
  const owner = ticket.user_id === null ? undefined : people.get(ticket.user_id);
  return { ...summaryView(ticket, tags, people, now), user: personWithEmail(owner, ticket.email) };
}

/** The full ticket, as POST /api/tickets returns it. */
export function fullView(
  ticket: TicketRow,
  tags: TagRow[],
  attachments: AttachmentRow[],
  people: Map<number, PersonRow>,
  clock: ClockFacts,
  now = Date.now(),
) {
  return {
    id: ticket.id,
    tracking_code: ticket.tracking_code,
    subject: ticket.subject,
    message: ticket.message,
    status: ticket.status,
    priority: ticket.priority,
    category: ticket.category,
    sla_deadline: ticket.sla_deadline,
    sla_status: slaStatusOf(ticket, now),
    first_response_due_at: ticket.first_response_due_at,
    first_response_at: ticket.first_response_at,
    resolved_at: ticket.resolved_at,
    assignee: ticket.assignee_id === null ? null : person(people.get(ticket.assignee_id)),
    tags,
    attachments: attachments.map(attachmentView),
    created_at: ticket.created_at,
    updated_at: ticket.updated_at,
    sla: slaView(ticket, clock, now),
  };
}

export function commentView(comment: CommentRow, attachments: AttachmentRow[], people: Map<number, PersonRow>) {
  return {
    id: comment.id,
    ticket_id: comment.ticket_id,
    user: comment.user_id === null ? null : person(people.get(comment.user_id)),
    message: comment.message,
    is_staff: comment.is_staff === 1,
    attachments: attachments.map(attachmentView),
    created_at: comment.created_at,
  };
}

export function activityView(activity: ActivityValues & { id: number }, people: Map<number, PersonRow>) {
  return {
    id: activity.id,
    type: activity.type,
    field: activity.field ?? null,
    old_value: activity.old_value ?? null,
    new_value: activity.new_value ?? null,
    user: activity.user_id === null ? null : person(people.get(activity.user_id)),
    created_at: activity.created_at,
  };
}
