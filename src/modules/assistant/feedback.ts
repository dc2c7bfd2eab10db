// Feedback: what a user sends (checked, then stored) and the list admins read, each row with its author.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { AppDeps } from '../../core/deps.js';
import { ValidationError, type FieldMessages } from '../../core/errors.js';
import { fieldMessage } from '../../core/fields.js';
import { pageMeta, pageOffset } from '../../core/pagination.js';
import { nowIso } from '../../db/index.js';
import { usersByIds, type UserRecord } from '../users/service.js';
import * as repo from './repository.js';

/** A page of feedback, newest first, each row with its author. */
export async function feedbackWithAuthors(
  db: Kysely<Database>,
  query: { type?: string; page: number; perPage: number },
) {
  const { rows, total } = await repo.listFeedback(db, {
    type: query.type,
    limit: query.perPage,
    offset: pageOffset(query.page, query.perPage),
  });
  const authors = await usersByIds(
    db,
    rows.map((row) => row.user_id),
  );
  return {
    rows: rows.map((row) => ({ ...row, author: authorOf(row.user_id, authors) })),
    meta: pageMeta(total, query.page, query.perPage),
  };
}

/** The author of a feedback row; user_id is a foreign key, so a missing user is a broken database. */
function authorOf(
  userId: number,
  authors: Map<number, UserRecord>,
): Pick<UserRecord, 'id' | 'first_name' | 'last_name' | 'email'> {
  const author = authors.get(userId);
  if (!author) throw new Error(`feedback refers to user ${userId}, who does not exist`);
  return { id: author.id, first_name: author.first_name, last_name: author.last_name, email: author.email };
}

export async function addFeedback(
  { deps }: { deps: Pick<AppDeps, 'db'> },
  user: UserRecord,
  input: { type: string; subject: string; content: string; rating?: number },
): Promise<number> {
  const errors: FieldMessages = {};
  for (const field of ['subject', 'content'] as const) {
    if (input[field].trim() === '') errors[field] = [fieldMessage('required', field)];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return repo.insertFeedback(deps.db, {
    user_id: user.id,
    type: input.type,
    subject: input.subject,
    content: input.content,
    rating: input.rating ?? null,
    now: nowIso(),
  });
}

export async function listFeedback(
  { deps }: { deps: Pick<AppDeps, 'db'> },
  query: { type?: string; page: number; perPage: number },
) {
  return feedbackWithAuthors(deps.db, query);
}
