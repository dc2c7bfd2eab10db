// The CSV reader: RFC 4180 quoting, line ends, byte order mark, gzip detection.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { csvRecords, CsvSyntaxError, fileLines, parseCsvLine } from '../../src/modules/geo/csv.js';

async function* linesOf(text: string) {
  for (const line of text.split('\n')) yield line;
}
async function records(text: string) {
  const result = [];
  for await (const record of csvRecords(linesOf(text))) result.push(record);
  return result;
}

describe('CSV parsing', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'geo-csv-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('splits plain fields and keeps empty ones', () => {
    expect(parseCsvLine('1,name,,74,')).toEqual(['1', 'name', '', '74', '']);
  });

  it('reads quoted fields with commas and doubled quotes', () => {
    expect(parseCsvLine('1,"Tehran, Iran","say ""hi""",""')).toEqual(['1', 'Tehran, Iran', 'say "hi"', '']);
  });

  it('rejects text after a closing quote and an unclosed quote', () => {
    expect(() => parseCsvLine('1,"a"b,2', 7)).toThrow(new CsvSyntaxError(7, 'a closing quote must end the field'));
    expect(() => parseCsvLine('1,"open')).toThrow(CsvSyntaxError);
  });

  it('joins a quoted field that spans lines and numbers records by their first line', async () => {
    const result = await records('id,name\n1,"two\nlines"\n\n2,b');
    expect(result).toEqual([
      { line: 1, fields: ['id', 'name'] },
      { line: 2, fields: ['1', 'two\nlines'] },
      { line: 5, fields: ['2', 'b'] },
    ]);
  });

  it('drops a byte order mark on the first line', async () => {
    expect((await records('\uFEFFid,name'))[0]!.fields).toEqual(['id', 'name']);
  });

  it('streams a CRLF file and a gzip-compressed file alike', async () => {
    const text = 'id,name\r\n1,آب بر\r\n2,"x, y"\r\n';
    const plain = path.join(dir, 'plain.csv');
    const gz = path.join(dir, 'data.bin');
    fs.writeFileSync(plain, text);
    fs.writeFileSync(gz, zlib.gzipSync(text));
    for (const file of [plain, gz]) {
      const result = [];
      for await (const record of csvRecords(fileLines(file))) result.push(record.fields);
      expect(result).toEqual([
        ['id', 'name'],
        ['1', 'آب بر'],
        ['2', 'x, y'],
      ]);
    }
  });

  it('reports a broken gzip stream as an error of the reader', async () => {
    const file = path.join(dir, 'broken.gz');
    fs.writeFileSync(
      file,
      Buffer.concat([zlib.gzipSync('id,name\n'.repeat(1000)).subarray(0, 30), Buffer.alloc(50, 7)]),
    );
    const read = async () => {
      for await (const line of fileLines(file)) void line;
    };
    await expect(read()).rejects.toMatchObject({ code: expect.stringMatching(/^Z_/) });
  });
});
