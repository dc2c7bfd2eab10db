import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowIso } from '../../src/db/index.js';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/app.js';

// Another process takes SQLite's write lock, writes, and commits after a short while: what an
// operator command does while the server runs.
function holdWriteLock(file: string, ms: number): Promise<void> {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1]);
    db.pragma('busy_timeout = 5000');
    db.exec('BEGIN IMMEDIATE');
    db.prepare("insert into users (first_name, last_name, email, created_at, updated_at) values ('Lock', " +
      "'Holder', 'holder@example.com', ?, ?)").run(new Date().toISOString(), new Date().toISOString());
    process.stdout.write('locked\\n');
    setTimeout(() => { db.exec('COMMIT'); db.close(); }, Number(process.argv[2]));
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script, file, String(ms)], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.once('data', () => resolve());
    child.on('error', reject);
    child.on('exit', (code) => code !== 0 && reject(new Error(`lock holder exited ${code}`)));
  });
}

describe.skipIf(testDialect !== 'sqlite')('SQLite transactions and a second writer', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.destroy());

  it('waits for a short lock held by another process instead of failing a read-then-write transaction', async () => {
    await holdWriteLock(t.handle.sqliteFile!, 400);
    const inserted = await t.db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const now = nowIso();
      await trx
        .insertInto('users')
        .values({ first_name: 'A', last_name: 'B', email: 'after@example.com', created_at: now, updated_at: now })
        .execute();
      return Number(before.n);
    });
    // The transaction began after the other process committed: it saw that row, and both rows exist.
    expect(inserted).toBe(1);
    const emails = (await t.db.selectFrom('users').select('email').orderBy('id').execute()).map((r) => r.email);
    expect(emails).toEqual(['holder@example.com', 'after@example.com']);
  });
});
