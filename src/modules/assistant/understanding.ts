// What a member's message asks, read the way members write: the language it is in (Persian typed
// in Latin letters is Persian), the question or questions inside a long message, and, when the
// message alone is vague, the page it is asked on and what the conversation was just about. The
// chat and the evaluation (npm run eval -- assistant) both go through understand().
import type { Locale } from '../../http/i18n.js';
import { isFinglish } from './finglish-words.js';
import type { Hit, KnowledgeBase, Passage, SearchMatch } from './knowledge.js';
import { asksSomething, messageParts, refersToContext } from './message-parts.js';
import { type PageRef, pageAffinities } from './page-context.js';
import { answerPassages, confidence, DEFAULT_THRESHOLDS, isWeakMatch, type Thresholds } from './retrieval.js';
import { messageLanguage } from './text.js';

/** One earlier exchange of the conversation: the member's message and the ids of its answer's sources. */
export interface Exchange {
  message: string;
  sources: string[];
}

/** One message of a member, with what the chat knows around it. */
export interface Turn {
  message: string;
  /** The conversation's earlier exchanges, the most recent first. */
  earlier?: Exchange[];
  /** The page the member is on (the chat's context.page). */
  page?: PageRef;
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
  /** What decided: the message alone, its questions (a long message), or the page and conversation around it. */
  via: 'message' | 'questions' | 'context';
}

/** How the page and the conversation weigh, and when a message is read in parts (chosen with eval/assistant/tune-kinds.ts). */
export interface Reading {
  /** A message this confident alone (see retrieval.ts, confidence) is answered alone: nothing around it overrides it. */
  clear: number;
  /** Added to the score of a passage that lists the member's page (route or route name; a module counts moduleShare). */
  pageBoost: number;
  moduleShare: number;
  /**
   * Added to the score of a passage the previous answer used; a passage of the same topic gets
   * topicShare of it, another passage relatedShare times how close its text is to the source's.
   */
  followBoost: number;
  topicShare: number;
  relatedShare: number;
  /** Each exchange further back counts this share of the one after it. */
  decay: number;
  /** Weight of the previous message's own score for each passage. */
  previousWeight: number;
  /**
   * Share of what the page (pageCredit) and the conversation (followCredit) add that counts towards
   * answering at all, for a message that says everything itself (the rest only orders the
   * passages); a message that points outside itself (this, it, here, and…: message-parts.ts) gets all of it.
   */
  pageCredit: number;
  followCredit: number;
  /** A part of a long message must be this confident alone for its passage to answer a second question. */
  partConfidence: number;
}

export const DEFAULT_READING: Reading = {
  clear: 0.8,
  pageBoost: 0.6,
  moduleShare: 0.5,
  followBoost: 0.5,
  topicShare: 0.7,
  relatedShare: 0,
  decay: 0.8,
  previousWeight: 0,
  pageCredit: 0.25,
  followCredit: 0.5,
  partConfidence: 0.62,
};

/** Exchanges further back than this are not read. */
const EARLIER_EXCHANGES = 2;

export interface UnderstandOptions {
  thresholds?: Record<Locale, Thresholds>;
  reading?: Reading;
}

export function understand(knowledge: KnowledgeBase, turn: Turn, options: UnderstandOptions = {}): Understanding {
  const reading = options.reading ?? DEFAULT_READING;
  const finglish = isFinglish(turn.message);
  const language = finglish ? 'fa' : messageLanguage(turn.message);
  const rule = (options.thresholds ?? DEFAULT_THRESHOLDS)[language];
  const read = (text: string): string => (finglish ? knowledge.readLatin(text) : text);
  const everyPassage = knowledge.count(language);
  const search = (text: string): SearchMatch => knowledge.match(read(text), language, everyPassage);

  let match = search(turn.message);
  const parts = messageParts(turn.message);
  if (parts.length >= 2) {
    const asked = parts.filter(asksSomething);
    const matches = asked.map(search);
    // Two questions: two parts that each find their own passage confidently, in the message's order.
    const answered: Passage[] = [];
    for (const part of matches) {
      const best = part.hits[0]?.passage;
      if (best && confidence(part, rule) >= reading.partConfidence && !answered.some((p) => p.id === best.id))
        answered.push(best);
    }
    if (answered.length >= 2) {
      const hits = answered.slice(0, 2).map((p) => match.hits.find((h) => h.passage.id === p.id)!);
      return { language, finglish, hits, weakMatch: false, passages: answered.slice(0, 2), via: 'questions' };
    }
    // One question inside a story: the parts that ask something, when they say it more clearly than the whole.
    if (asked.length > 0 && asked.length < parts.length) {
      const questions = search(asked.join(' '));
      if (confidence(questions, rule) > confidence(match, rule)) match = questions;
    }
  }

  let via: Understanding['via'] = parts.length >= 2 ? 'questions' : 'message';
  if (match.hits.length > 0 && confidence(match, rule) < reading.clear && (turn.page || turn.earlier?.length)) {
    match = inContext(knowledge, match, turn, search, reading);
    via = 'context';
  }
  const hits = match.hits.slice(0, 3);
  const weakMatch = isWeakMatch({ ...match, hits }, rule);
  const passages = answerPassages({ hits, weakMatch, secondRatio: rule.secondRatio });
  return { language, finglish, hits, weakMatch, passages, via };
}

/**
 * The message's match with each passage's score raised by what surrounds the message: the page
 * (pageBoost), the passages the last answers used and their topics (followBoost, fading by decay
 * per exchange back), and the previous message's own score (previousWeight).
 */
function inContext(
  knowledge: KnowledgeBase,
  match: SearchMatch,
  turn: Turn,
  search: (text: string) => SearchMatch,
  reading: Reading,
): SearchMatch {
  const prior = new Map<string, number>();
  const credited = new Map<string, number>();
  const refers = refersToContext(turn.message);
  const add = (id: string, value: number, credit: number) => {
    prior.set(id, (prior.get(id) ?? 0) + value);
    credited.set(id, (credited.get(id) ?? 0) + (refers ? 1 : credit) * value);
  };
  if (turn.page) {
    const passages = match.hits.map((hit) => hit.passage);
    for (const [id, affinity] of pageAffinities(passages, turn.page, reading.moduleShare))
      add(id, reading.pageBoost * affinity, reading.pageCredit);
  }
  const earlier = (turn.earlier ?? []).slice(0, EARLIER_EXCHANGES);
  if (earlier.length > 0) {
    const follow = new Map<string, number>();
    earlier.forEach((exchange, back) => {
      const weight = reading.decay ** back;
      const sources = exchange.sources
        .map((id) => knowledge.passage(match.hits[0]!.passage.lang, id))
        .filter((p): p is Passage => p !== undefined);
      for (const source of sources) {
        const near = relatedness(knowledge, source);
        for (const { passage } of match.hits) {
          const share =
            source.id === passage.id
              ? 1
              : Math.max(
                  source.topic === passage.topic ? reading.topicShare : 0,
                  reading.relatedShare * (near.get(passage.id) ?? 0),
                );
          follow.set(passage.id, Math.max(follow.get(passage.id) ?? 0, weight * share));
        }
      }
    });
    for (const [id, value] of follow) add(id, reading.followBoost * value, reading.followCredit);
    if (reading.previousWeight > 0)
      for (const hit of search(earlier[0]!.message).hits)
        add(hit.passage.id, reading.previousWeight * hit.score, reading.followCredit);
  }
  // The context orders the passages with its full weight; a passage's score, which decides whether
  // it answers at all, gets only the credited part, so a question nobody answers stays unanswered
  // on the page or in the conversation it is asked in.
  const ranked = match.hits
    .map((hit) => ({ hit, rank: hit.score + (prior.get(hit.passage.id) ?? 0) }))
    .sort((a, b) => b.rank - a.rank);
  const hits = ranked.map(({ hit }) => ({ ...hit, score: hit.score + (credited.get(hit.passage.id) ?? 0) }));
  return { ...match, hits };
}

const relatedCache = new WeakMap<KnowledgeBase, Map<string, Map<string, number>>>();

/**
 * How close each passage's text is to a passage's own (its heading and answer searched as a
 * message, each score divided by the best), computed once per passage: a refund follows a project
 * that missed its goal ("…every investor's money is refunded").
 */
function relatedness(knowledge: KnowledgeBase, passage: Passage): Map<string, number> {
  let byPassage = relatedCache.get(knowledge);
  if (!byPassage) {
    byPassage = new Map();
    relatedCache.set(knowledge, byPassage);
  }
  const key = `${passage.lang}:${passage.id}`;
  let near = byPassage.get(key);
  if (!near) {
    const { hits } = knowledge.match(
      `${passage.question}\n${passage.answer}`,
      passage.lang,
      knowledge.count(passage.lang),
    );
    const top = hits[0]?.score || 1;
    near = new Map(hits.filter((h) => h.passage.id !== passage.id).map((h) => [h.passage.id, h.score / top]));
    byPassage.set(key, near);
  }
  return near;
}
