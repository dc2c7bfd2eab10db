// Saved replies: texts staff start a reply from, one language each, with placeholders the console
// fills in from the ticket ({{first_name}}, {{last_name}}, {{tracking_code}}, {{subject}},
// {{agent_name}}). A placeholder outside that list is refused when the reply is saved, so a
// typo never reaches a member as braces.
import type { AppDeps } from '../../core/deps.js';
import { notFound, msg } from '../../core/errors.js';
import { canonicalId } from '../../core/ids.js';
import { nowIso } from '../../db/index.js';
import './messages.js';
import * as repo from './saved-replies-query.js';

export const PLACEHOLDERS = ['first_name', 'last_name', 'tracking_code', 'subject', 'agent_name'] as const;
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The placeholders of a text that are not in PLACEHOLDERS. */
export function unknownPlaceholders(text: string): string[] {
  const known = new Set<string>(PLACEHOLDERS);
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!).filter((name) => !known.has(name));
}

/** Fills a saved reply's placeholders with the ticket's values (the console does the same). */
export function fillPlaceholders(text: string, values: Partial<Record<(typeof PLACEHOLDERS)[number], string>>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => values[name as keyof typeof values] ?? whole);
}

export interface SavedReplyInput {
  title: string;
  body: string;
  lang: 'en' | 'fa';
}

const view = (row: repo.SavedReplyRow) => ({ ...row, lang: row.lang as 'en' | 'fa' });
const missing = () => notFound(msg('console.saved_reply_not_found'));

export async function listSavedReplies(deps: AppDeps, lang?: string) {
  return (await repo.listSavedReplies(deps.db, lang)).map(view);
}

/** The declared fields only: a body may carry others (the schema leaves them in), and they are no columns. */
const fieldsOf = ({ title, body, lang }: SavedReplyInput) => ({ title, body, lang });

export async function createSavedReply(deps: AppDeps, authorId: number, input: SavedReplyInput) {
  const now = nowIso();
  return view(
    await repo.insertSavedReply(deps.db, {
      ...fieldsOf(input),
      created_by: authorId,
      created_at: now,
      updated_at: now,
    }),
  );
}

export async function updateSavedReply(deps: AppDeps, id: number, input: SavedReplyInput) {
  const row = await repo.updateSavedReply(deps.db, id, { ...fieldsOf(input), updated_at: nowIso() });
  if (!row) throw missing();
  return view(row);
}

export async function deleteSavedReply(deps: AppDeps, id: number) {
  if (!(await repo.deleteSavedReply(deps.db, id))) throw missing();
}

/** A path id that is not a positive 32-bit integer is a saved reply that does not exist. */
export function savedReplyId(raw: string): number {
  const id = canonicalId(raw);
  if (id === undefined) throw missing();
  return id;
}
