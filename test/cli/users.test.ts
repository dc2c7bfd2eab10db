import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { findUserByEmail } from '../../src/modules/users/repository.js';
import { TokenVerifier } from '../../src/modules/users/tokens.js';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';
import { runCli } from '../helpers/process.js';

// A guard against a hang, not a speed bound: a test here runs the CLI process several times.
vi.setConfig({ testTimeout: 120_000 });

describe('operator CLI: users and tokens', () => {
  let t: TestDatabase;
  const cli = (...args: string[]) => runCli(args, t.env);

  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.destroy());

  it('lists the commands with --help', async () => {
    const res = await cli('--help');
    expect(res.code).toBe(0);
    for (const name of ['user:create', 'token:create', 'token:revoke', 'user:set-admin', 'db:migrate']) {
      expect(res.stdout).toContain(name);
    }
  });

  it("shows a command's options with <command> --help", async () => {
    const res = await cli('token:create', '--help');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('--expires-in-days');
  });

  it('db:migrate reports the database is up to date after migrations ran', async () => {
    const res = await cli('db:migrate');
    expect(res.code).toBe(0);
    expect(res.stdout.trim()).toBe('database is up to date');
  });

  it('user:create prints the user as JSON and stores the email lower-cased', async () => {
    const res = await cli(
      'user:create',
      '--email',
      'Ada@Example.com',
      '--first-name',
      'Ada',
      '--last-name',
      'Lovelace',
      '--admin',
    );
    expect(res.code).toBe(0);
    const printed = JSON.parse(res.stdout.trim());
    expect(printed).toEqual({
      id: expect.any(Number),
      email: 'ada@example.com',
      first_name: 'Ada',
      last_name: 'Lovelace',
      is_admin: true,
      role: 'admin',
    });
    const stored = await findUserByEmail(t.db, 'ADA@example.com');
    expect(stored?.id).toBe(printed.id);
    expect(stored?.is_admin).toBe(true);
  });

  it('user:create refuses a duplicate email, whatever its case, in one line', async () => {
    const res = await cli('user:create', '--email', 'ADA@example.com', '--first-name', 'A', '--last-name', 'B');
    expect(res.code).toBe(1);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toContain('already exists');
  });

  it.each([
    [['user:create', '--first-name', 'A', '--last-name', 'B'], '--email is required'],
    [
      ['user:create', '--email', 'not-an-email', '--first-name', 'A', '--last-name', 'B'],
      '--email must be an email address',
    ],
    [
      ['user:create', '--email', 'x@example.com', '--first-name', 'A', '--last-name', 'B', '--bogus'],
      "Unknown option '--bogus'",
    ],
    [
      ['token:create', '--email', 'ada@example.com', '--expires-in-days', 'soon'],
      '--expires-in-days must be a positive whole number',
    ],
    [['token:revoke'], 'give --id ID, or --email E --all'],
    [['user:set-admin', '--email', 'ada@example.com', '--on', '--off'], 'exactly one of --on or --off'],
    [['no:such-command'], 'unknown command'],
  ])('rejects bad arguments %j with one line and exit code 2', async (args, message) => {
    const res = await cli(...args);
    expect(res.code).toBe(2);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toContain(message);
    expect(res.stderr).not.toMatch(/\bat .*\.ts:\d+/);
  });

  it('token:create prints a working token alone on the last line', async () => {
    const res = await cli('token:create', '--email', 'ada@example.com', '--name', 'laptop', '--expires-in-days', '30');
    expect(res.code).toBe(0);
    const token = res.stdout.trim().split('\n').at(-1)!;
    expect(token).toMatch(/^\d+\|[A-Za-z0-9]{40}$/);
    const user = await new TokenVerifier(t.db).verify(token);
    expect(user?.email).toBe('ada@example.com');
    const row = await t.db
      .selectFrom('personal_access_tokens')
      .select(['name', 'expires_at', 'token_hash'])
      .where('id', '=', Number(token.split('|')[0]))
      .executeTakeFirstOrThrow();
    expect(row.name).toBe('laptop');
    expect(Date.parse(row.expires_at!)).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    expect(row.token_hash).not.toContain(token.split('|')[1]);
  });

  it('token:create for an unknown email fails with exit code 1', async () => {
    const res = await cli('token:create', '--email', 'nobody@example.com');
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe('error: no user with email nobody@example.com');
  });

  it('token:revoke --id makes the token stop working', async () => {
    const created = await cli('token:create', '--email', 'ada@example.com');
    const token = created.stdout.trim().split('\n').at(-1)!;
    const id = token.split('|')[0]!;
    const res = await cli('token:revoke', '--id', id);
    expect(res.code).toBe(0);
    expect(await new TokenVerifier(t.db).verify(token)).toBeUndefined();
    const again = await cli('token:revoke', '--id', id);
    expect(again.code).toBe(1);
  });

  it('token:revoke --email --all revokes every token of the user', async () => {
    const tokens = [];
    for (let i = 0; i < 2; i++)
      tokens.push((await cli('token:create', '--email', 'ada@example.com')).stdout.trim().split('\n').at(-1)!);
    const res = await cli('token:revoke', '--email', 'ada@example.com', '--all');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/revoked \d+ tokens of ada@example.com/);
    for (const token of tokens) expect(await new TokenVerifier(t.db).verify(token)).toBeUndefined();
  });

  it('user:set-admin turns administrator rights off and on', async () => {
    const off = await cli('user:set-admin', '--email', 'ada@example.com', '--off');
    expect(off.code).toBe(0);
    expect((await findUserByEmail(t.db, 'ada@example.com'))?.is_admin).toBe(false);
    const on = await cli('user:set-admin', '--email', 'ada@example.com', '--on');
    expect(on.code).toBe(0);
    expect((await findUserByEmail(t.db, 'ada@example.com'))?.is_admin).toBe(true);
  });

  it("user:create --id gives the user the platform's id; later users without --id take ids above it", async () => {
    const res = await cli(
      'user:create',
      '--id',
      '424242',
      '--email',
      'service@example.com',
      '--first-name',
      'Platform',
      '--last-name',
      'Service',
      '--admin',
    );
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout.trim())).toMatchObject({ id: 424242, email: 'service@example.com', is_admin: true });
    const next = await cli('user:create', '--email', 'after-id@example.com', '--first-name', 'A', '--last-name', 'B');
    expect(next.code).toBe(0);
    expect(JSON.parse(next.stdout.trim()).id).toBeGreaterThan(424242);
    const taken = await cli(
      'user:create',
      '--id',
      '424242',
      '--email',
      'other@example.com',
      '--first-name',
      'A',
      '--last-name',
      'B',
    );
    expect(taken.code).toBe(1);
    expect(taken.stderr.trim()).toBe('error: a user with id 424242 already exists');
  });

  it('token:create refuses an inactive user in one line', async () => {
    await t.db.updateTable('users').set({ active: 0 }).where('email', '=', 'after-id@example.com').execute();
    const res = await cli('token:create', '--email', 'after-id@example.com');
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe('error: after-id@example.com is inactive: its tokens would not sign in');
  });

  it('exits non-zero with one line naming a badly set variable', async () => {
    const res = await runCli(['db:migrate'], { ...t.env, DATABASE_URL: 'mysql://x' });
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe('error: DATABASE_URL must be a postgres:// URL (got "mysql://x")');
  });
});
