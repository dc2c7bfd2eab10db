// geo:import (run in-process with a real CliContext on the app's database) and how the running
// app's in-memory catalogue follows changes: inactive rows disappear, imports appear.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandFailed, UsageError, type CliContext } from '../../src/cli/command.js';
import { commands } from '../../src/modules/geo/commands.js';
import { loadBundledData } from '../../src/modules/geo/loader.js';
import { buildTestApp, testDialect, type TestApp } from '../helpers/app.js';

const geoImport = commands.find((c) => c.name === 'geo:import')!;

describe('geo:import and catalogue refresh', () => {
  let t: TestApp;
  let out: string[];
  let err: string[];
  let context: CliContext;
  const write = (name: string, text: string | Buffer) => {
    const file = path.join(t.dataDir, name);
    fs.writeFileSync(file, text);
    return file;
  };
  const run = (level: string, file: string) => geoImport.run({ level, file }, context);
  const children = async (url: string) =>
    (await t.app.inject(url)).json() as Array<{ id: number | string; name: string }>;
  const count = async (table: 'streets' | 'alleys' | 'provinces') =>
    Number(
      (
        await t.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    t = await buildTestApp({ loadGeoData: true });
    context = {
      config: t.config,
      db: t.db,
      dialect: testDialect,
      out: (l) => out.push(l),
      progress: (l) => err.push(l),
    };
  });
  afterAll(() => t.close());
  const reset = () => {
    out = [];
    err = [];
  };

  it('imports streets, and the running app serves them after the revision check', async () => {
    reset();
    const file = write(
      'streets.csv',
      'id,name,neighborhood_id,active\r\n1,"Valiasr, North",1,1\r\n2,"The ""Old"" Road",1,1\r\n3,Hidden,1,0\r\n',
    );
    await run('street', file);
    expect(out).toEqual([`imported 3 streets from ${file}: 3 new, 0 updated`]);
    expect(await children('/api/geographic/neighborhood/1/children')).toEqual([]);
    expect(await t.app.geoCatalog.refreshIfChanged()).toBe(true);
    expect(await children('/api/geographic/neighborhood/1/children')).toEqual([
      { id: 2, name: 'The "Old" Road' },
      { id: 1, name: 'Valiasr, North' },
    ]);
    expect(await t.app.geoCatalog.refreshIfChanged()).toBe(false);
  });

  it('picks an import up on its own when watching the revision', async () => {
    reset();
    const catalog = t.app.geoCatalog;
    catalog.watch(25);
    try {
      await run('street', write('watched.csv', 'id,name,neighborhood_id,active\n30,Watched,3,1\n'));
      await expect
        .poll(() => children('/api/geographic/neighborhood/3/children'), { timeout: 5_000, interval: 25 })
        .toEqual([{ id: 30, name: 'Watched' }]);
    } finally {
      catalog.stop();
    }
  });

  it('updates rows by id and inserts new ones in the same file (alleys under an imported street)', async () => {
    reset();
    await run('alleys', write('alleys.csv', 'id,name,street_id,active\n10,Alley A,1,1\n'));
    reset();
    await run('alley', write('alleys2.csv', 'name,id,active,street_id\nAlley A renamed,10,1,1\nAlley B,11,1,2\n'));
    expect(out[0]).toMatch(/imported 2 alleys .*: 1 new, 1 updated$/);
    await t.app.geoCatalog.refreshIfChanged();
    expect(await children('/api/geographic/street/1/children')).toEqual([{ id: 10, name: 'Alley A renamed' }]);
    expect(await children('/api/geographic/STREET/2/children')).toEqual([{ id: 11, name: 'Alley B' }]);
  });

  it('reads a gzip-compressed CSV', async () => {
    reset();
    await run('street', write('more.csv.gz', zlib.gzipSync('id,name,neighborhood_id,active\n4,Gzipped,2,1\n')));
    expect(out[0]).toMatch(/imported 1 streets/);
  });

  it('rejects a file with bad rows: every bad row reported with its line, nothing written', async () => {
    reset();
    const before = await count('streets');
    const file = write(
      'bad.csv',
      [
        'id,name,neighborhood_id,active',
        '20,Good,1,1',
        'x,,99999,2',
        '21,Short,1',
        '20,Again,1,1',
        '22,"unclosed,1,1',
      ].join('\n'),
    );
    const error = await run('street', file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CommandFailed);
    expect((error as Error).message).toBe(`${file}: 4 bad rows; nothing was imported`);
    expect(err).toContain(
      'line 3: id "x" must be a positive whole number; name is required; neighborhood_id 99999 does not exist in neighborhoods; active "2" must be 0 or 1',
    );
    expect(err).toContain('line 4: expected 4 fields, found 3');
    expect(err).toContain('line 5: id 20 appears more than once in the file');
    expect(err).toContain('line 6: a quoted field is not closed before the end of the file');
    expect(await count('streets')).toBe(before);
  });

  it('rolls back rows already written when a bad row comes after several full batches', async () => {
    reset();
    const before = await count('streets');
    const lines = ['id,name,neighborhood_id,active'];
    for (let id = 1000; id < 1000 + 25_000; id += 1) lines.push(`${id},Street ${id},1,1`);
    lines.push('99,Bad,1,yes');
    const error = await run('street', write('big.csv', lines.join('\n'))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CommandFailed);
    expect(err).toContain(`line ${lines.length}: active "yes" must be 0 or 1`);
    expect(err.some((l) => /10000 rows checked/.test(l))).toBe(true);
    expect(await count('streets')).toBe(before);
  });

  it('lists at most 20 bad rows and counts the rest', async () => {
    reset();
    const lines = ['id,name,neighborhood_id,active', ...Array.from({ length: 25 }, (_, i) => `${i + 500},x,1,7`)];
    await expect(run('street', write('many.csv', lines.join('\n')))).rejects.toThrow(
      '25 bad rows; nothing was imported',
    );
    expect(err.filter((l) => l.startsWith('line '))).toHaveLength(20);
    expect(err).toContain('... and 5 more bad rows');
  });

  it("rejects a header that is not the level's columns", async () => {
    reset();
    await expect(run('street', write('header.csv', 'id,name,street,active,extra\n1,a,1,1,1\n'))).rejects.toThrow(
      '1 bad row',
    );
    expect(err).toContain(
      'line 1: the header must be id,name,neighborhood_id,active (missing neighborhood_id; unknown street, extra)',
    );
    reset();
    await expect(run('street', write('empty.csv', ''))).rejects.toThrow(CommandFailed);
    expect(err).toContain('the file is empty: expected a header line');
  });

  it('answers a wrong level, a missing or unreadable file, and broken gzip with one-line errors', async () => {
    await expect(run('planet', write('x.csv', 'id\n'))).rejects.toThrow(UsageError);
    await expect(geoImport.run({ file: 'x.csv' }, context)).rejects.toThrow('--level is required');
    await expect(run('street', path.join(t.dataDir, 'missing.csv'))).rejects.toThrow(
      /^cannot read .*missing\.csv: no such file$/,
    );
    await expect(run('street', t.dataDir)).rejects.toThrow(/not a file$/);
    const broken = Buffer.concat([
      zlib.gzipSync('id,name,neighborhood_id,active\n1,a,1,1\n').subarray(0, 20),
      Buffer.from('garbage'),
    ]);
    await expect(run('street', write('broken.csv.gz', broken))).rejects.toThrow(CommandFailed);
  });

  it('updates a shipped level: a province set inactive disappears after the refresh', async () => {
    reset();
    await run('province', write('provinces.csv', 'id,name,country_id,amar_code,active\n9,Renamed,74,,0\n'));
    expect(out[0]).toMatch(/0 new, 1 updated$/);
    await t.app.geoCatalog.refreshIfChanged();
    const { data } = (await t.app.inject('/api/provinces')).json() as { data: Array<{ id: number }> };
    expect(data).toHaveLength(30);
    expect(data.map((p) => p.id)).not.toContain(9);
    expect(await children('/api/geographic/country/74/children')).toHaveLength(30);
  });

  it('hides a county set inactive in the database once the catalogue is rebuilt, with a new ETag', async () => {
    const before = await t.app.inject('/api/counties/8');
    const [first] = (before.json() as { data: Array<{ id: number }> }).data;
    await t.db.updateTable('counties').set({ active: 0 }).where('id', '=', first!.id).execute();
    await t.app.geoCatalog.rebuild();
    const after = await t.app.inject({
      url: '/api/counties/8',
      headers: { 'if-none-match': String(before.headers.etag) },
    });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect((after.json() as { data: Array<{ id: number }> }).data.map((c) => c.id)).not.toContain(first!.id);
    expect((await children('/api/geographic/province/8/children')).map((c) => c.id)).not.toContain(first!.id);
  });

  it('does not reload the bundled data over existing rows at the next start', async () => {
    const lines: string[] = [];
    expect(await loadBundledData(t.db, testDialect, (l) => lines.push(l))).toEqual({});
    const province = await t.db
      .selectFrom('provinces')
      .select(['name', 'active'])
      .where('id', '=', 9)
      .executeTakeFirstOrThrow();
    expect(province).toEqual({ name: 'Renamed', active: 0 });
  });
});
