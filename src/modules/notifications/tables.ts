import type { Generated } from 'kysely';
import type { DataText } from './data-text.js';
import type { NotificationType } from './events.js';

/** A project as the platform reports it; the id is the platform's. */
export interface ProjectsTable {
  id: number;
  owner_id: number;
  title: string;
  status: string;
  created_at: string;
  updated_at: string;
}

/** An investment as the platform reports it; the id is the platform's. */
export interface InvestmentsTable {
  id: number;
  project_id: number;
  investor_id: number;
  /** Whole platform currency units; a 64-bit column, read back as a number (never above 2^53 - 1). */
  amount: number;
  status: string;
  notes: string | null;
  created_at: string;
  updated_at: string;
}

/** One request of an administrator for changes to a project before approval. */
export interface ProjectRevisionRequestsTable {
  id: Generated<number>;
  project_id: number;
  revision_notes: string;
  created_at: string;
}

export interface NotificationsTable {
  /** Insertion order: breaks ties between notifications created in the same millisecond. */
  seq: Generated<number>;
  /** UUID, the id clients see. */
  id: string;
  /** The recipient. */
  user_id: number;
  type: NotificationType;
  /** JSON text of the data object (which repeats the type), as data-text.ts writes it. */
  data: DataText;
  read_at: string | null;
  created_at: string;
}

/** A single-use ticket for GET /api/notifications/stream?stream_token= (migration 202611240200). */
export interface NotificationStreamTokensTable {
  /** SHA-256 (hex) of the token; the token itself is never stored. */
  token_hash: string;
  user_id: number;
  expires_at: string;
}

export interface NotificationTables {
  projects: ProjectsTable;
  investments: InvestmentsTable;
  project_revision_requests: ProjectRevisionRequestsTable;
  notifications: NotificationsTable;
  notification_stream_tokens: NotificationStreamTokensTable;
}
