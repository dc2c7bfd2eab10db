import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandFailed, UsageError, type CliContext } from '../../src/cli/command.js';
import { commands } from '../../src/modules/tickets/commands.js';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';

describe('cli tag:create', () => {
  let database: TestDatabase;
  const out: string[] = [];
  let context: CliContext;
  const command = commands.find((c) => c.name === 'tag:create')!;

  beforeAll(async () => {
    database = await createTestDatabase();
    context = {
      config: database.config,
      db: database.db,
      dialect: database.handle.dialect,
      out: (l) => out.push(l),
      progress: () => {},
    };
  });
  afterAll(() => database.destroy());

  it('creates a tag and prints it as JSON', async () => {
    await command.run({ name: ' billing ' }, context);
    const printed = JSON.parse(out.at(-1)!);
    expect(printed).toEqual({ id: expect.any(Number), name: 'billing' });
    const row = await database.db
      .selectFrom('tags')
      .select(['id', 'name'])
      .where('id', '=', printed.id)
      .executeTakeFirstOrThrow();
    expect(row.name).toBe('billing');
  });

  it('refuses a duplicate name and a missing one', async () => {
    await expect(command.run({ name: 'billing' }, context)).rejects.toBeInstanceOf(CommandFailed);
    await expect(command.run({}, context)).rejects.toBeInstanceOf(UsageError);
    await expect(command.run({ name: 'x'.repeat(101) }, context)).rejects.toBeInstanceOf(UsageError);
  });
});

describe('cli holiday:list', () => {
  let database: TestDatabase;
  const out: string[] = [];
  let context: CliContext;
  const run = (name: string, values: Record<string, string>) =>
    commands.find((c) => c.name === name)!.run(values, context);

  beforeAll(async () => {
    database = await createTestDatabase();
    context = {
      config: database.config,
      db: database.db,
      dialect: database.handle.dialect,
      out: (l) => out.push(l),
      progress: () => {},
    };
  });
  afterAll(() => database.destroy());

  it("prints 1405's 26 official holidays, then a correction stored in the database", async () => {
    await run('holiday:list', { year: '1405' });
    const official = out.splice(0).map((l) => JSON.parse(l));
    expect(official).toHaveLength(26);
    expect(new Set(official.map((h) => h.source))).toEqual(new Set(['official']));
    expect(official.slice(0, 2)).toEqual([
      { date: '2026-03-21', jalali: '1405-01-01', names: ['Nowruz', 'Eid al-Fitr'], source: 'official' },
      { date: '2026-03-22', jalali: '1405-01-02', names: ['Nowruz', 'Day after Eid al-Fitr'], source: 'official' },
    ]);
    expect(official.find((h) => h.jalali === '1405-01-25')?.names).toEqual(["Martyrdom of Imam Ja'far al-Sadiq"]);

    await run('holiday:add', { date: '1405-09-10', name: 'Office closed' });
    await run('holiday:list', { year: '1405' });
    const corrected = out.splice(1).map((l) => JSON.parse(l));
    expect(corrected).toHaveLength(27);
    expect(corrected.find((h) => h.jalali === '1405-09-10')).toEqual({
      date: '2026-12-01',
      jalali: '1405-09-10',
      names: ['Office closed'],
      source: 'correction',
    });
  });

  it('refuses a year that is not a Jalali year', async () => {
    await expect(run('holiday:list', { year: '2026' })).rejects.toBeInstanceOf(UsageError);
    await expect(run('holiday:list', { year: '14o5' })).rejects.toBeInstanceOf(UsageError);
  });
});
