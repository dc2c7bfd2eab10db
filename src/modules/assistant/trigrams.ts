// The features the phrasing index (ngrams.ts) compares: each word's character trigrams and each
// pair of neighbouring words.
const N = 3;

/** The trigrams of one word, padded with a space on both sides so its start and end count. */
export function wordTrigrams(word: string): string[] {
  const padded = ` ${word} `;
  const grams: string[] = [];
  if (padded.length <= N) grams.push(padded);
  for (let i = 0; i + N <= padded.length; i += 1) grams.push(padded.slice(i, i + N));
  return grams;
}

/**
 * The trigrams of each word, padded with a space on both sides so word starts and ends count,
 * and each pair of neighbouring words as one more feature, so word order counts too ("status
 * changed" meets the passage that says it, not every passage with "status" and "changed").
 */
export function trigrams(words: string[]): string[] {
  const grams: string[] = [];
  for (const [index, word] of words.entries()) {
    grams.push(...wordTrigrams(word));
    if (index > 0) grams.push(`${words[index - 1]}|${word}`);
  }
  return grams;
}
