import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.js';
import type { NewTicketRow } from '../../src/modules/tickets/repository.js';
import { insertUser, type UserRecord } from '../../src/modules/users/repository.js';
import { createToken, revokeToken } from '../../src/modules/users/tokens.js';

export interface TestUser extends UserRecord {
  token: string;
  /** Headers that authenticate as this user. */
  auth: { authorization: string };
}

export async function makeUser(
  db: Kysely<Database>,
  options: { admin?: boolean; email?: string; firstName?: string; lastName?: string; locale?: 'en' | 'fa' } = {},
): Promise<UserRecord> {
  const suffix = randomBytes(4).toString('hex');
  return insertUser(db, {
    email: options.email ?? `user-${suffix}@example.com`,
    first_name: options.firstName ?? 'Test',
    last_name: options.lastName ?? `User ${suffix}`,
    is_admin: options.admin ?? false,
    locale: options.locale ?? 'en',
  });
}

export async function makeToken(
  db: Kysely<Database>,
  userId: number,
  options: { expiresInDays?: number; expired?: boolean; revoked?: boolean } = {},
): Promise<string> {
  const token = await createToken(db, userId, { expiresInDays: options.expiresInDays });
  if (options.expired) {
    await db
      .updateTable('personal_access_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', token.id)
      .execute();
  }
  if (options.revoked) await revokeToken(db, token.id);
  return token.plaintext;
}

/** A tickets row to insert directly (behind the service), open and due now; override what the test is about. */
export function ticketRow(overrides: Partial<NewTicketRow> & Pick<NewTicketRow, 'tracking_code'>): NewTicketRow {
  const now = new Date().toISOString();
  return {
    user_id: null,
    email: null,
    subject: 'A ticket',
    message: 'A ticket written by the test.',
    status: 'open',
    priority: 'low',
    category: null,
    source: 'api',
    assignee_id: null,
    sla_deadline: now,
    first_response_due_at: now,
    first_response_at: null,
    resolved_at: null,
    created_at: now,
    updated_at: now,
    ...overrides,
  };
}
