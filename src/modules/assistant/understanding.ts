// What a member's message asks, read the way members write: the language it is in (Persian typed
// in Latin letters is Persian), the question or questions inside a long message, and, when the
// message alone is vague, the page it is asked on and what the conversation was just about. The
// chat and the evaluation (npm run eval -- assistant) both go through understand().
import type { Locale } from '../../core/i18n.js';
import { isFinglish } from './finglish-words.js';
import type { Hit, KnowledgeBase, Passage, SearchMatch } from './knowledge.js';
import { borneOut, namedByQuestions, secondPassage } from './long-messages.js';
import { asksSomething, messageParts, onlyCourtesy, refersToContext, wordCount } from './message-parts.js';
import { pageAffinities, pageOwnPassage } from './page-context.js';
import {
  answerPassages,
  confidence,
  DEFAULT_THRESHOLDS,
  isWeakMatch,
  namesOutsideSubject,
  ordered,
  type Thresholds,
} from './retrieval.js';
import { DEFAULT_READING, type Reading } from './reading.js';
import { messageLanguage } from './text.js';
import { aroundWhatItSays, EARLIER_EXCHANGES, type Turn, withSubjects } from './turn-context.js';
import { asksNextStep, nextSteps, pointedAt, sayingWhen } from './vague-turns.js';

export type { Exchange, Turn } from './turn-context.js';

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

/** The parts of a long message (those that ask something, or any for borneOut), searched on their own at most. */
const MAX_ASKED = 6;

/**
 * How many passages a search ranks in full. The page and the conversation can raise a passage
 * only if it is ranked, so the passages they point at (aroundTurn) are ranked as well; any other
 * passage below the first CANDIDATES cannot reach the first three.
 */
const CANDIDATES = 50;

export { DEFAULT_READING, type Reading } from './reading.js';

export interface UnderstandOptions {
  thresholds?: Record<Locale, Thresholds>;
  reading?: Reading;
}

export function understand(knowledge: KnowledgeBase, turn: Turn, options: UnderstandOptions = {}): Understanding {
  const reading = options.reading ?? DEFAULT_READING;
  const finglish = isFinglish(turn.message);
  const language = finglish ? 'fa' : messageLanguage(turn.message);
  const rule = (options.thresholds ?? DEFAULT_THRESHOLDS)[language];
  // The answers the chat gave; the turn reads an unanswered message by its best passage (turn-context.ts).
  const answered = turn.earlier;
  turn = withSubjects(knowledge, turn, reading);
  const around = aroundTurn(knowledge, language, turn, reading);
  // Each text is searched once: a part may be searched for its question and again for borneOut.
  const searches = new Map<string, SearchMatch>();
  const search = (text: string): SearchMatch => {
    let found = searches.get(text);
    if (!found) {
      found = finglish
        ? searchFinglish(knowledge, text, reading.englishWeight, around)
        : knowledge.match(text, language, CANDIDATES, { also: around });
      searches.set(text, found);
    }
    return found;
  };

  let match = search(turn.message);
  const parts = messageParts(turn.message);
  // At most MAX_ASKED parts are searched on their own, so a message of many tiny questions costs a bounded number of searches.
  const asked = parts.length >= 2 ? parts.filter(asksSomething).slice(0, MAX_ASKED) : [];
  // One question inside a story: the parts that ask something, when they say it more clearly than the whole.
  if (asked.length > 0 && asked.length < parts.length) {
    const questions = search(asked.join(' '));
    const clearer = confidence(questions, rule) > confidence(match, rule) + reading.askedMargin;
    const [chosen, other] = clearer ? [questions, match] : [match, questions];
    // The other search reorders the chosen one only when it would answer on its own: a vague question
    // after a story ("what should i choose?") says nothing of which passage the story needs.
    const reorders = reading.askedWeight > 0 && !isWeakMatch(other, rule);
    match = reorders ? ordered(chosen, other, reading.askedWeight) : chosen;
  }

  let via: Understanding['via'] = parts.length >= 2 ? 'questions' : 'message';
  // No word to search ("what are these for", "cant get in"), asked on a page at the start of a
  // conversation (later, vague-turns.ts reads it with what was just said): the page's own passage.
  const onPageOnly = match.hits.length === 0 && !turn.earlier?.length && !onlyCourtesy(turn.message);
  const own =
    onPageOnly && turn.page ? pageOwnPassage(knowledge.withPages(language), turn.page, reading.moduleShare) : undefined;
  if (own) return { language, finglish, hits: [unscored(own)], weakMatch: false, passages: [own], via: 'context' };
  if (match.hits.length > 0 && confidence(match, rule) < reading.clear && (turn.page || turn.earlier?.length)) {
    match = inContext(knowledge, match, aroundWhatItSays(knowledge, match, turn, rule, reading), reading);
    via = 'context';
  }
  let hits = match.hits.slice(0, 3);
  let weakMatch = isWeakMatch({ ...match, hits }, rule);
  let passages = answerPassages({ hits, weakMatch, secondRatio: rule.secondRatio });
  // A long message weak as a whole, its parts bearing out its best passage (long-messages.ts).
  if (weakMatch && parts.length >= 2) {
    const read = {
      parts: parts.slice(0, MAX_ASKED).map((text) => ({ text, match: search(text) })),
      asked: new Set(asked),
    };
    const best = borneOut(match, read, rule, reading.nearMiss);
    if (best) [passages, weakMatch] = [[best], false];
  }

  // A second question: a part that names a passage of its own (long-messages.ts) joins the answer
  // as its second passage (two such parts answer a message that is weak as a whole).
  if (asked.length >= 2) {
    const questions = asked.map((text) => ({ text, match: search(text) }));
    const named = namedByQuestions(questions, match, rule, reading);
    const first = passages[0] ?? named[0]?.hits[0]?.passage;
    const second = first && secondPassage(named, first, match, reading.wholeWeight);
    if (first && second) {
      passages = [first, second.passage];
      hits = [match.hits.find((h) => h.passage.id === first.id) ?? named[0]!.hits[0]!, second];
      weakMatch = false;
      via = 'questions';
    }
  }
  // Unanswered, a follow-up that asks only what comes next ("and after that?"): the last answer's
  // first next step (vague-turns.ts).
  const last = answered?.[0]?.sources[0];
  if (weakMatch && last && asksNextStep(knowledge, turn.message, language)) {
    const [chosen] = nextSteps(knowledge, language, last);
    if (chosen) {
      passages = [chosen];
      hits = [unscored(chosen)];
      weakMatch = false;
      via = 'context';
    }
  }
  // A subject the help never covers, named in a short message its answer does not speak of.
  if (passages[0] && namesOutsideSubject(finglish ? knowledge.readLatin(turn.message) : turn.message, passages[0])) {
    passages = [];
    weakMatch = true;
  }
  return { language, finglish, hits, weakMatch, passages, via };
}

/** A passage chosen by what surrounds the message, not by a search. */
const unscored = (passage: Passage): Hit => ({ passage, score: 0, coverage: 0, similarity: 0, own: 0 });

/** The passages the page or the conversation could raise (see inContext), ranked whatever their score. */
function aroundTurn(knowledge: KnowledgeBase, language: Locale, turn: Turn, reading: Reading): Set<string> | undefined {
  const ids = new Set<string>();
  if (turn.page)
    for (const id of pageAffinities(knowledge.withPages(language), turn.page, reading.moduleShare).keys()) ids.add(id);
  for (const exchange of (turn.earlier ?? []).slice(0, EARLIER_EXCHANGES))
    for (const id of exchange.sources) for (const passage of pointedAt(knowledge, language, id)) ids.add(passage.id);
  return ids.size > 0 ? ids : undefined;
}

/**
 * The message's match with each passage's score raised by what surrounds the message: the page
 * (pageBoost) and the passages the last answers used and their topics (followBoost, fading by
 * decay per exchange back).
 */
function inContext(knowledge: KnowledgeBase, match: SearchMatch, turn: Turn, reading: Reading): SearchMatch {
  const prior = new Map<string, number>();
  const credited = new Map<string, number>();
  // A message that points outside itself, or says too little to stand alone, leans on its context in full.
  const refers = refersToContext(turn.message) || wordCount(turn.message) <= reading.shortWords;
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
      const weight = reading.decay ** back * (exchange.share ?? 1);
      const sources = exchange.sources
        .map((id) => knowledge.passage(match.hits[0]!.passage.lang, id))
        .filter((p): p is Passage => p !== undefined);
      for (const source of sources) {
        const after = new Set(back === 0 ? nextSteps(knowledge, source.lang, source.id).map((p) => p.id) : []);
        for (const { passage } of match.hits) {
          const inTopic = after.has(passage.id) || source.topic === passage.topic;
          const next = after.has(passage.id) ? reading.nextShare : 0;
          const share = source.id === passage.id ? reading.sameShare : inTopic ? reading.topicShare + next : 0;
          follow.set(passage.id, Math.max(follow.get(passage.id) ?? 0, weight * share));
        }
      }
    });
    for (const [id, value] of follow) add(id, reading.followBoost * value, reading.followCredit);
    for (const id of sayingWhen(turn.message, match.hits, follow))
      prior.set(id, (prior.get(id) ?? 0) + reading.timeBoost);
  }
  // The context orders the passages with its full weight; a passage's score, which decides whether
  // it answers at all, gets only the credited part, so a question nobody answers stays unanswered
  // on the page or in the conversation it is asked in.
  const ranked = match.hits
    .map((hit) => ({ hit, rank: hit.score + (prior.get(hit.passage.id) ?? 0) }))
    .sort((a, b) => b.rank - a.rank);
  const hits = ranked.map(({ hit }) => ({ ...hit, score: hit.score + (credited.get(hit.passage.id) ?? 0) }));
  // A few words asked on a page: their nearness to an outside question counts contextOutside of it.
  if (!turn.page || wordCount(turn.message) > reading.outsideWords) return { ...match, hits };
  const outside = match.closest + reading.contextOutside * Math.max(0, match.outside - match.closest);
  return { ...match, hits, outside };
}

/**
 * A Finglish message: the search of its Persian reading, each passage's score raised by a share of
 * its score for the message searched as English, since members mix English words in (ticketam
 * low khorde, mitoonam bokonamesh high?) and a passage has the same id in both languages. Whether
 * to answer stays the Persian search's (its known share, its outside questions).
 */
function searchFinglish(
  knowledge: KnowledgeBase,
  message: string,
  englishWeight: number,
  around: Set<string> | undefined,
): SearchMatch {
  const persian = knowledge.readLatin(message);
  if (englishWeight === 0) return knowledge.match(persian, 'fa', CANDIDATES, { also: around });
  // Every passage's English score joins its Persian one before the best are chosen (a passage has the same id in both).
  const english = knowledge.scorer(message, 'en', 'fa');
  return knowledge.match(persian, 'fa', CANDIDATES, {
    also: around,
    bonus: { scores: english, weight: englishWeight },
  });
}
