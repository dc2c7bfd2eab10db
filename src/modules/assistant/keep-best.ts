// A short list of the best-scoring numbers (slots) seen so far, kept sorted as they come. Both the
// search's best passages (ranking.ts) and the document pages whose sentences are compared
// (document-sentences.ts) keep one; this module imports nothing, so either may use it.

/** At most `limit` items by score, highest first, with their scores side by side. */
export interface Best {
  items: number[];
  scores: number[];
  limit: number;
}

export const emptyBest = (limit: number): Best => ({ items: [], scores: [], limit });

/**
 * Keeps the item when it is among the best `limit` so far, dropping the one it pushes out. An item
 * scoring the same as one already kept goes after it: the first to come stays first.
 */
export function keepBest(best: Best, item: number, score: number): void {
  const { items, scores, limit } = best;
  if (limit <= 0 || (items.length === limit && score <= scores[limit - 1]!)) return;
  let at = items.length;
  while (at > 0 && scores[at - 1]! < score) at -= 1;
  items.splice(at, 0, item);
  scores.splice(at, 0, score);
  if (items.length > limit) {
    items.pop();
    scores.pop();
  }
}
