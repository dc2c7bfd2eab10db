import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandFailed, UsageError } from '../../src/cli/command.js';
import { commands } from '../../src/modules/notifications/commands.js';
import { makeUser } from '../helpers/factories.js';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';
import { runCli } from '../helpers/process.js';

type Values = Record<string, string | boolean | undefined>;

describe('operator CLI: notification events', () => {
  let t: TestDatabase;
  let ownerId: number;
  let investorId: number;

  beforeAll(async () => {
    t = await createTestDatabase({ APP_URL: 'https://app.example.com' });
    ownerId = (await makeUser(t.db, { firstName: 'Olga', lastName: 'Owner' })).id;
    investorId = (await makeUser(t.db, { firstName: 'Igor', lastName: 'Investor', locale: 'fa' })).id;
  });
  afterAll(() => t.destroy());

  /** Runs a command in-process; returns what it printed to standard output. */
  async function run(name: string, values: Values): Promise<any> {
    const command = commands.find((c) => c.name === name)!;
    const out: string[] = [];
    await command.run(values, {
      config: t.config,
      db: t.db,
      dialect: t.handle.dialect,
      out: (l) => out.push(l),
      progress: () => {},
    });
    expect(out).toHaveLength(1);
    return JSON.parse(out[0]!);
  }

  const notificationsOf = (userId: number) =>
    t.db.selectFrom('notifications').select(['type', 'data']).where('user_id', '=', userId).orderBy('seq').execute();

  it('event:project-status creates the project and notifies the owner, printing JSON', async () => {
    const printed = await run('event:project-status', {
      project: '71',
      title: 'Greenhouse',
      'owner-id': String(ownerId),
      status: 'approved',
      comment: 'Welcome',
    });
    expect(printed).toEqual({
      created: true,
      data: expect.objectContaining({ id: 71, owner_id: ownerId, title: 'Greenhouse', status: 'approved' }),
      notification_ids: [expect.any(String)],
    });
    const [n] = await notificationsOf(ownerId);
    expect(JSON.parse(n!.data)).toEqual({
      type: 'project_status_changed',
      project_id: 71,
      project_title: 'Greenhouse',
      status: 'approved',
      message: 'Your project "Greenhouse" has been approved.',
      comment: 'Welcome',
      url: 'https://app.example.com/projects/71',
    });
    const again = await run('event:project-status', {
      project: '71',
      title: 'Greenhouse',
      'owner-id': String(ownerId),
      status: 'approved',
    });
    expect(again).toMatchObject({ created: false, notification_ids: [] });
  });

  it('event:revision-request notifies the owner', async () => {
    const printed = await run('event:revision-request', { project: '71', notes: 'Add photos' });
    expect(printed.notification_ids).toHaveLength(1);
    const types = (await notificationsOf(ownerId)).map((n) => n.type);
    expect(types.at(-1)).toBe('project_revision_requested');
  });

  it('event:investment-status with paid notifies the investor (in fa) and the owner', async () => {
    const printed = await run('event:investment-status', {
      investment: '501',
      project: '71',
      'investor-id': String(investorId),
      amount: '9007199254740991',
      status: 'paid',
    });
    expect(printed.data).toMatchObject({ id: 501, amount: 9007199254740991, status: 'paid', notes: null });
    expect(printed.notification_ids).toHaveLength(2);
    const [forInvestor] = await notificationsOf(investorId);
    expect(JSON.parse(forInvestor!.data).message).toBe('پرداخت ۹٬۰۰۷٬۱۹۹٬۲۵۴٬۷۴۰٬۹۹۱ شما برای «Greenhouse» دریافت شد.');
    const forOwner = (await notificationsOf(ownerId)).at(-1)!;
    expect(JSON.parse(forOwner.data)).toMatchObject({
      type: 'new_investment_received',
      investor_name: 'Igor Investor',
      amount: 9007199254740991,
    });
  });

  it.each<[string, Values, string]>([
    ['event:project-status', { title: 'T', 'owner-id': '1', status: 'approved' }, '--project is required'],
    [
      'event:project-status',
      { project: 'x', title: 'T', 'owner-id': '1', status: 'approved' },
      '--project must be a whole number from 1 to 2147483647',
    ],
    [
      'event:project-status',
      { project: '1', title: 'T', 'owner-id': '1', status: 'funded' },
      '--status must be one of draft, under_review, approved, rejected, archived',
    ],
    [
      'event:project-status',
      { project: '1', title: 'T'.repeat(256), 'owner-id': '1', status: 'draft' },
      '--title must be at most 255 characters',
    ],
    ['event:revision-request', { project: '1' }, '--notes is required'],
    [
      'event:investment-status',
      { investment: '1', project: '1', 'investor-id': '1', amount: '-5', status: 'paid' },
      '--amount must be a whole number from 0 to 9007199254740991',
    ],
    [
      'event:investment-status',
      { investment: '1', project: '1', 'investor-id': '1', amount: '9007199254740992', status: 'paid' },
      '--amount must be a whole number from 0 to 9007199254740991',
    ],
    [
      'event:investment-status',
      { investment: '1', project: '1', 'investor-id': '1', amount: '5', status: 'approved' },
      '--status must be one of pending, paid, active, completed, cancelled, refunded',
    ],
  ])('%s refuses %j with a usage error', async (name, values, message) => {
    await expect(run(name, values)).rejects.toThrow(new UsageError(message));
  });

  it('fails in one line naming an unknown owner, project or investor, writing nothing', async () => {
    await expect(
      run('event:project-status', { project: '900', title: 'T', 'owner-id': '999999', status: 'approved' }),
    ).rejects.toThrow(new CommandFailed('There is no user with id 999999.'));
    await expect(run('event:revision-request', { project: '900', notes: 'n' })).rejects.toThrow(
      new CommandFailed('The selected project id is invalid.'),
    );
    await expect(
      run('event:investment-status', {
        investment: '900',
        project: '900',
        'investor-id': '999999',
        amount: '1',
        status: 'paid',
      }),
    ).rejects.toThrow(new CommandFailed('The selected project id is invalid. There is no user with id 999999.'));
    expect(await t.db.selectFrom('projects').select('id').where('id', '=', 900).executeTakeFirst()).toBeUndefined();
    expect(await t.db.selectFrom('investments').select('id').where('id', '=', 900).executeTakeFirst()).toBeUndefined();
  });

  it('works through the real CLI process: JSON on stdout, one-line errors with exit codes', async () => {
    const ok = await runCli(
      [
        'event:project-status',
        '--project',
        '72',
        '--title',
        'Mill',
        '--owner-id',
        String(ownerId),
        '--status',
        'under_review',
      ],
      t.env,
    );
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout.trim())).toMatchObject({ created: true, data: { id: 72, status: 'under_review' } });
    const bad = await runCli(['event:investment-status', '--investment', '1'], t.env);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe('error: --project is required');
    const unknown = await runCli(['event:revision-request', '--project', '999', '--notes', 'n'], t.env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe('error: The selected project id is invalid.');
  });
});
