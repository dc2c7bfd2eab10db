// geo:import as operators run it: the real CLI (node dist/cli.js, built before the first file runs)
// in its own process, on this test's database.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/app.js';

const root = path.resolve(import.meta.dirname ?? path.dirname(new URL(import.meta.url).pathname), '../..');

describe('geo:import in a real process', () => {
  let database: TestDatabase;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    database = await createTestDatabase();
    env = { ...process.env, DATA_DIR: database.dataDir, LOG_LEVEL: 'silent' };
    delete env.DATABASE_URL;
    if (testDialect === 'postgres') {
      // The CLI reads DATABASE_URL only; the schema of this test goes in the connection options.
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db);
      env.DATABASE_URL = `${database.config.DATABASE_URL}?options=${encodeURIComponent(`-c search_path=${rows[0]!.schema}`)}`;
    }
  });
  afterAll(() => database.destroy());

  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [path.join(root, 'dist/cli.js'), ...args], {
      cwd: root,
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });

  it('loads the bundled data on an empty database, imports the file and prints a summary', async () => {
    const file = path.join(database.dataDir, 'streets.csv');
    fs.writeFileSync(file, 'id,name,neighborhood_id,active\n1,Valiasr,1,1\n2,Enghelab,1,1\n');
    const result = cli('geo:import', '--level', 'street', '--file', file);
    expect(result.stderr).toContain('geo: loaded 98100 villages');
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toBe(`imported 2 streets from ${file}: 2 new, 0 updated\n`);
    const streets = await database.db.selectFrom('streets').select(['id', 'name']).orderBy('id').execute();
    expect(streets).toEqual([
      { id: 1, name: 'Valiasr' },
      { id: 2, name: 'Enghelab' },
    ]);
  });

  it('exits 1 on a bad file with one line per bad row and no stack trace', async () => {
    const file = path.join(database.dataDir, 'bad.csv');
    fs.writeFileSync(file, 'id,name,neighborhood_id,active\n3,Ok,1,1\n4,Orphan,424242,1\n');
    const result = cli('geo:import', '--level', 'street', '--file', file);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines).toContain('line 3: neighborhood_id 424242 does not exist in neighborhoods');
    expect(lines.at(-1)).toBe(`error: ${file}: 1 bad row; nothing was imported`);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const count = await database.db
      .selectFrom('streets')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(2);
  });

  it('exits 2 with the list of levels on an unknown level', () => {
    const result = cli('geo:import', '--level', 'planet', '--file', 'x.csv');
    expect(result.status).toBe(2);
    expect(result.stderr.trim()).toBe(
      'error: --level must be one of: continent, country, province, county, district, city, rural, village, region, neighborhood, street, alley',
    );
  });
});
