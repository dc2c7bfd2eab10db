// What a member's message asks, read the way members write: the language it is in (Persian typed
// in Latin letters is Persian), the passages that answer it, and whether any does. The chat and the
// evaluation (npm run eval -- assistant) both go through understand().
import type { Locale } from '../../http/i18n.js';
import { isFinglish } from './finglish-words.js';
import type { Hit, KnowledgeBase, Passage } from './knowledge.js';
import { answerPassages, DEFAULT_THRESHOLDS, isWeakMatch, type Thresholds } from './retrieval.js';
import { messageLanguage } from './text.js';

/** One message of a member, with what the chat knows around it. */
export interface Turn {
  message: string;
}

export interface Understanding {
  /** The language the answer is written in: the message's, Persian for Persian typed in Latin letters. */
  language: Locale;
  /** The message is Persian typed in Latin letters. */
  finglish: boolean;
  /** The best passages, best first. */
  hits: Hit[];
  /** No passage answers the message well: the answer says so and offers a ticket. */
  weakMatch: boolean;
  /** The passages the answer is made of, best first; none on a weak match. */
  passages: Passage[];
}

export function understand(
  knowledge: KnowledgeBase,
  turn: Turn,
  thresholds: Record<Locale, Thresholds> = DEFAULT_THRESHOLDS,
): Understanding {
  const finglish = isFinglish(turn.message);
  const language = finglish ? 'fa' : messageLanguage(turn.message);
  const text = finglish ? knowledge.readLatin(turn.message) : turn.message;
  const rule = thresholds[language];
  const match = knowledge.match(text, language, 3);
  const weakMatch = isWeakMatch(match, rule);
  const passages = answerPassages({ hits: match.hits, weakMatch, secondRatio: rule.secondRatio });
  return { language, finglish, hits: match.hits, weakMatch, passages };
}
