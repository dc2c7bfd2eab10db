import type { Generated } from 'kysely';

export interface MailOutboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  /** pending -> sent or failed; a sent mail a delivery report refers to becomes bounced. */
  status: Generated<'pending' | 'sent' | 'failed' | 'bounced'>;
  attempts: Generated<number>;
  next_attempt_at: string;
  locked_until: string | null;
  last_error: string | null;
  sent_at: string | null;
  created_at: string;
  /** <...@domain>, fixed when the mail is written so every retry sends the same one. */
  message_id: string | null;
  in_reply_to: string | null;
  /** Message-IDs separated by spaces. */
  references_header: string | null;
  reply_to: string | null;
  /** 1: sent with Auto-Submitted: auto-generated (confirmations, status changes). */
  auto_submitted: Generated<number>;
  ticket_id: number | null;
  bounced_at: string | null;
}

export type InboundStatus = 'comment' | 'ticket' | 'held' | 'accepted' | 'rejected' | 'deferred' | 'ignored' | 'bounce';

export interface InboundMailTable {
  id: Generated<number>;
  message_id: string;
  from_address: string | null;
  subject: string;
  status: InboundStatus;
  reason: string | null;
  ticket_id: number | null;
  comment_id: number | null;
  outbox_id: number | null;
  original_text: string;
  raw_message: string | null;
  decided_by: number | null;
  decided_at: string | null;
  created_at: string;
}

export interface MailInboxStateTable {
  mailbox: string;
  uid_validity: string;
  last_uid: number;
  updated_at: string;
}

export interface MailLeasesTable {
  name: string;
  holder: string;
  expires_at: string;
}

export interface MailTables {
  mail_outbox: MailOutboxTable;
  inbound_mail: InboundMailTable;
  mail_inbox_state: MailInboxStateTable;
  mail_leases: MailLeasesTable;
}
