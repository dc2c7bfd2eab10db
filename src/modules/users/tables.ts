import type { Generated } from 'kysely';

export interface UsersTable {
  id: Generated<number>;
  first_name: string;
  last_name: string;
  /** Stored lower-cased: addresses are unique and compared case-insensitively. */
  email: string;
  is_admin: Generated<number>;
  /** member, support or admin; kept in step with is_admin (migration 202611251600). */
  role: Generated<string>;
  /** en or fa: the language of messages written for this user when no request is in play. */
  locale: Generated<string>;
  created_at: string;
  updated_at: string;
  /** 1, or 0 for a user the platform deactivated: none of their tokens signs in (migration 202611231800). */
  active: Generated<number>;
}

export interface PersonalAccessTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  /** SHA-256 of the secret part, hex. The plaintext is shown once and never stored. */
  token_hash: string;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

/** A one-time sign-in link to the staff console (migration 202611251600). */
export interface ConsoleLinksTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 of the link's secret, hex. */
  token_hash: string;
  created_at: string;
  expires_at: string;
  /** Set when the link was used; a used link never signs in again. */
  used_at: string | null;
}

/** A staff console session, carried by a cookie (migration 202611251600). */
export interface ConsoleSessionsTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 of the cookie's value, hex. */
  token_hash: string;
  user_agent: string | null;
  created_at: string;
  last_seen_at: string;
  /** last_seen_at plus the idle lifetime: the session ends then unless used before. */
  idle_expires_at: string;
  /** The absolute end, whatever the use. */
  expires_at: string;
  revoked_at: string | null;
}

export interface UserTables {
  users: UsersTable;
  personal_access_tokens: PersonalAccessTokensTable;
  console_links: ConsoleLinksTable;
  console_sessions: ConsoleSessionsTable;
}
