// The one ownership rule of tickets/access.ts, held row by row against what is derived from it or
// written beside it: the member queries (one ticket, the list) and the answer-version triggers of
// migration 202611240100, which must raise the version of exactly the users who own the row before
// or after a change. Run on the database under test; also the tracking-code guard.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerVersion } from '../../src/db/answer-versions.js';
import { memberScope, owns, STAFF, type Owner } from '../../src/modules/tickets/access.js';
import * as repo from '../../src/modules/tickets/repository.js';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';
import { makeUser, ticketRow } from '../helpers/factories.js';

let database: TestDatabase;
let people: Owner[];
let code = 0;

beforeAll(async () => {
  database = await createTestDatabase({ LOG_LEVEL: 'silent' });
  people = await Promise.all(
    ['ada', 'bob', 'cy'].map(async (name) =>
      memberScope(await makeUser(database.db, { email: `${name}-${process.pid}@policy.test` })),
    ),
  );
});
afterAll(() => database.destroy());

type Holder = { user_id: number | null; email: string | null };

function row(holder: Holder): repo.NewTicketRow {
  return ticketRow({
    ...holder,
    tracking_code: `TK-POL${String(++code).padStart(4, '0')}`,
    subject: 'Policy',
    priority: 'normal',
  });
}

/** The ways a ticket can name its holder: a person's id and a person's email by index (null: none). */
const HOLDERS: Array<{ name: string; id: number | null; email: number | 'unknown' | null }> = [
  { name: "a's id and email", id: 0, email: 0 },
  { name: "a's id, b's email", id: 0, email: 1 },
  { name: "no id, a's email", id: null, email: 0 },
  { name: "b's id, a's email", id: 1, email: 0 },
  { name: "c's id, an unknown email", id: 2, email: 'unknown' },
  { name: 'no id, no email', id: null, email: null },
];

function holderOf(pattern: (typeof HOLDERS)[number]): Holder {
  const email =
    pattern.email === null ? null : pattern.email === 'unknown' ? 'nobody@policy.test' : people[pattern.email]!.email;
  return { user_id: pattern.id === null ? null : people[pattern.id]!.id, email };
}

async function versions(): Promise<number[]> {
  return Promise.all(people.map((p) => answerVersion(database.db, p.id, 'tickets')));
}

/** The people whose version moved between two readings. */
function raised(before: number[], after: number[]): number[] {
  return people.filter((_, i) => after[i]! > before[i]!).map((p) => p.id);
}

const ownersOf = (...tickets: Holder[]) => people.filter((p) => tickets.some((t) => owns(p, t))).map((p) => p.id);

describe('the ticket ownership rule', () => {
  it.each(HOLDERS)('$name: the queries show it to its owners only', async (pattern) => {
    const holder = holderOf(pattern);
    const ticket = (await repo.insertTicketIfCodeFree(database.db, row(holder)))!;
    for (const person of people) {
      const mine = owns(person, holder);
      expect(await repo.findTicket(database.db, ticket.id, person), `findTicket for ${person.email}`).toEqual(
        mine ? ticket : undefined,
      );
      const page = await repo.listTickets(database.db, person, {}, 100, 0);
      expect(
        page.rows.some((r) => r.id === ticket.id),
        `list for ${person.email}`,
      ).toBe(mine);
    }
    expect(await repo.findTicket(database.db, ticket.id, STAFF)).toEqual(ticket);
  });

  it.each(HOLDERS)(
    '$name: the triggers raise the versions of exactly its owners, before and after each change',
    async (pattern) => {
      const holder = holderOf(pattern);
      let before = await versions();
      const ticket = (await repo.insertTicketIfCodeFree(database.db, row(holder)))!;
      expect(raised(before, await versions())).toEqual(ownersOf(holder));

      for (const next of HOLDERS.map(holderOf)) {
        before = await versions();
        const current = await repo.findTicket(database.db, ticket.id, STAFF);
        await repo.updateTicket(database.db, ticket.id, next);
        expect(raised(before, await versions()), `update to ${JSON.stringify(next)}`).toEqual(ownersOf(current!, next));
      }

      before = await versions();
      const last = (await repo.findTicket(database.db, ticket.id, STAFF))!;
      await database.db.deleteFrom('tickets').where('id', '=', ticket.id).execute();
      expect(raised(before, await versions())).toEqual(ownersOf(last));
    },
  );
});

describe('the tracking-code guard', () => {
  it('skips a taken code without failing the statement, also inside a transaction', async () => {
    const first = row({ user_id: people[0]!.id, email: people[0]!.email });
    expect(await repo.insertTicketIfCodeFree(database.db, first)).toBeDefined();
    const again = await database.db.transaction().execute(async (trx) => {
      const taken = await repo.insertTicketIfCodeFree(trx, { ...first });
      // On PostgreSQL a failed statement would abort the transaction: this insert shows it did not.
      const other = await repo.insertTicketIfCodeFree(trx, row({ user_id: null, email: null }));
      return { taken, other };
    });
    expect(again.taken).toBeUndefined();
    expect(again.other?.tracking_code).toMatch(/^TK-POL/);
  });
});
