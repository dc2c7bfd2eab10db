import type { Kysely } from 'kysely';
import { timestampType, withSerialId } from '../schema-helpers.js';

// The knowledge base edited at run time: categories (a tree), tags, articles (one row per key and
// language), every version of an article as a revision, and a log of changes the instances read
// to re-index what changed.
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);

  await withSerialId(db, db.schema.createTable('kb_categories'))
    .addColumn('slug', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('parent_id', 'integer', (c) => c.references('kb_categories.id').onDelete('restrict'))
    .addColumn('name_en', 'varchar(200)', (c) => c.notNull())
    .addColumn('name_fa', 'varchar(200)', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  await withSerialId(db, db.schema.createTable('kb_tags'))
    .addColumn('name', 'varchar(60)', (c) => c.notNull().unique())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();

  await withSerialId(db, db.schema.createTable('kb_articles'))
    .addColumn('key', 'varchar(120)', (c) => c.notNull())
    .addColumn('lang', 'varchar(2)', (c) => c.notNull())
    .addColumn('slug', 'varchar(160)', (c) => c.notNull())
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    // JSON arrays of strings.
    .addColumn('questions', 'text', (c) => c.notNull())
    .addColumn('pages', 'text', (c) => c.notNull())
    .addColumn('category_id', 'integer', (c) => c.references('kb_categories.id').onDelete('restrict'))
    .addColumn('status', 'varchar(12)', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addUniqueConstraint('kb_articles_key_lang_unique', ['key', 'lang'])
    .addUniqueConstraint('kb_articles_lang_slug_unique', ['lang', 'slug'])
    .execute();
  await db.schema
    .createIndex('kb_articles_status_lang_index')
    .on('kb_articles')
    .columns(['status', 'lang', 'id'])
    .execute();
  await db.schema.createIndex('kb_articles_category_index').on('kb_articles').columns(['category_id']).execute();

  await db.schema
    .createTable('kb_article_tags')
    .addColumn('article_id', 'integer', (c) => c.notNull().references('kb_articles.id').onDelete('cascade'))
    .addColumn('tag_id', 'integer', (c) => c.notNull().references('kb_tags.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('kb_article_tags_pk', ['article_id', 'tag_id'])
    .execute();
  await db.schema
    .createIndex('kb_article_tags_tag_index')
    .on('kb_article_tags')
    .columns(['tag_id', 'article_id'])
    .execute();

  await withSerialId(db, db.schema.createTable('kb_revisions'))
    .addColumn('article_id', 'integer', (c) => c.notNull().references('kb_articles.id').onDelete('cascade'))
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('action', 'varchar(20)', (c) => c.notNull())
    // The article's fields as they were after this revision (JSON), and the names of those that changed.
    .addColumn('snapshot', 'text', (c) => c.notNull())
    .addColumn('changed', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addUniqueConstraint('kb_revisions_article_revision_unique', ['article_id', 'revision'])
    .execute();

  // Every instance reads the changes after the last one it applied (a poll on SQLite; on
  // PostgreSQL when the kb channel says there is one).
  await withSerialId(db, db.schema.createTable('kb_changes'))
    .addColumn('key', 'varchar(120)', (c) => c.notNull())
    .addColumn('lang', 'varchar(2)', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['kb_changes', 'kb_revisions', 'kb_article_tags', 'kb_articles', 'kb_tags', 'kb_categories'])
    await db.schema.dropTable(table).ifExists().execute();
}
