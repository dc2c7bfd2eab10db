import type { Generated } from 'kysely';

/** Internal notes: staff-only, never read by a member's answer (migration 202611251700). */
export interface TicketNotesTable {
  id: Generated<number>;
  ticket_id: number;
  user_id: number | null;
  message: string;
  created_at: string;
}

export interface SavedRepliesTable {
  id: Generated<number>;
  title: string;
  body: string;
  /** en or fa. */
  lang: string;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

/** Who is on a ticket's page (the database form of presence). */
export interface TicketPresenceTable {
  ticket_id: number;
  user_id: number;
  /** viewing or replying. */
  state: string;
  expires_at: string;
}

export interface ConsoleTables {
  ticket_notes: TicketNotesTable;
  saved_replies: SavedRepliesTable;
  ticket_presence: TicketPresenceTable;
}
