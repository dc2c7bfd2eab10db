// Removes attachment files that no row records: temporary files of uploads cut short (a crash, a
// kill -9, a client gone mid-upload) and kept files whose ticket or comment never committed.
//
// Only files older than a grace period are touched. Another instance sharing DATA_DIR may be
// streaming into a temporary file right now, or may have just renamed a file into place and be
// about to commit the row that records it: both are young files (a temporary file's time is its
// last write; a rename keeps that time, and the commit follows within the same request). A file
// old enough and unreferenced is removed; a referenced file is never removed, whatever its age.
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

/** Default grace period: far longer than any upload takes, so no one's file in progress is removed. */
export const SWEEP_GRACE_MS = 60 * 60 * 1000;

const KEY = /^[a-f0-9]{32}$/;
const SHARD = /^[a-f0-9]{2}$/;
const LOOKUP_CHUNK = 500;

export interface SweptFile {
  /** Path relative to the attachments folder, e.g. ".tmp/ab12..." or "ab/ab12...". */
  file: string;
  kind: 'temporary' | 'unreferenced';
  size: number;
  modifiedAt: string;
}

export interface SweepResult {
  removed: SweptFile[];
  /** Files seen in storage (temporary and kept). */
  scanned: number;
  /** Files younger than the grace period: left alone without looking them up. */
  tooYoung: number;
}

export interface SweepOptions {
  graceMs?: number;
  now?: Date;
  /** Report what would be removed without removing it. */
  dryRun?: boolean;
}

interface Candidate {
  file: string;
  full: string;
  key?: string;
  size: number;
  mtimeMs: number;
}

async function filesIn(dir: string): Promise<string[]> {
  try {
    const entries = await fsp.readdir(dir, { withFileTypes: true });
    return entries.filter((e) => e.isFile()).map((e) => e.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

async function statOf(full: string): Promise<{ size: number; mtimeMs: number } | undefined> {
  try {
    const s = await fsp.lstat(full);
    return s.isFile() ? { size: s.size, mtimeMs: s.mtimeMs } : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function referencedKeys(db: Kysely<Database>, keys: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < keys.length; i += LOOKUP_CHUNK) {
    const rows = await db.selectFrom('ticket_attachments').select('storage_key').where('storage_key', 'in', keys.slice(i, i + LOOKUP_CHUNK)).execute();
    for (const row of rows) found.add(row.storage_key);
  }
  return found;
}

async function removeFile(candidate: Candidate, kind: SweptFile['kind'], result: SweepResult, dryRun: boolean) {
  if (!dryRun) {
    try {
      await fsp.unlink(candidate.full);
    } catch (error) {
      // Removed meanwhile (another sweep, the request's own clean-up): nothing left to do.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
  }
  result.removed.push({ file: candidate.file, kind, size: candidate.size, modifiedAt: new Date(candidate.mtimeMs).toISOString() });
}

/** Sweeps DATA_DIR/attachments (the layout of DiskStorage). */
export async function sweepStorage(db: Kysely<Database>, dataDir: string, options: SweepOptions = {}): Promise<SweepResult> {
  const root = path.join(dataDir, 'attachments');
  const cutoff = (options.now ?? new Date()).getTime() - (options.graceMs ?? SWEEP_GRACE_MS);
  const dryRun = options.dryRun ?? false;
  const result: SweepResult = { removed: [], scanned: 0, tooYoung: 0 };

  // Temporary files never have a row: only their age matters.
  for (const name of await filesIn(path.join(root, '.tmp'))) {
    const full = path.join(root, '.tmp', name);
    const stat = await statOf(full);
    if (!stat) continue;
    result.scanned++;
    if (stat.mtimeMs >= cutoff) result.tooYoung++;
    else await removeFile({ file: `.tmp/${name}`, full, ...stat }, 'temporary', result, dryRun);
  }

  // Kept files: old enough ones are looked up; those no attachment row names are removed.
  let shards: string[] = [];
  try {
    shards = (await fsp.readdir(root, { withFileTypes: true })).filter((e) => e.isDirectory() && SHARD.test(e.name)).map((e) => e.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  for (const shard of shards.sort()) {
    const old: Candidate[] = [];
    for (const name of await filesIn(path.join(root, shard))) {
      if (!KEY.test(name) || !name.startsWith(shard)) continue; // not a file this storage wrote: left alone
      const full = path.join(root, shard, name);
      const stat = await statOf(full);
      if (!stat) continue;
      result.scanned++;
      if (stat.mtimeMs >= cutoff) result.tooYoung++;
      else old.push({ file: `${shard}/${name}`, full, key: name, ...stat });
    }
    if (old.length === 0) continue;
    const referenced = await referencedKeys(db, old.map((c) => c.key!));
    for (const candidate of old) {
      if (!referenced.has(candidate.key!)) await removeFile(candidate, 'unreferenced', result, dryRun);
    }
  }
  return result;
}

/** One line per removed file, for the command and the startup log. */
export function describeSwept(file: SweptFile): string {
  return `${file.file} (${file.kind}, ${file.size} bytes, last written ${file.modifiedAt})`;
}

export interface StartupSweepLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * The sweep an instance runs once when it starts (in the background: serving does not wait). The
 * grace period protects files other instances are writing at that moment; files a crash left
 * behind are removed by the first start after they have aged past it (or by storage:sweep).
 * Returns a promise that never rejects, for the app to await before closing the database.
 */
export function startupSweep(db: Kysely<Database>, dataDir: string, log: StartupSweepLog, graceMs = SWEEP_GRACE_MS): Promise<void> {
  return sweepStorage(db, dataDir, { graceMs }).then(
    (result) => {
      for (const file of result.removed) log.info({ file: file.file, kind: file.kind, size: file.size }, `storage sweep removed ${describeSwept(file)}`);
      if (result.removed.length) log.warn({ removed: result.removed.length }, 'storage sweep removed files no attachment row recorded');
    },
    (err: unknown) => log.warn({ err }, 'storage sweep failed; run storage:sweep'),
  );
}
