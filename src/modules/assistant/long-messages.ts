// A long message weak as a whole: a greeting and a story dilute the score of the passage it asks
// about, or carry words that sit near a question outside the scope ("I live abroad…"), though the
// question itself is clear. Such a message is answered when its parts bear out the whole message's
// best passage; nothing here lowers the bar for a message its parts do not agree on. A message
// with two questions gets a second passage from a question that names one of its own.
import type { Hit, Passage, SearchMatch } from './knowledge.js';
import { wordCount } from './message-parts.js';
import { confidence, ordered, type Thresholds } from './retrieval.js';

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

/** What decides which questions of a long message name passages of their own (see Reading). */
export interface QuestionReading {
  partConfidence: number;
  apartConfidence: number;
  shortWords: number;
  wholeWeight: number;
}

/**
 * The searches of the asking parts that name a passage of their own, the most confident first: the
 * candidates for a two-question message's second passage. A part must be partConfidence sure alone.
 * One of at most shortWords words whose best passage is not in the topic of the whole message's
 * best must be apartConfidence sure: a few words after a story ("why does this keep happening?",
 * "باید چی بزنم؟") most often ask about the story, and their own search then finds whatever their
 * few words touch; a few words on the message's own subject ("how do i send a ticket, and can i add
 * a screenshot?") are a question of their own.
 */
export function namedByQuestions(
  asked: Array<{ text: string; match: SearchMatch }>,
  whole: SearchMatch,
  rule: Thresholds,
  reading: QuestionReading,
): SearchMatch[] {
  const topic = whole.hits[0]?.passage.topic;
  const bar = (text: string, match: SearchMatch) =>
    wordCount(text) <= reading.shortWords && match.hits[0]?.passage.topic !== topic
      ? Math.max(reading.apartConfidence, reading.partConfidence)
      : reading.partConfidence;
  return asked
    .map(({ text, match }) => ({ text, match, sure: confidence(match, rule) }))
    .filter(({ text, match, sure }) => match.hits[0] !== undefined && sure >= bar(text, match))
    .sort((a, b) => b.sure - a.sure)
    .map(({ match }) => match);
}

/**
 * The second passage: of the first named question (namedByQuestions) whose own best passage is not
 * the first one, its best passage other than the first, its passages ordered by their score plus
 * wholeWeight of their score for the whole message, so its words are read in the message's sense
 * ("can I delete them all" in a message about notifications is about notifications, not the account).
 */
export function secondPassage(
  named: SearchMatch[],
  first: Passage,
  whole: SearchMatch,
  wholeWeight: number,
): Hit | undefined {
  const question = named.find((match) => match.hits[0]!.passage.id !== first.id);
  if (!question) return undefined;
  const others = { ...question, hits: question.hits.filter((hit) => hit.passage.id !== first.id) };
  return ordered(others, whole, wholeWeight).hits[0];
}
