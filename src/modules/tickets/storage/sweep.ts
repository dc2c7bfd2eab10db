// Removes attachment files that no row records: temporary files of uploads cut short (a crash, a
// kill -9, a client gone mid-upload) and kept files whose ticket or comment never committed.
//
// Only files older than a grace period are touched. Another instance sharing DATA_DIR (or the
// bucket) may be streaming into a temporary file right now, or may have just kept a file and be
// about to commit the row that records it: both are young files (a temporary file's time is its
// last write; a rename keeps that time, an object's is its upload, and the commit follows within
// the same request). A file old enough and unreferenced is removed; a referenced file is never
// removed, whatever its age.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { recordedStorageKeys } from '../repository.js';
import { DiskStorage } from './disk.js';
import { attachmentsDir, type AttachmentStorage, type ListedFile } from './index.js';

/** Default grace period: far longer than any upload takes, so no one's file in progress is removed. */
export const SWEEP_GRACE_MS = 60 * 60 * 1000;

const LOOKUP_CHUNK = 500;

export interface SweptFile {
  /** Path relative to the attachments folder, e.g. ".tmp/ab12..." or "ab/ab12...", or an object's key. */
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

async function referencedKeys(db: Kysely<Database>, keys: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < keys.length; i += LOOKUP_CHUNK) {
    for (const key of await recordedStorageKeys(db, keys.slice(i, i + LOOKUP_CHUNK))) found.add(key);
  }
  return found;
}

async function removeFile(
  storage: AttachmentStorage,
  listed: ListedFile,
  kind: SweptFile['kind'],
  result: SweepResult,
  dryRun: boolean,
) {
  // Gone meanwhile (another sweep, the request's own clean-up): nothing left to report.
  if (!dryRun && !(await storage.removeListed(listed))) return;
  result.removed.push({
    file: listed.file,
    kind,
    size: listed.size,
    modifiedAt: new Date(listed.modifiedMs).toISOString(),
  });
}

/**
 * Sweeps a storage: the disk under a DATA_DIR (given as a path, as the disk-only sweep was) or
 * any AttachmentStorage, such as an S3 bucket.
 */
export async function sweepStorage(
  db: Kysely<Database>,
  where: AttachmentStorage | string,
  options: SweepOptions = {},
): Promise<SweepResult> {
  const storage = typeof where === 'string' ? new DiskStorage(attachmentsDir(where)) : where;
  const cutoff = (options.now ?? new Date()).getTime() - (options.graceMs ?? SWEEP_GRACE_MS);
  const dryRun = options.dryRun ?? false;
  const result: SweepResult = { removed: [], scanned: 0, tooYoung: 0 };

  for await (const batch of storage.list()) {
    const old: ListedFile[] = [];
    for (const listed of batch) {
      result.scanned++;
      if (listed.modifiedMs >= cutoff) result.tooYoung++;
      // Temporary files never have a row: only their age matters.
      else if (listed.key === undefined) await removeFile(storage, listed, 'temporary', result, dryRun);
      // Kept files: old enough ones are looked up; those no attachment row names are removed.
      else old.push(listed);
    }
    if (old.length === 0) continue;
    const referenced = await referencedKeys(
      db,
      old.map((c) => c.key!),
    );
    for (const listed of old) {
      if (!referenced.has(listed.key!)) await removeFile(storage, listed, 'unreferenced', result, dryRun);
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
export function startupSweep(
  db: Kysely<Database>,
  storage: AttachmentStorage,
  log: StartupSweepLog,
  graceMs = SWEEP_GRACE_MS,
): Promise<void> {
  return sweepStorage(db, storage, { graceMs }).then(
    (result) => {
      for (const file of result.removed)
        log.info({ file: file.file, kind: file.kind, size: file.size }, `storage sweep removed ${describeSwept(file)}`);
      if (result.removed.length)
        log.warn({ removed: result.removed.length }, 'storage sweep removed files no attachment row recorded');
    },
    (err: unknown) => log.warn({ err }, 'storage sweep failed; run storage:sweep'),
  );
}
