// Loads one level from CSV records into its table: checks the header and every row, and writes
// in one transaction with multi-row upserts (insert, or update by id), so a file with a single
// bad row changes nothing. Used by the first-start loader and by geo:import alike.
import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/index.js';
import type { Database } from '../../db/schema.js';
import { CsvSyntaxError, csvRecords, type CsvRecord } from './csv.js';
import type { ColumnSpec, LevelSpec } from './levels.js';
import { allIds, bumpRevision, rowsPerInsert, upsertRows, type GeoRow } from './repository.js';
import { MAX_ID } from '../../core/ids.js';

const MAX_NAME_LENGTH = 255;
/** Bad rows listed one per line; the rest are counted. */
export const MAX_REPORTED_ERRORS = 20;

/** The file is not importable; `errors` are one-line messages naming the line. */
export class ImportRejected extends Error {
  override name = 'ImportRejected';
  constructor(
    readonly errors: string[],
    readonly errorCount: number,
  ) {
    super(errors[0] ?? 'the file is not valid');
  }
}

export interface ImportSummary {
  rows: number;
  inserted: number;
  updated: number;
}

export interface ImportOptions {
  /** Called every `progressEvery` rows with the count so far. */
  onProgress?: (rows: number) => void;
  progressEvery?: number;
}

function checkHeader(spec: LevelSpec, header: CsvRecord | undefined): number[] {
  if (!header) throw new ImportRejected(['the file is empty: expected a header line'], 1);
  const names = header.fields.map((f) => f.trim().toLowerCase());
  const expected = spec.columns.map((c) => c.name);
  const missing = expected.filter((c) => !names.includes(c));
  const unknown = names.filter((n) => !expected.includes(n));
  const duplicated = names.filter((n, i) => names.indexOf(n) !== i);
  if (missing.length || unknown.length || duplicated.length) {
    const parts = [
      missing.length ? `missing ${missing.join(', ')}` : '',
      unknown.length ? `unknown ${unknown.join(', ')}` : '',
      duplicated.length ? `repeated ${duplicated.join(', ')}` : '',
    ].filter(Boolean);
    throw new ImportRejected(
      [`line ${header.line}: the header must be ${expected.join(',')} (${parts.join('; ')})`],
      1,
    );
  }
  // For each column of the level, where it is in the file.
  return expected.map((c) => names.indexOf(c));
}

function parseValue(
  column: ColumnSpec,
  raw: string,
  parents: Map<string, Set<number>>,
): { value: string | number | null } | { error: string } {
  const text = raw.trim();
  if (text === '') {
    if (column.optional) return { value: null };
    return { error: `${column.name} is required` };
  }
  switch (column.kind) {
    case 'name':
      return text.length > MAX_NAME_LENGTH
        ? { error: `name is longer than ${MAX_NAME_LENGTH} characters` }
        : { value: text };
    case 'code':
      return /^\d{1,20}$/.test(text)
        ? { value: text }
        : { error: `${column.name} "${text.slice(0, 30)}" must be up to 20 digits` };
    case 'flag':
      return text === '0' || text === '1'
        ? { value: Number(text) }
        : { error: `active "${text.slice(0, 30)}" must be 0 or 1` };
    case 'integer':
      return /^-?\d{1,10}$/.test(text) && Math.abs(Number(text)) <= MAX_ID
        ? { value: Number(text) }
        : { error: `${column.name} "${text.slice(0, 30)}" must be a whole number` };
    case 'id': {
      if (!/^\d{1,10}$/.test(text) || Number(text) < 1 || Number(text) > MAX_ID) {
        return { error: `${column.name} "${text.slice(0, 30)}" must be a positive whole number` };
      }
      const id = Number(text);
      const known = column.parent ? parents.get(column.parent) : undefined;
      if (known && !known.has(id)) return { error: `${column.name} ${id} does not exist in ${column.parent}` };
      return { value: id };
    }
  }
}

function parseRow(
  spec: LevelSpec,
  positions: number[],
  record: CsvRecord,
  parents: Map<string, Set<number>>,
): GeoRow | string {
  if (record.fields.length !== positions.length) {
    return `line ${record.line}: expected ${positions.length} fields, found ${record.fields.length}`;
  }
  const row: GeoRow = {};
  const problems: string[] = [];
  spec.columns.forEach((column, i) => {
    const result = parseValue(column, record.fields[positions[i]!]!, parents);
    if ('error' in result) problems.push(result.error);
    else row[column.name] = result.value;
  });
  return problems.length ? `line ${record.line}: ${problems.join('; ')}` : row;
}

async function parentIds(db: Kysely<Database>, spec: LevelSpec): Promise<Map<string, Set<number>>> {
  const parents = new Map<string, Set<number>>();
  for (const column of spec.columns) {
    if (column.parent && !parents.has(column.parent)) parents.set(column.parent, await allIds(db, column.parent));
  }
  return parents;
}

/** Imports the records of `lines` (the CSV text, header first) into the level's table. */
export async function importLevel(
  db: Kysely<Database>,
  dialect: Dialect,
  spec: LevelSpec,
  lines: AsyncIterable<string>,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const columns = spec.columns.map((c) => ({
    name: c.name,
    type: c.kind === 'name' || c.kind === 'code' ? ('text' as const) : ('integer' as const),
  }));
  const batchSize = rowsPerInsert(dialect, columns.length);
  const progressEvery = options.progressEvery ?? 10_000;

  return db.transaction().execute(async (trx) => {
    const parents = await parentIds(trx, spec);
    const existing = await allIds(trx, spec.table);
    const seen = new Set<number>();
    const errors: string[] = [];
    let errorCount = 0;
    let rows = 0;
    let inserted = 0;
    let batch: GeoRow[] = [];
    const reject = (message: string) => {
      errorCount += 1;
      if (errors.length < MAX_REPORTED_ERRORS) errors.push(message);
    };

    const records = csvRecords(lines);
    try {
      const positions = checkHeader(spec, (await records.next()).value || undefined);
      for await (const record of records) {
        const row = parseRow(spec, positions, record, parents);
        if (typeof row === 'string') {
          reject(row);
          continue;
        }
        const id = row.id as number;
        if (seen.has(id)) {
          reject(`line ${record.line}: id ${id} appears more than once in the file`);
          continue;
        }
        seen.add(id);
        rows += 1;
        if (!existing.has(id)) inserted += 1;
        if (options.onProgress && rows % progressEvery === 0) options.onProgress(rows);
        // After the first bad row nothing more is written; the rest is only checked.
        if (errorCount > 0) continue;
        batch.push(row);
        if (batch.length >= batchSize) {
          await upsertRows(trx, dialect, spec.table, columns, batch);
          batch = [];
        }
      }
    } catch (error) {
      if (error instanceof CsvSyntaxError) throw new ImportRejected([...errors, error.message], errorCount + 1);
      throw error;
    }
    if (errorCount > 0) throw new ImportRejected(errors, errorCount);
    await upsertRows(trx, dialect, spec.table, columns, batch);
    await bumpRevision(trx);
    return { rows, inserted, updated: rows - inserted };
  });
}
