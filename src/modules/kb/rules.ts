// What an article's fields may hold, shared by the API's schemas and the Markdown import so a file
// the import takes is an article the API takes, and the other way round.
export const KEY_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)*$/;
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const TAG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** A question or page fits on one line and cannot close the Markdown comment that holds it. */
export const LINE_PATTERN = /^(?!.*-->)\P{Cc}*$/u;
/** A page also holds no comma: the Markdown lists pages comma-separated. */
export const PAGE_PATTERN = /^(?!.*-->)[^,\p{Cc}]*$/u;

export const LIMITS = {
  key: 120,
  slug: 160,
  title: 255,
  body: 100_000,
  questions: 100,
  question: 500,
  pages: 30,
  next: 10,
  page: 200,
  tags: 20,
  tag: 60,
  categoryName: 200,
} as const;

/** Why a Markdown body cannot be stored as it is (it would not come back the same from a file), or null. */
export function bodyFault(body: string): 'heading' | 'comment' | null {
  if (/^## /m.test(body)) return 'heading';
  if (body.trimStart().startsWith('<!--')) return 'comment';
  return null;
}
