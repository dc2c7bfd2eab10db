// The index kept in DATA_DIR is read at start only when it is whole and was made under the same
// key from the same change log; anything else (another key, damaged or cut bytes, a file that is
// not one, a change log that is not the one it was made from) is a build, never an error.
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  changeMark,
  MAX_CATCH_UP,
  readSnapshotFile,
  SNAPSHOT_FILE,
  snapshotBytes,
  snapshotKey,
  storeIdentity,
  writeSnapshotFile,
} from '../../src/modules/kb/index-snapshot.js';
import { indexAtStart } from '../../src/modules/kb/kept-index.js';
import { createArticle } from '../../src/modules/kb/service.js';
import { nowIso } from '../../src/db/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';

let database: TestDatabase;
let file: string;
const said: string[] = [];
const log = {
  info: (_: unknown, message: string) => said.push(message),
  warn: (fields: { reason?: string }, message: string) => said.push(`${message} (${fields.reason})`),
} as unknown as FastifyBaseLogger;

beforeAll(async () => {
  database = await createTestDatabase();
  file = path.join(database.dataDir, SNAPSHOT_FILE);
}, 60_000);
afterAll(async () => {
  await database?.destroy();
});

/** A start's index (kept-index.ts), and what it said. */
async function start() {
  said.length = 0;
  return indexAtStart(database.db, file, log);
}

/** Writes the built index under a key, as the server does after listening. */
async function keep(key: string) {
  const built = await start();
  const change = await changeMark(database.db, built.seen);
  await writeSnapshotFile(file, snapshotBytes(key, { knowledge: built.knowledge, change, held: built.held }));
  return built;
}

describe('the index kept between starts', () => {
  it('is read when the key matches, and answers as the index it was written from', async () => {
    const key = await snapshotKey(database.db, 'inputs');
    const built = await keep(key);
    const found = await readSnapshotFile(database.db, file, key);
    expect('snapshot' in found).toBe(true);
    if (!('snapshot' in found)) return;
    expect(found.snapshot.change.seen).toBe(built.seen);
    expect(found.snapshot.knowledge.search('How long does a refund take?', 'en', 5)).toEqual(
      built.knowledge.search('How long does a refund take?', 'en', 5),
    );
  });

  it('is read by a start whose key is the kept one', async () => {
    const first = await start();
    expect(said).toContain('knowledge: index built');
    await keep(first.key!);
    const second = await start();
    expect(said).toEqual(['knowledge: index read from the one kept']);
    expect(second.read?.seen).toBe(first.seen);
    expect(second.knowledge.count('fa')).toBe(first.knowledge.count('fa'));
  });

  it('is not read under another key: another code, other inputs or another store', async () => {
    const key = await snapshotKey(database.db, 'inputs');
    await keep(key);
    expect(await readSnapshotFile(database.db, file, await snapshotKey(database.db, 'other inputs'))).toEqual({
      refused: 'key',
    });
    // The store's identity holds its migrations with their times: another store has other times.
    expect(await storeIdentity(database.db)).toMatch(/202611210001_users_and_tokens/);
    const other = await createTestDatabase();
    try {
      expect(await storeIdentity(other.db)).not.toBe(await storeIdentity(database.db));
    } finally {
      await other.destroy();
    }
  });

  it('is not read when its bytes are damaged or cut, or the file is not one: the start builds', async () => {
    const key = (await start()).key!;
    await keep(key);
    const whole = fs.readFileSync(file);
    const damaged = Buffer.from(whole);
    damaged[damaged.length - 1000] = damaged[damaged.length - 1000]! ^ 0xff;
    for (const bytes of [damaged, whole.subarray(0, whole.length - 10), whole.subarray(0, 20), Buffer.from('hello')]) {
      fs.writeFileSync(file, bytes);
      expect(await readSnapshotFile(database.db, file, key)).toMatchObject({ refused: 'damaged' });
      const started = await start();
      expect(said).toContain('knowledge: index built');
      expect(said).toContain('knowledge: the kept index is not used; building (damaged)');
      expect(started.knowledge.search('How long does a refund take?', 'en', 1)).toHaveLength(1);
    }
    fs.rmSync(file);
    expect(await readSnapshotFile(database.db, file, key)).toEqual({ refused: 'none' });
  });

  it('is not read when the change log is not the one it was made from', async () => {
    await createArticle(database.db, null, {
      key: 'kept.one',
      lang: 'en',
      slug: 'kept-one',
      title: 'A kept article',
      body: 'Kept.',
      status: 'published',
    });
    const key = (await start()).key!;
    const built = await keep(key);
    expect(built.seen).toBeGreaterThan(0);
    // The row of its last change is another now (a store put back from a backup, a copy edited apart).
    await database.db.updateTable('kb_changes').set({ key: 'other.key' }).where('id', '=', built.seen).execute();
    expect(await readSnapshotFile(database.db, file, key)).toEqual({ refused: 'log' });
    await start();
    expect(said).toContain('knowledge: index built');
  });

  it('is not read when the log has moved on by more changes than a catch-up is worth: the start builds', async () => {
    const key = (await start()).key!;
    await keep(key);
    // Changes of an article that is not there: the catch-up would only remove it.
    const changes = (n: number) =>
      database.db
        .insertInto('kb_changes')
        .values(Array.from({ length: n }, () => ({ key: 'gone.article', lang: 'en' as const, created_at: nowIso() })))
        .execute();
    await changes(MAX_CATCH_UP);
    expect(await readSnapshotFile(database.db, file, key)).toHaveProperty('snapshot');
    await changes(1);
    expect(await readSnapshotFile(database.db, file, key)).toEqual({ refused: 'behind' });
    await start();
    expect(said).toContain('knowledge: the kept index is not used; building (behind)');
  });
});
