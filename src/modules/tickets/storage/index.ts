// Where attachment bytes live, behind one interface: the local disk under DATA_DIR/attachments
// (disk.ts, the default) or an S3-protocol bucket named by STORAGE_URL (s3.ts). Either way an
// upload is first streamed to a local temporary file and inspected (the file-type check needs the
// bytes), then kept under a random key (never the client's name) or discarded.
import path from 'node:path';
import type { Readable } from 'node:stream';

export interface TempFile {
  path: string;
  size: number;
}

/** A file the sweep looks at: a temporary file, or a kept file with its key. */
export interface ListedFile {
  /** For reports: ".tmp/<name>" or "<xx>/<key>" on the disk, the object's key in a bucket. */
  file: string;
  /** The storage key of a kept file (what an attachment row records); undefined for a temporary file. */
  key?: string;
  size: number;
  modifiedMs: number;
}

/** The storage refused a request (S3: access denied, no such bucket): a configuration problem, 500. */
export class StorageError extends Error {
  override name = 'StorageError';
}

/** The storage did not answer or failed (network, timeout, a 5xx): the request gets 503 and may be retried. */
export class StorageUnavailableError extends StorageError {
  override name = 'StorageUnavailableError';
  readonly code = 'STORAGE_UNAVAILABLE';
}

export interface AttachmentStorage {
  /** Streams the source to a temporary file; the caller inspects it, then keeps or discards it. */
  writeTemp(source: Readable): Promise<TempFile>;
  /** Moves a temporary file into storage; returns its key. */
  keep(temp: TempFile): Promise<string>;
  discardTemp(temp: TempFile): Promise<void>;
  remove(key: string): Promise<void>;
  /** The stored bytes and their size, or undefined when the file is gone. */
  open(key: string): Promise<{ stream: Readable; size: number } | undefined>;
  /** Every temporary and kept file this storage wrote, a batch at a time; files it did not write are left out. */
  list(): AsyncIterable<ListedFile[]>;
  /** Removes a listed file; false when it was already gone. */
  removeListed(file: ListedFile): Promise<boolean>;
  /** Releases connections; the app calls it when it closes. */
  close(): Promise<void>;
}

/** Warnings of the storage's client (S3 SDK retries and timeouts); debug chatter is dropped. */
export interface StorageLog {
  warn(obj: object, msg: string): void;
}

/** DATA_DIR/attachments: the disk driver's files, and both drivers' temporary files (in .tmp). */
export const attachmentsDir = (dataDir: string) => path.join(dataDir, 'attachments');
