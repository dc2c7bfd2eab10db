import type { Generated } from 'kysely';

export interface UsersTable {
  id: Generated<number>;
  first_name: string;
  last_name: string;
  /** Stored lower-cased: addresses are unique and compared case-insensitively. */
  email: string;
  is_admin: Generated<number>;
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

export interface UserTables {
  users: UsersTable;
  personal_access_tokens: PersonalAccessTokensTable;
}
