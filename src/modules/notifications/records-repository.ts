// SQL of the mirrored platform records: projects, investments and revision requests. A row read
// in order to change it is locked on PostgreSQL (FOR UPDATE), so two concurrent reports of the
// same change cannot both see the old status; SQLite runs one writer at a time.
import type { Kysely, Selectable } from 'kysely';
import type { Dialect } from '../../db/index.js';
import { lockedOnPostgres, wasInserted } from '../../db/row-writes.js';
import type { Database } from '../../db/schema.js';
import type { InvestmentsTable, ProjectRevisionRequestsTable, ProjectsTable } from './tables.js';

/** Rows as read from the database. */
export type ProjectRecord = Selectable<ProjectsTable>;
export type InvestmentRecord = Selectable<InvestmentsTable>;
export type RevisionRequestRecord = Selectable<ProjectRevisionRequestsTable>;

const PROJECT_COLUMNS = ['id', 'owner_id', 'title', 'status', 'created_at', 'updated_at'] as const;
const INVESTMENT_COLUMNS = [
  'id',
  'project_id',
  'investor_id',
  'amount',
  'status',
  'notes',
  'created_at',
  'updated_at',
] as const;

/**
 * The statements of a "create or update, knowing the old status" on one kind of mirrored record;
 * saveMirrored in integration.ts runs them in this order: insert unless present, lock, update.
 */
export interface MirroredStore<R extends { id: number; status: string; updated_at: string }> {
  /** Inserts the record unless its id exists; true when it was inserted. */
  insertIfAbsent(db: Kysely<Database>, record: R): Promise<boolean>;
  /** The record as stored, which must exist; locked until the transaction ends on PostgreSQL. */
  lockExisting(db: Kysely<Database>, id: number, dialect: Dialect): Promise<R>;
  /** Writes every column but the id and created_at; returns the record as stored. */
  update(db: Kysely<Database>, record: R): Promise<R>;
}

export async function findProject(db: Kysely<Database>, id: number): Promise<ProjectRecord | undefined> {
  return db.selectFrom('projects').select(PROJECT_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export const projects: MirroredStore<ProjectRecord> = {
  insertIfAbsent: (db, project) =>
    wasInserted(
      db
        .insertInto('projects')
        .values(project)
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id'),
    ),
  lockExisting: (db, id, dialect) =>
    lockedOnPostgres(
      db.selectFrom('projects').select(PROJECT_COLUMNS).where('id', '=', id),
      dialect,
    ).executeTakeFirstOrThrow(),
  update: (db, { id, owner_id, title, status, updated_at }) =>
    db
      .updateTable('projects')
      .set({ owner_id, title, status, updated_at })
      .where('id', '=', id)
      .returning(PROJECT_COLUMNS)
      .executeTakeFirstOrThrow(),
};

export const investments: MirroredStore<InvestmentRecord> = {
  insertIfAbsent: (db, investment) =>
    wasInserted(
      db
        .insertInto('investments')
        .values(investment)
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id'),
    ),
  lockExisting: (db, id, dialect) =>
    lockedOnPostgres(
      db.selectFrom('investments').select(INVESTMENT_COLUMNS).where('id', '=', id),
      dialect,
    ).executeTakeFirstOrThrow(),
  update: (db, { id, project_id, investor_id, amount, status, notes, updated_at }) =>
    db
      .updateTable('investments')
      .set({ project_id, investor_id, amount, status, notes, updated_at })
      .where('id', '=', id)
      .returning(INVESTMENT_COLUMNS)
      .executeTakeFirstOrThrow(),
};

export async function insertRevisionRequest(
  db: Kysely<Database>,
  request: Omit<RevisionRequestRecord, 'id'>,
): Promise<RevisionRequestRecord> {
  return db
    .insertInto('project_revision_requests')
    .values(request)
    .returning(['id', 'project_id', 'revision_notes', 'created_at'])
    .executeTakeFirstOrThrow();
}
