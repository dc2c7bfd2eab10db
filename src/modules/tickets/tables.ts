import type { Generated } from 'kysely';

export type TicketStatus = 'open' | 'in-progress' | 'closed';
export type TicketPriority = 'low' | 'normal' | 'high';

export interface TicketsTable {
  id: Generated<number>;
  tracking_code: string;
  user_id: number | null;
  /** The owner's address, lower-cased; ownership matches user_id or this. */
  email: string | null;
  subject: string;
  message: string;
  status: TicketStatus;
  priority: TicketPriority;
  category: string | null;
  /** api or assistant (escalation). */
  source: Generated<string>;
  assignee_id: number | null;
  sla_deadline: string;
  first_response_due_at: string;
  first_response_at: string | null;
  resolved_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface TicketCommentsTable {
  id: Generated<number>;
  ticket_id: number;
  user_id: number | null;
  message: string;
  is_staff: Generated<number>;
  created_at: string;
}

export interface TicketAttachmentsTable {
  id: Generated<number>;
  ticket_id: number;
  comment_id: number | null;
  file_name: string;
  file_type: string;
  file_size: number;
  storage_key: string;
  created_at: string;
}

export interface TagsTable {
  id: Generated<number>;
  name: string;
  created_at: string;
}

export interface TicketTagTable {
  ticket_id: number;
  tag_id: number;
}

export interface TicketActivitiesTable {
  id: Generated<number>;
  ticket_id: number;
  user_id: number | null;
  type: string;
  field: string | null;
  old_value: string | null;
  new_value: string | null;
  created_at: string;
}

// The mail outbox is generic (src/mail) and has no module of its own: it joins the schema here.
/** Operators' corrections to the SLA holiday calendar (calendar/clock.ts). */
export interface SlaHolidaysTable {
  /** Gregorian YYYY-MM-DD of the local day. */
  day: string;
  name: string | null;
  /** 0: a holiday; 1: a built-in holiday worked. */
  working: number;
  created_at: string;
}

export interface TicketTables {
  sla_holidays: SlaHolidaysTable;
  tickets: TicketsTable;
  ticket_comments: TicketCommentsTable;
  ticket_attachments: TicketAttachmentsTable;
  tags: TagsTable;
  ticket_tag: TicketTagTable;
  ticket_activities: TicketActivitiesTable;
}
