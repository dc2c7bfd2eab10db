// The "at risk and breached" view's condition, in process on the database under test: the cheaper
// comparison the view uses (one per overdue row) selects exactly the open tickets whose sla_status
// is warning or overdue, at the millisecond boundaries and on random rows; its count equals the
// count through the sla_status filter and through slaStatusOf in JavaScript.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queueCount, viewCounts } from '../../src/modules/console/queue-query.js';
import { slaStatusOf } from '../../src/modules/tickets/sla.js';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';
import { ticketRow } from '../helpers/factories.js';

let database: TestDatabase;
const NOW = Date.parse('2026-11-25T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const HOUR = 3_600_000;

type Case = { created: number; deadline: number; status: 'open' | 'in-progress' | 'closed'; resolved?: number };

/** Rows on both sides of every boundary: the warning threshold (a quarter of the window), the deadline. */
function boundaryCases(): Case[] {
  const cases: Case[] = [];
  for (const windowMs of [24 * HOUR, 4 * HOUR + 1, 4 * HOUR + 2, 4 * HOUR + 3, 7, 1, 0]) {
    for (const left of [
      Math.floor(windowMs / 4) - 1,
      Math.floor(windowMs / 4),
      Math.ceil(windowMs / 4),
      Math.ceil(windowMs / 4) + 1,
      1,
      0,
      -1,
      -HOUR,
    ]) {
      const deadline = NOW + left;
      for (const status of ['open', 'in-progress'] as const)
        cases.push({ created: deadline - windowMs, deadline, status });
      cases.push({ created: deadline - windowMs, deadline, status: 'closed', resolved: NOW - 5 });
    }
  }
  return cases;
}

/** Random rows around now (a fixed seed, so a failure repeats). */
function randomCases(count: number): Case[] {
  let seed = 20_261_125;
  const next = (below: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % below;
  };
  return Array.from({ length: count }, () => {
    const created = NOW - next(72 * HOUR);
    const deadline = created + next(80 * HOUR) + 1;
    const status = (['open', 'in-progress', 'closed'] as const)[next(3)]!;
    return { created, deadline, status, resolved: status === 'closed' ? created + next(90 * HOUR) : undefined };
  });
}

const cases = [...boundaryCases(), ...randomCases(400)];

beforeAll(async () => {
  database = await createTestDatabase();
  const rows = cases.map((c, i) =>
    ticketRow({
      tracking_code: `TK-RISK${String(i).padStart(4, '0')}`,
      status: c.status,
      created_at: iso(c.created),
      updated_at: iso(c.created),
      sla_deadline: iso(c.deadline),
      first_response_due_at: iso(c.deadline),
      resolved_at: c.resolved === undefined ? null : iso(c.resolved),
    }),
  );
  for (let i = 0; i < rows.length; i += 200)
    await database.db
      .insertInto('tickets')
      .values(rows.slice(i, i + 200))
      .execute();
}, 120_000);

afterAll(async () => {
  await database?.destroy();
});

it('counts exactly the open tickets that are warning or overdue, as slaStatusOf says', async () => {
  const expected = cases.filter((c) => {
    if (c.status === 'closed') return false;
    const status = slaStatusOf(
      {
        status: c.status,
        created_at: iso(c.created),
        sla_deadline: iso(c.deadline),
        resolved_at: c.resolved === undefined ? null : iso(c.resolved),
      },
      NOW,
    );
    return status === 'warning' || status === 'overdue';
  }).length;
  // The seed must hold both kinds and their neighbours, or the comparison proves little.
  expect(expected).toBeGreaterThan(50);
  expect(expected).toBeLessThan(cases.length - 50);
  const context = { me: 1, nowMs: NOW };
  expect(await queueCount(database.db, { view: 'at_risk' }, context)).toBe(expected);
  expect((await viewCounts(database.db, context)).at_risk).toBe(expected);
  const bySlaStatus =
    (await queueCount(database.db, { view: 'open', sla_status: 'warning' }, context)) +
    (await queueCount(database.db, { view: 'open', sla_status: 'overdue' }, context));
  expect(bySlaStatus).toBe(expected);
});
