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

/** How long a process waits, retrying, while another one loads the same SQLite file. */
const BUSY_WAIT_LIMIT_MS = 120_000;
const BUSY_RETRY_MS = 250;

/** SQLite refused the write: another process holds the write lock or committed under our snapshot. */
function isSqliteBusy(error: unknown): boolean {
  return String((error as { code?: unknown })?.code ?? '').startsWith('SQLITE_BUSY');
}

/**
 * Loads the levels that have no rows yet; returns how many rows were written per table. Two
 * processes starting together on one new SQLite file both find the tables empty: the one that
 * gets SQLITE_BUSY waits, looks again, and skips a level the other has loaded meanwhile.
 */
export async function loadBundledData(
  db: Kysely<Database>,
  dialect: Dialect,
  log: (line: string) => void,
): Promise<Record<string, number>> {
  const loaded: Record<string, number> = {};
  for (const spec of LEVELS) {
    if (!spec.bundledFile) continue;
    const started = Date.now();
    while ((await countRows(db, spec.table)) === 0) {
      try {
        const summary = await importLevel(db, dialect, spec, fileLines(path.join(bundledDataDir, spec.bundledFile)), {
          onProgress: (rows) => log(`geo: ${spec.table}: ${rows} rows so far`),
          progressEvery: 25_000,
        });
        loaded[spec.table] = summary.rows;
        log(`geo: loaded ${summary.rows} ${spec.table} in ${Date.now() - started} ms`);
        break;
      } catch (error) {
        if (!isSqliteBusy(error) || Date.now() - started > BUSY_WAIT_LIMIT_MS) throw error;
        log(`geo: ${spec.table}: the database is busy (another process loading?); looking again`);
        await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS));
      }
    }
  }
  return loaded;
}
