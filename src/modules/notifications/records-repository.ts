// SQL of the mirrored platform records: projects, investments and revision requests. Functions
// that read a row in order to change it lock it on PostgreSQL (FOR UPDATE), so two concurrent
// reports of the same change cannot both see the old status; SQLite runs one writer at a time.
import type { Kysely, Selectable } from 'kysely';
import type { Dialect } from '../../db/index.js';
import type { Database } from '../../db/schema.js';
import type { InvestmentsTable, ProjectRevisionRequestsTable, ProjectsTable } from './tables.js';

/** Rows as read from the database. */
export type ProjectRecord = Selectable<ProjectsTable>;
export type InvestmentRecord = Selectable<InvestmentsTable>;
export type RevisionRequestRecord = Selectable<ProjectRevisionRequestsTable>;

const PROJECT_COLUMNS = ['id', 'owner_id', 'title', 'status', 'created_at', 'updated_at'] as const;
const INVESTMENT_COLUMNS = ['id', 'project_id', 'investor_id', 'amount', 'status', 'notes', 'created_at', 'updated_at'] as const;

export interface RecipientRow {
  id: number;
  first_name: string;
  last_name: string;
  locale: string;
}

export async function findRecipient(db: Kysely<Database>, userId: number): Promise<RecipientRow | undefined> {
  return db.selectFrom('users').select(['id', 'first_name', 'last_name', 'locale']).where('id', '=', userId).executeTakeFirst();
}

export async function findProject(db: Kysely<Database>, id: number, dialect: Dialect, lock = false): Promise<ProjectRecord | undefined> {
  return db
    .selectFrom('projects')
    .select(PROJECT_COLUMNS)
    .where('id', '=', id)
    .$if(lock && dialect === 'postgres', (qb) => qb.forUpdate())
    .executeTakeFirst();
}

/** Inserts the project unless its id exists; true when it was inserted. */
export async function insertProjectIfAbsent(db: Kysely<Database>, project: ProjectRecord): Promise<boolean> {
  const inserted = await db
    .insertInto('projects')
    .values(project)
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function updateProject(
  db: Kysely<Database>,
  id: number,
  changes: Pick<ProjectRecord, 'owner_id' | 'title' | 'status' | 'updated_at'>,
): Promise<ProjectRecord> {
  return db.updateTable('projects').set(changes).where('id', '=', id).returning(PROJECT_COLUMNS).executeTakeFirstOrThrow();
}

export async function findInvestment(db: Kysely<Database>, id: number, dialect: Dialect, lock = false): Promise<InvestmentRecord | undefined> {
  return db
    .selectFrom('investments')
    .select(INVESTMENT_COLUMNS)
    .where('id', '=', id)
    .$if(lock && dialect === 'postgres', (qb) => qb.forUpdate())
    .executeTakeFirst();
}

export async function insertInvestmentIfAbsent(db: Kysely<Database>, investment: InvestmentRecord): Promise<boolean> {
  const inserted = await db
    .insertInto('investments')
    .values(investment)
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function updateInvestment(
  db: Kysely<Database>,
  id: number,
  changes: Pick<InvestmentRecord, 'project_id' | 'investor_id' | 'amount' | 'status' | 'notes' | 'updated_at'>,
): Promise<InvestmentRecord> {
  return db.updateTable('investments').set(changes).where('id', '=', id).returning(INVESTMENT_COLUMNS).executeTakeFirstOrThrow();
}

export async function insertRevisionRequest(db: Kysely<Database>, request: Omit<RevisionRequestRecord, 'id'>): Promise<RevisionRequestRecord> {
  return db.insertInto('project_revision_requests').values(request).returning(['id', 'project_id', 'revision_notes', 'created_at']).executeTakeFirstOrThrow();
}
