// DATABASE_STATEMENT_TIMEOUT_MS on PostgreSQL: a statement that waits longer (here on a lock held
// by another connection) is cancelled by the server and the request is answered 503 with the
// spec's body and Retry-After, not held until the lock goes nor answered 500. The pool's
// connection is usable again afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import pg from 'pg';
import { configWith } from '../../src/config.js';
import { buildTestApp, createTestDatabase, testDialect, type TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';

describe('DATABASE_STATEMENT_TIMEOUT_MS', () => {
  it('defaults to 5 s, accepts 0 (none) and refuses other forms', async () => {
    const { loadConfig } = await import('../../src/config.js');
    expect(configWith().DATABASE_STATEMENT_TIMEOUT_MS).toBe(5_000);
    expect(loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '0' }).DATABASE_STATEMENT_TIMEOUT_MS).toBe(0);
    expect(() => loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '2s' })).toThrow(
      'DATABASE_STATEMENT_TIMEOUT_MS must be a whole number from 0 to 600000 (got "2s")',
    );
  });
});

describe.runIf(testDialect === 'postgres')('a statement over DATABASE_STATEMENT_TIMEOUT_MS', () => {
  let t: TestApp;
  let user: TestUser;
  let locker: pg.Client;

  beforeAll(async () => {
    t = await buildTestApp({ config: { DATABASE_STATEMENT_TIMEOUT_MS: 300, DATABASE_POOL_SIZE: 1 } });
    user = await t.makeUser();
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(t.db);
    locker = new pg.Client({ connectionString: t.config.DATABASE_URL, options: `-c search_path=${rows[0]!.schema}` });
    await locker.connect();
  });

  afterAll(async () => {
    await locker?.end();
    await t?.close();
  });

  it('leaves the migrations alone: they run on a connection without the timeout', async () => {
    // 1 ms would cancel nearly every DDL statement of the migrations if it applied to them.
    const database = await createTestDatabase({ DATABASE_STATEMENT_TIMEOUT_MS: 1 });
    // What the migrations left is read on a connection of its own, without the bound: under 1 ms
    // even a count may be cancelled on a slow machine.
    const reader = new pg.Client({
      connectionString: database.config.DATABASE_URL,
      options: `-c search_path=${database.schema}`,
    });
    await reader.connect();
    try {
      const { rows } = await reader.query<{ n: number }>('select count(*)::int as n from kysely_migration');
      expect(rows[0]!.n).toBeGreaterThan(10);
      // The pool's other statements still have it.
      await expect(sql`select pg_sleep(0.05)`.execute(database.db)).rejects.toThrow(
        'canceling statement due to statement timeout',
      );
    } finally {
      await reader.end();
      await database.destroy();
    }
  });

  it('is cancelled by PostgreSQL and answered 503 with Retry-After while the lock is still held', async () => {
    await locker.query('begin');
    await locker.query('lock table tickets in access exclusive mode');
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/tickets', headers: user.auth });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ message: 'Service temporarily unavailable. Please try again shortly.' });
      expect(res.headers['retry-after']).toBeDefined();
      // The lock was never released: the answer came from the timeout, not from the wait ending.
      const held = await locker.query(
        "select count(*)::int as n from pg_locks where locktype = 'relation' and mode = 'AccessExclusiveLock' and pid = pg_backend_pid()",
      );
      expect(held.rows[0].n).toBeGreaterThan(0);
    } finally {
      await locker.query('rollback');
    }
    // The single pooled connection serves the next request.
    const after = await t.app.inject({ method: 'GET', url: '/api/tickets', headers: user.auth });
    expect(after.statusCode).toBe(200);
  });
});
