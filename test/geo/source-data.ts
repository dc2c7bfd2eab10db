// The shipped CSVs read directly (no code of the service), as the expected values of the tests.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const dir = fileURLToPath(new URL('../../assets/geo/', import.meta.url));

export type SourceRow = Record<string, string>;

const cache = new Map<string, SourceRow[]>();

/** Rows of a shipped file as header-keyed strings (the shipped data has no quoted fields). */
export function sourceRows(file: string): SourceRow[] {
  const hit = cache.get(file);
  if (hit) return hit;
  const rows = readRows(file);
  cache.set(file, rows);
  return rows;
}

function readRows(file: string): SourceRow[] {
  const raw = fs.readFileSync(path.join(dir, file));
  const text = (file.endsWith('.gz') ? zlib.gunzipSync(raw) : raw).toString('utf8');
  const [header, ...lines] = text.split(/\r?\n/).filter((l) => l !== '');
  const names = header!.split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((v, i) => [names[i]!, v])));
}

/** Ids (as numbers) of the active rows whose `column` equals `value`. */
export function activeIdsWhere(rows: SourceRow[], column: string, value: number): number[] {
  return rows.filter((r) => r[column] === String(value) && r.active === '1').map((r) => Number(r.id));
}

export const sorted = (ids: Array<number | string>) =>
  [...ids].sort((a, b) => String(a).localeCompare(String(b), 'en', { numeric: true }));
