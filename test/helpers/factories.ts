// Fixtures written behind the service. Users and tokens are the harness's (harness/users.ts, shared
// with the benchmarks); they are named here too so that tests import their fixtures from one place.
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.js';
import { insertTag, type NewTicketRow, type TagRow } from '../../src/modules/tickets/repository.js';

export { makeToken, makeUser, userWithToken, type TestUser } from '../../harness/users.js';

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

/** A tag, made behind the service as the CLI makes it. */
export function makeTag(db: Kysely<Database>, name: string): Promise<TagRow> {
  return insertTag(db, name, new Date().toISOString());
}
