// Who may see and change what in the knowledge base: staff (administrators and the support role,
// the 'staff' auth mode) edit everything through the admin API; members get 403 there. Everyone,
// signed in or not, reads the published articles of the help centre and nothing else.
import { msg, notFound } from '../../core/errors.js';
import { digitsId } from '../../core/ids.js';
import type { ArticleRecord } from './repository.js';

/** The route options of every editing route. */
export const STAFF_ROUTE = { auth: 'staff', validationForm: 'general' } as const;

/** Whether members (and visitors) may read the article. */
export function isPublic(article: Pick<ArticleRecord, 'status'>): boolean {
  return article.status === 'published';
}

/** A path id: digits only and within range, else the thing's 404 (an id that cannot exist is not there). */
export function pathId(value: string, notFoundKey: string): number {
  const id = digitsId(value);
  if (id === undefined) throw notFound(msg(notFoundKey));
  return id;
}
