// Console sessions as the auth hook sees them: the cookie's secret to a live session of an active
// staff member, or nothing. The idle expiry moves with use, written at most once a minute per
// session so reads do not all turn into writes; it never passes the absolute end.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { UserRecord } from '../repository.js';
import { findSessionWithUser, touchSession } from './repository.js';
import { csrfTokenOf, hashOf } from './secrets.js';

const TOUCH_RESOLUTION_MS = 60_000;

export interface ConsoleSession {
  id: number;
  user: UserRecord;
  csrf_token: string;
  expires_at: string;
  idle_expires_at: string;
}

export function isStaffRole(user: Pick<UserRecord, 'role'>): boolean {
  return user.role === 'support' || user.role === 'admin';
}

export class ConsoleSessionVerifier {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly idleMinutes: number,
  ) {}

  /** The live session the cookie's secret names, when its user is active staff; else undefined. */
  async verify(secret: string): Promise<ConsoleSession | undefined> {
    const hash = hashOf(secret);
    if (!hash) return undefined;
    const found = await findSessionWithUser(this.db, hash);
    if (!found || found.session.revoked_at !== null || !isStaffRole(found.user)) return undefined;
    const now = Date.now();
    const { session } = found;
    if (Date.parse(session.expires_at) <= now || Date.parse(session.idle_expires_at) <= now) return undefined;
    let idleExpiresAt = session.idle_expires_at;
    if (now - Date.parse(session.last_seen_at) >= TOUCH_RESOLUTION_MS) {
      idleExpiresAt = new Date(Math.min(now + this.idleMinutes * 60_000, Date.parse(session.expires_at))).toISOString();
      await touchSession(this.db, session.id, new Date(now).toISOString(), idleExpiresAt);
    }
    return {
      id: session.id,
      user: found.user,
      csrf_token: csrfTokenOf(secret),
      expires_at: session.expires_at,
      idle_expires_at: idleExpiresAt,
    };
  }
}
