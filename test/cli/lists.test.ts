// The operator CLI as an operator meets it: user:list and token:list, --verbose naming the
// database, the warning when DATA_DIR is unset, negative numbers, and a .env file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/app.js';
import { runCli } from '../helpers/process.js';

// A guard against a hang, not a speed bound: a test here runs the CLI process several times.
vi.setConfig({ testTimeout: 120_000 });

describe('operator CLI: lists and the environment', () => {
  let t: TestDatabase;
  const cli = (...args: string[]) => runCli(args, t.env);
  const lines = (stdout: string) =>
    stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  beforeAll(async () => {
    t = await createTestDatabase();
    expect(
      (await cli('user:create', '--email', 'Lin@Ops.test', '--first-name', 'Lin', '--last-name', 'Admin', '--admin'))
        .code,
    ).toBe(0);
    expect(
      (await cli('user:create', '--email', 'mo_x@ops.test', '--first-name', 'Mo', '--last-name', 'Member')).code,
    ).toBe(0);
    expect(
      (await cli('user:create', '--email', 'moxy@ops.test', '--first-name', 'Moxy', '--last-name', 'Member')).code,
    ).toBe(0);
  });
  afterAll(() => t.destroy());

  it('user:list prints every user as JSON lines; --admin and --email-like narrow it (wildcards taken literally)', async () => {
    const all = await cli('user:list');
    expect(all.code).toBe(0);
    expect(lines(all.stdout).map((u) => u.email)).toEqual(['lin@ops.test', 'mo_x@ops.test', 'moxy@ops.test']);
    expect(lines(all.stdout)[0]).toEqual({
      id: expect.any(Number),
      email: 'lin@ops.test',
      first_name: 'Lin',
      last_name: 'Admin',
      is_admin: true,
      role: 'admin',
      active: true,
      created_at: expect.any(String),
    });
    expect(all.stderr.trim()).toBe('3 users');
    expect(lines((await cli('user:list', '--admin')).stdout).map((u) => u.email)).toEqual(['lin@ops.test']);
    expect(lines((await cli('user:list', '--email-like', 'MO_')).stdout).map((u) => u.email)).toEqual([
      'mo_x@ops.test',
    ]);
    expect(lines((await cli('user:list', '--email-like', 'nobody')).stdout)).toEqual([]);
  });

  it('token:list shows each token with its dates and revocation, never the secret', async () => {
    const made = await cli('token:create', '--email', 'lin@ops.test', '--name', 'deploy', '--expires-in-days', '30');
    expect(made.code).toBe(0);
    const secret = made.stdout.trim().split('\n').at(-1)!;
    const id = Number(secret.split('|')[0]);
    expect((await cli('token:revoke', '--id', String(id))).code).toBe(0);
    await cli('token:create', '--email', 'lin@ops.test');
    const listed = await cli('token:list', '--email', 'LIN@ops.test');
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain(secret.split('|')[1]!);
    const tokens = lines(listed.stdout);
    expect(tokens).toHaveLength(2);
    expect(tokens[0]).toEqual({
      id,
      name: 'deploy',
      created_at: expect.any(String),
      last_used_at: null,
      expires_at: expect.any(String),
      revoked_at: expect.any(String),
    });
    expect(tokens[1]).toMatchObject({ name: 'default', expires_at: null, revoked_at: null });
    const unknown = await cli('token:list', '--email', 'ghost@ops.test');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe('error: no user with email ghost@ops.test');
  });

  it('answers a negative number with the same message as zero', async () => {
    const zero = await cli('token:create', '--email', 'lin@ops.test', '--expires-in-days', '0');
    const negative = await cli('token:create', '--email', 'lin@ops.test', '--expires-in-days', '-1');
    expect(zero.code).toBe(2);
    expect(negative.code).toBe(2);
    expect(negative.stderr).toBe(zero.stderr);
    expect(negative.stderr.trim()).toBe('error: --expires-in-days must be a positive whole number');
  });

  it('--verbose names the database the command opened', async () => {
    const res = await cli('user:list', '--verbose');
    expect(res.code).toBe(0);
    const first = res.stderr.split('\n')[0]!;
    if (testDialect === 'postgres') expect(first).toMatch(/^database: postgres postgres:\/\/127\.0\.0\.1:5432\/\w+$/);
    else expect(first).toBe(`database: sqlite ${path.join(t.dataDir, 'platform.sqlite')}`);
  });

  it('reads a .env file (ENV_FILE), and a variable set in the environment wins over it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-env-'));
    const file = path.join(dir, 'settings.env');
    const other = path.join(dir, 'other-data');
    fs.writeFileSync(file, `DATA_DIR=${other}\nAPP_URL=https://from-file.example\n`);
    const { DATA_DIR: _dataDir, DATABASE_URL: _url, ...rest } = t.env;
    const fromFile = await runCli(['user:list', '--verbose'], { ...rest, DATABASE_URL: '', ENV_FILE: file });
    expect(fromFile.code).toBe(0);
    expect(fromFile.stderr.split('\n')[0]).toBe(`database: sqlite ${path.join(other, 'platform.sqlite')}`);
    const envWins = await runCli(['user:list', '--verbose'], {
      ...rest,
      DATABASE_URL: '',
      DATA_DIR: path.join(dir, 'env-data'),
      ENV_FILE: file,
    });
    expect(envWins.stderr.split('\n')[0]).toBe(`database: sqlite ${path.join(dir, 'env-data', 'platform.sqlite')}`);
    const missing = await runCli(['user:list'], { ...rest, ENV_FILE: path.join(dir, 'none.env') });
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe(`error: ENV_FILE names ${path.join(dir, 'none.env')}, which does not exist`);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('warns when DATA_DIR is unset and ./data is about to be created', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-cwd-'));
    const { DATA_DIR: _dataDir, DATABASE_URL: _url, ...rest } = t.env;
    const first = await runCli(['user:list'], { ...rest, DATABASE_URL: '' }, dir);
    expect(first.code).toBe(0);
    expect(first.stderr.split('\n')[0]).toBe(
      `warning: DATA_DIR is not set: creating ${path.join(fs.realpathSync(dir), 'data')} for the database (set DATA_DIR to the server's)`,
    );
    const second = await runCli(['user:list'], { ...rest, DATABASE_URL: '' }, dir);
    expect(second.stderr).not.toContain('warning');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
