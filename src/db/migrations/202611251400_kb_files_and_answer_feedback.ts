// Documents staff upload for the assistant to read (kb_files, one row per upload, and
// kb_file_passages, the text extracted from it split into passages with their page or heading),
// feedback on single assistant answers (thumbs up or down, one per message), and what staff
// decided about a group of unanswered questions (dismissed, or answered by an article).
import type { Kysely } from 'kysely';
import { timestampType, withSerialId } from '../schema-helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await withSerialId(db, db.schema.createTable('kb_files'))
    .addColumn('title', 'varchar(200)', (c) => c.notNull())
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
    // pdf, docx, txt or md.
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('file_size', 'integer', (c) => c.notNull())
    // Hex SHA-256 of the bytes: the same document uploaded again is the same row.
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull().unique())
    // en or fa; null until the text is read when the upload did not name it.
    .addColumn('lang', 'varchar(2)')
    // processing, ready or failed.
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    // Why a failed document could not be read: a short code (encrypted, zip_bomb, ...) and its values as JSON.
    .addColumn('failure_code', 'varchar(32)')
    .addColumn('failure_params', 'text')
    // 1: its passages are in the assistant's index (when ready); 0: deactivated.
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('page_count', 'integer')
    .addColumn('passage_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('uploaded_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  await withSerialId(db, db.schema.createTable('kb_file_passages'))
    .addColumn('file_id', 'integer', (c) => c.notNull().references('kb_files.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('page', 'integer')
    .addColumn('heading', 'varchar(300)')
    .addColumn('body', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('kb_file_passages_file_position_index')
    .on('kb_file_passages')
    .columns(['file_id', 'position'])
    .unique()
    .execute();

  await withSerialId(db, db.schema.createTable('assistant_answer_feedback'))
    .addColumn('message_id', 'integer', (c) =>
      c.notNull().unique().references('assistant_messages.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // up or down.
    .addColumn('rating', 'varchar(8)', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  await withSerialId(db, db.schema.createTable('assistant_gap_decisions'))
    // The group's key: its language and its normalised terms (see the gaps service).
    .addColumn('group_key', 'varchar(400)', (c) => c.notNull().unique())
    // dismissed or answered.
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('article_key', 'varchar(200)')
    .addColumn('decided_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('decided_at', ts, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('assistant_gap_decisions').execute();
  await db.schema.dropTable('assistant_answer_feedback').execute();
  await db.schema.dropTable('kb_file_passages').execute();
  await db.schema.dropTable('kb_files').execute();
}
