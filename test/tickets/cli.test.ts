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
