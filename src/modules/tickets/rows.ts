// The shapes the tickets' queries read and write, and their column lists: shared by
// repository.ts, list-query.ts and detail-query.ts, so none of them imports another for a type.
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { UserRecord } from '../users/service.js';
import type { TicketActivitiesTable, TicketAttachmentsTable, TicketsTable } from './tables.js';

/** The database or a transaction: every query function takes one as its first argument. */
export type Db = Kysely<Database> | Transaction<Database>;

export const TICKET_COLUMNS = [
  'id',
  'tracking_code',
  'user_id',
  'email',
  'subject',
  'message',
  'status',
  'priority',
  'category',
  'source',
  'assignee_id',
  'sla_deadline',
  'first_response_due_at',
  'first_response_at',
  'resolved_at',
  'created_at',
  'updated_at',
] as const;

/** A ticket as read from the database. */
export type TicketRow = Selectable<TicketsTable>;

/** What a list row shows (the summary, its SLA status and, for staff, the owner): not the message. */
export const SUMMARY_COLUMNS = [
  'id',
  'tracking_code',
  'user_id',
  'email',
  'subject',
  'status',
  'priority',
  'category',
  'assignee_id',
  'sla_deadline',
  'resolved_at',
  'created_at',
] as const;

export type TicketSummaryRow = Pick<TicketRow, (typeof SUMMARY_COLUMNS)[number]>;

export type NewTicketRow = Omit<TicketsTable, 'id' | 'source'> & { source: string };

/** A person a ticket names (owner, assignee, author), as the users boundary gives them. */
export type PersonRow = Pick<UserRecord, 'id' | 'first_name' | 'last_name' | 'email' | 'is_admin'>;

export interface TagRow {
  id: number;
  name: string;
}

export const TAG_COLUMNS = ['id', 'name'] as const;

export interface ActivityValues {
  ticket_id: number;
  user_id: number | null;
  type: string;
  field?: string | null;
  old_value?: string | null;
  new_value?: string | null;
  created_at: string;
}

/** An activity as the detail view reads it. */
export type ActivityRow = Omit<Selectable<TicketActivitiesTable>, 'ticket_id'>;

export const ACTIVITY_COLUMNS = ['id', 'user_id', 'type', 'field', 'old_value', 'new_value', 'created_at'] as const;

export interface CommentRow {
  id: number;
  ticket_id: number;
  user_id: number | null;
  message: string;
  is_staff: number;
  created_at: string;
}

export const COMMENT_COLUMNS = ['id', 'ticket_id', 'user_id', 'message', 'is_staff', 'created_at'] as const;

export type AttachmentRow = Selectable<TicketAttachmentsTable>;

export const ATTACHMENT_COLUMNS = [
  'id',
  'ticket_id',
  'comment_id',
  'file_name',
  'file_type',
  'file_size',
  'storage_key',
  'created_at',
] as const;
