// geo:import: loads or updates one level of the hierarchy from a CSV file with the columns of the
// shipped files (streets: id,name,neighborhood_id,active; alleys: id,name,street_id,active).
import fs from 'node:fs';
import { CommandFailed, requireString, UsageError, type CliCommand } from '../../cli/command.js';
import { fileLines } from './csv.js';
import { ImportRejected, importLevel } from './importer.js';
import { findLevel, LEVELS } from './levels.js';
import { loadBundledData } from './loader.js';
import { REVISION_CHECK_MS } from './catalog.js';

const levelNames = LEVELS.map((l) => l.level).join(', ');

/** A file that cannot be read (missing, a folder, broken gzip) is the operator's to fix: one line. */
function isReadError(error: unknown): error is Error & { code: string } {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && (/^E[A-Z]+$/.test(code) || code.startsWith('Z_'));
}

const geoImport: CliCommand = {
  name: 'geo:import',
  summary: 'Load or update one geographic level from a CSV file (insert new ids, update existing ones)',
  usage: '--level LEVEL --file FILE.csv',
  options: {
    level: { type: 'string', description: `The level: ${levelNames} (plural table names work too)` },
    file: { type: 'string', description: "CSV (or gzip-compressed CSV) with a header line of the level's columns" },
  },
  async run(values, { db, dialect, out, progress }) {
    const levelName = requireString(values, 'level');
    const spec = findLevel(levelName);
    if (!spec) throw new UsageError(`--level must be one of: ${levelNames}`);
    const file = requireString(values, 'file');
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat) throw new CommandFailed(`cannot read ${file}: no such file`);
    if (!stat.isFile()) throw new CommandFailed(`cannot read ${file}: not a file`);

    try {
      // Parents must exist: on a database that never saw a server start, load the bundled data first.
      await loadBundledData(db, dialect, progress);
      progress(`geo:import: reading ${file} into ${spec.table} ...`);
      const summary = await importLevel(db, dialect, spec, fileLines(file), {
        onProgress: (rows) => progress(`geo:import: ${rows} rows checked`),
      });
      out(`imported ${summary.rows} ${spec.table} from ${file}: ${summary.inserted} new, ${summary.updated} updated`);
      progress(`geo:import: a running server serves the new data within ${REVISION_CHECK_MS / 1000} s`);
    } catch (error) {
      if (error instanceof ImportRejected) {
        for (const line of error.errors) progress(line);
        const more = error.errorCount - error.errors.length;
        if (more > 0) progress(`... and ${more} more bad rows`);
        throw new CommandFailed(
          `${file}: ${error.errorCount} bad ${error.errorCount === 1 ? 'row' : 'rows'}; nothing was imported`,
        );
      }
      if (isReadError(error)) throw new CommandFailed(`cannot read ${file}: ${error.message}`);
      throw error;
    }
  },
};

export const commands: CliCommand[] = [geoImport];
