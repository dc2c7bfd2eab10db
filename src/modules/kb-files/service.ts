// The rules of uploaded documents. An upload is stored as `processing` and answered at once; its
// text is read afterwards in a worker (extraction.ts), at most MAX_READING at a time per process,
// and the file becomes `ready` with its passages (one transaction) or `failed` with the reason.
// The same bytes uploaded again are the same document (SHA-256, unique): a retry is applied once.
import { createHash } from 'node:crypto';
import { msg, notFound } from '../../core/errors.js';
import type { AppDeps } from '../../core/deps.js';
import { pageMeta, pageOffset } from '../../core/pagination.js';
import { nowIso } from '../../db/index.js';
import type { UserRecord } from '../users/service.js';
import type { DocumentIndex } from './document-index.js';
import { extractInWorker } from './extraction.js';
import type { DocumentKind } from './limits.js';
import { detectLanguage, toPassages } from './passages.js';
import * as repo from './repository.js';

/** Documents read at the same time by one process; the others wait their turn (each worker may take 256 MB). */
const MAX_READING = 2;

export interface Upload {
  fileName: string;
  kind: DocumentKind;
  bytes: Buffer;
  title?: string;
  lang?: 'en' | 'fa';
}

/** What the document functions take: the database, the index to refresh, and the readings of this process. */
export interface KbFileDeps {
  db: AppDeps['db'];
  index: DocumentIndex;
  /** Where a reading that failed outside the row (indexing, the database) is reported. */
  onError: (error: unknown) => void;
  readings: Readings;
}

/** The readings of one app: how many run, who waits for a turn, and every one not finished yet. */
interface Readings {
  running: number;
  waiting: Array<() => void>;
  /** Readings under way, so a shutdown (and a test) can wait for them. */
  pending: Set<Promise<void>>;
}

/** The document state of one app. */
export function kbFileDeps(db: AppDeps['db'], index: DocumentIndex, onError: (error: unknown) => void): KbFileDeps {
  return { db, index, onError, readings: { running: 0, waiting: [], pending: new Set() } };
}

/** The file, new (created) or the earlier upload of the same bytes; a failed earlier upload is read again. */
export async function upload(
  files: KbFileDeps,
  user: UserRecord,
  upload: Upload,
): Promise<{ file: repo.FileRow; created: boolean; reading: boolean }> {
  const sha256 = createHash('sha256').update(upload.bytes).digest('hex');
  const title = upload.title?.trim() || upload.fileName.replace(/\.[^.]+$/, '') || upload.fileName;
  const inserted = await repo.insertFile(files.db, {
    title: title.slice(0, 200),
    file_name: upload.fileName,
    kind: upload.kind,
    file_size: upload.bytes.length,
    sha256,
    lang: upload.lang ?? null,
    uploaded_by: user.id,
    now: nowIso(),
  });
  if (inserted) {
    read(files, inserted.id, upload);
    return { file: inserted, created: true, reading: true };
  }
  const existing = (await repo.findFileBySha(files.db, sha256))!;
  if (existing.status !== 'failed') return { file: existing, created: false, reading: false };
  const retried = await repo.updateFile(
    files.db,
    existing.id,
    { status: 'processing', failure_code: null, failure_params: null, updated_at: nowIso() },
    'failed',
  );
  if (retried) read(files, existing.id, upload);
  return { file: (await repo.findFile(files.db, existing.id)) ?? existing, created: false, reading: retried };
}

export async function list(files: KbFileDeps, query: { status?: string; page: number; perPage: number }) {
  const { rows, total } = await repo.listFiles(files.db, {
    status: query.status,
    limit: query.perPage,
    offset: pageOffset(query.page, query.perPage),
  });
  return { rows, meta: pageMeta(total, query.page, query.perPage) };
}

export async function show(files: KbFileDeps, id: number): Promise<repo.FileRow> {
  const file = await repo.findFile(files.db, id);
  if (!file) throw notFound(msg('kb_files.not_found'));
  return file;
}

/** The file's passages with their page or heading, in order. */
export async function passages(files: KbFileDeps, id: number) {
  await show(files, id);
  return repo.passagesOf(files.db, id);
}

/** Renames, deactivates (its passages leave the index) or activates a file. */
export async function update(
  files: KbFileDeps,
  id: number,
  changes: { title?: string; active?: boolean },
): Promise<repo.FileRow> {
  const file = await show(files, id);
  const values: Parameters<typeof repo.updateFile>[2] = { updated_at: nowIso() };
  if (changes.title !== undefined) values.title = changes.title.trim();
  if (changes.active !== undefined) values.active = changes.active ? 1 : 0;
  await repo.updateFile(files.db, file.id, values);
  await files.index.refresh();
  return show(files, id);
}

/** Deletes the file and its passages; they leave this instance's index before the answer. */
export async function remove(files: KbFileDeps, id: number): Promise<void> {
  const deleted = await files.db.transaction().execute((trx) => repo.deleteFile(trx, id));
  if (!deleted) throw notFound(msg('kb_files.not_found'));
  await files.index.refresh();
}

/** Resolves once every reading started so far has finished. */
export async function settled(files: KbFileDeps): Promise<void> {
  await Promise.all([...files.readings.pending]);
}

/** Reads the document after the answer was sent; every failure ends in the row, never in the request. */
function read(files: KbFileDeps, fileId: number, upload: Upload): void {
  const { pending } = files.readings;
  const reading = readNow(files, fileId, upload).catch(files.onError);
  pending.add(reading);
  void reading.finally(() => pending.delete(reading));
}

async function readNow(files: KbFileDeps, fileId: number, upload: Upload): Promise<void> {
  await turn(files.readings);
  try {
    const result = await extractInWorker(upload.kind, upload.bytes);
    const now = nowIso();
    if (!result.ok) {
      await repo.updateFile(
        files.db,
        fileId,
        {
          status: 'failed',
          failure_code: result.reason,
          failure_params: JSON.stringify(result.params),
          updated_at: now,
        },
        'processing',
      );
      return;
    }
    const { sections, pageCount } = result.extracted;
    const passages = toPassages(sections);
    const lang = upload.lang ?? detectLanguage(sections.map((s) => s.text).join('\n'));
    // The passages and the status together: a file is never ready with half its passages. A file
    // deleted or read again meanwhile (no longer processing) keeps what it has.
    await files.db.transaction().execute(async (trx) => {
      const current = await repo.findFile(trx, fileId);
      if (current?.status !== 'processing') return;
      await repo.replacePassages(trx, fileId, passages);
      await repo.updateFile(trx, fileId, {
        status: 'ready',
        lang,
        page_count: pageCount,
        passage_count: passages.length,
        updated_at: now,
      });
    });
    await files.index.refresh();
  } finally {
    release(files.readings);
  }
}

async function turn(readings: Readings): Promise<void> {
  if (readings.running < MAX_READING) {
    readings.running++;
    return;
  }
  await new Promise<void>((resolve) => readings.waiting.push(resolve));
}

function release(readings: Readings): void {
  const next = readings.waiting.shift();
  if (next) next();
  else readings.running--;
}
