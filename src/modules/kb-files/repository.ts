// SQL of uploaded documents: the files, their passages, and what the assistant's index needs of them.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { DocumentPassage } from './passages.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface FileRow {
  id: number;
  title: string;
  file_name: string;
  kind: string;
  file_size: number;
  sha256: string;
  lang: string | null;
  status: string;
  failure_code: string | null;
  failure_params: string | null;
  active: number;
  page_count: number | null;
  passage_count: number;
  uploaded_by: number | null;
  created_at: string;
  updated_at: string;
}

const FILE_COLUMNS = [
  'id',
  'title',
  'file_name',
  'kind',
  'file_size',
  'sha256',
  'lang',
  'status',
  'failure_code',
  'failure_params',
  'active',
  'page_count',
  'passage_count',
  'uploaded_by',
  'created_at',
  'updated_at',
] as const;

export async function findFile(db: Db, id: number): Promise<FileRow | undefined> {
  return db.selectFrom('kb_files').select(FILE_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function findFileBySha(db: Db, sha256: string): Promise<FileRow | undefined> {
  return db.selectFrom('kb_files').select(FILE_COLUMNS).where('sha256', '=', sha256).executeTakeFirst();
}

export async function insertFile(
  db: Db,
  values: {
    title: string;
    file_name: string;
    kind: string;
    file_size: number;
    sha256: string;
    lang: string | null;
    uploaded_by: number;
    now: string;
  },
): Promise<FileRow | undefined> {
  const { now, ...rest } = values;
  // undefined: a file with these bytes exists (two uploads of one document at the same moment).
  return db
    .insertInto('kb_files')
    .values({ ...rest, status: 'processing', active: 1, passage_count: 0, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('sha256').doNothing())
    .returning(FILE_COLUMNS)
    .executeTakeFirst();
}

export async function listFiles(
  db: Db,
  filter: { status?: string; limit: number; offset: number },
): Promise<{ rows: FileRow[]; total: number }> {
  let base = db.selectFrom('kb_files');
  if (filter.status) base = base.where('status', '=', filter.status);
  const [rows, count] = await Promise.all([
    base.select(FILE_COLUMNS).orderBy('id', 'desc').limit(filter.limit).offset(filter.offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** Sets fields of a file and moves updated_at (which tells every instance's index to look again). */
export async function updateFile(
  db: Db,
  id: number,
  values: Partial<
    Pick<
      FileRow,
      'title' | 'active' | 'status' | 'lang' | 'failure_code' | 'failure_params' | 'page_count' | 'passage_count'
    >
  > & {
    updated_at: string;
  },
  onlyWhenStatus?: string,
): Promise<boolean> {
  let query = db.updateTable('kb_files').set(values).where('id', '=', id);
  if (onlyWhenStatus) query = query.where('status', '=', onlyWhenStatus);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteFile(db: Db, id: number): Promise<boolean> {
  await db.deleteFrom('kb_file_passages').where('file_id', '=', id).execute();
  const result = await db.deleteFrom('kb_files').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function replacePassages(db: Db, fileId: number, passages: DocumentPassage[]): Promise<void> {
  await db.deleteFrom('kb_file_passages').where('file_id', '=', fileId).execute();
  // Batches keep each statement under the databases' bound-parameter limits.
  for (let at = 0; at < passages.length; at += 200) {
    await db
      .insertInto('kb_file_passages')
      .values(passages.slice(at, at + 200).map((p) => ({ file_id: fileId, ...p })))
      .execute();
  }
}

export async function passagesOf(db: Db, fileId: number): Promise<DocumentPassage[]> {
  return db
    .selectFrom('kb_file_passages')
    .select(['position', 'page', 'heading', 'body'])
    .where('file_id', '=', fileId)
    .orderBy('position')
    .execute();
}

/** What the assistant's index holds: ready, active files with their version (updated_at). */
export async function indexedFiles(
  db: Db,
): Promise<Array<{ id: number; title: string; lang: string | null; updated_at: string }>> {
  return db
    .selectFrom('kb_files')
    .select(['id', 'title', 'lang', 'updated_at'])
    .where('status', '=', 'ready')
    .where('active', '=', 1)
    .execute();
}

/** Files left processing since before `before` (their process went away): they are marked failed. */
export async function failAbandoned(db: Db, before: string, now: string): Promise<number> {
  const result = await db
    .updateTable('kb_files')
    .set({ status: 'failed', failure_code: 'interrupted', failure_params: '{}', updated_at: now })
    .where('status', '=', 'processing')
    .where('updated_at', '<', before)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
