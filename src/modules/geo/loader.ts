// First-start loading of the bundled data (assets/geo): every level whose table is empty is
// loaded from its CSV, parents before children, one transaction per level.
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/index.js';
import type { Database } from '../../db/schema.js';
import { assetsDir } from '../../paths.js';
import { fileLines } from './csv.js';
import { importLevel } from './importer.js';
import { LEVELS } from './levels.js';
import { countRows } from './repository.js';

export const bundledDataDir = path.join(assetsDir, 'geo');

/** Loads the levels that have no rows yet; returns how many rows were written per table. */
export async function loadBundledData(db: Kysely<Database>, dialect: Dialect, log: (line: string) => void): Promise<Record<string, number>> {
  const loaded: Record<string, number> = {};
  for (const spec of LEVELS) {
    if (!spec.bundledFile || (await countRows(db, spec.table)) > 0) continue;
    const started = Date.now();
    const summary = await importLevel(db, dialect, spec, fileLines(path.join(bundledDataDir, spec.bundledFile)), {
      onProgress: (rows) => log(`geo: ${spec.table}: ${rows} rows so far`),
      progressEvery: 25_000,
    });
    loaded[spec.table] = summary.rows;
    log(`geo: loaded ${summary.rows} ${spec.table} in ${Date.now() - started} ms`);
  }
  return loaded;
}
