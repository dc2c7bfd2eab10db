// A LIKE pattern for "contains", the same on both dialects: the text lower-cased and its
// wildcards escaped, matched with ESCAPE '\' against a lower-cased column.

/** Escapes LIKE wildcards so user input matches literally (with ESCAPE '\'). */
export function likeContains(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
