import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTO_CHECKPOINT_PAGES, startWalCheckpointer } from '../../src/db/checkpointer.js';
import { nowIso } from '../../src/db/index.js';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/app.js';

// SQLite's WAL checkpointed on a worker thread (src/db/checkpointer.ts) instead of inside the
// commit that grows it past 1,000 pages.
describe.skipIf(testDialect !== 'sqlite')('the WAL checkpointed by a worker thread', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.destroy());

  const autoCheckpoint = () =>
    (t.handle.pragma!('wal_autocheckpoint') as Array<{ wal_autocheckpoint: number }>)[0]!.wal_autocheckpoint;
  const walBytes = () => fs.statSync(`${t.handle.sqliteFile!}-wal`, { throwIfNoEntry: false })?.size ?? 0;

  /** Well above what the worker leaves in the WAL, well below what the writes make without it. */
  const WAL_BOUND = 12_000_000;

  /** Many small transactions, as chats make them, with the event loop let go between batches. */
  async function write(transactions: number): Promise<void> {
    const bio = 'x'.repeat(1_500);
    for (let i = 0; i < transactions; i += 1) {
      await t.db
        .insertInto('users')
        .values({
          first_name: 'Wal',
          last_name: bio,
          email: `wal-${i}-${Math.random()}@example.com`,
          created_at: nowIso(),
          updated_at: nowIso(),
        })
        .execute();
      if (i % 50 === 49) await sleep(5);
    }
  }

  it('copies the WAL into the file from its own connection while the server connection stops checkpointing', async () => {
    expect(autoCheckpoint()).toBe(AUTO_CHECKPOINT_PAGES);
    const checkpointer = await startWalCheckpointer({
      file: t.handle.sqliteFile!,
      pragma: t.handle.pragma!,
      intervalMs: 20,
      restartPages: 250,
    });
    try {
      expect(autoCheckpoint()).toBe(0);
      await write(3_000);
      for (let waited = 0; checkpointer.checkpoints === 0 && waited < 5_000; waited += 50) await sleep(50);
      expect(checkpointer.checkpoints).toBeGreaterThan(0);
      // With nobody checkpointing, the WAL holds every frame of the 3,000 transactions (about 55 MB,
      // next test); the worker lets the writer start it over past 250 pages (1 MB, 3 MB seen).
      expect(walBytes()).toBeLessThan(WAL_BOUND);
    } finally {
      await checkpointer.stop();
    }
    expect(autoCheckpoint()).toBe(AUTO_CHECKPOINT_PAGES);
  }, 60_000);

  it('without the worker, the same writes grow the WAL past that bound (the measure can fail)', async () => {
    t.handle.pragma!('wal_checkpoint(TRUNCATE)');
    t.handle.pragma!('wal_autocheckpoint = 0');
    try {
      await write(3_000);
      expect(walBytes()).toBeGreaterThan(3 * WAL_BOUND);
    } finally {
      t.handle.pragma!(`wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
      t.handle.pragma!('wal_checkpoint(TRUNCATE)');
    }
  }, 60_000);

  it('leaves checkpoints to the connection when the worker cannot open the file', async () => {
    const missing = path.join(path.dirname(t.handle.sqliteFile!), 'no-such.sqlite');
    await expect(startWalCheckpointer({ file: missing, pragma: t.handle.pragma!, intervalMs: 20 })).rejects.toThrow();
    expect(autoCheckpoint()).toBe(AUTO_CHECKPOINT_PAGES);
  }, 30_000);
});
