// A long message weak as a whole: a greeting and a story dilute the score of the passage it asks
// about, or carry words that sit near a question outside the scope ("I live abroad…"), though the
// question itself is clear. Such a message is answered when its parts bear out the whole message's
// best passage; nothing here lowers the bar for a message its parts do not agree on.
import type { Passage, SearchMatch } from './knowledge.js';
import { confidence, type Thresholds } from './retrieval.js';

export interface Parts {
  /** The message's parts (message-parts.ts), each with its own search. */
  parts: Array<{ text: string; match: SearchMatch }>;
  /** The parts that ask something. */
  asked: ReadonlySet<string>;
}

/**
 * The whole message's best passage when its parts bear it out, else undefined: a part that asks
 * something finds it first and is confident alone (the question judged on its own words, its own
 * nearness to outside questions); or the whole falls at most nearMiss short of the threshold and
 * some part, asking or telling, finds it first.
 */
export function borneOut(
  whole: SearchMatch,
  { parts, asked }: Parts,
  rule: Thresholds,
  nearMiss: number,
): Passage | undefined {
  const best = whole.hits[0]?.passage;
  if (!best) return undefined;
  const findsBest = parts.filter(({ match }) => match.hits[0]?.passage.id === best.id);
  const clearQuestion = findsBest.some(
    ({ text, match }) => asked.has(text) && confidence(match, rule) >= rule.minConfidence,
  );
  const nearly = confidence(whole, rule) >= rule.minConfidence - nearMiss && findsBest.length > 0;
  return clearQuestion || nearly ? best : undefined;
}
