// Unanswered questions grouped by what they ask, with the assistant's own reading of a message
// (KnowledgeBase.expand: stop words dropped, spoken Persian in its written form, endings taken off,
// the thesaurus's phrases adding the words they stand for), so fifty phrasings of one missing
// thing are one group. Two questions of one language are the same thing when their words overlap
// by at least SAME_THING with a question already in the group (weighted Jaccard: a word no passage
// uses weighs UNKNOWN_WEIGHT, as it names the thing the knowledge base lacks; "bitcoin" in "can I
// pay with bitcoin" and "do you accept bitcoin payments").
import { createHash } from 'node:crypto';
import type { Locale } from '../../core/i18n.js';
import type { KnowledgeBase } from '../assistant/knowledge.js';

export const SAME_THING = 0.5;
export const UNKNOWN_WEIGHT = 3;
/** A new question is compared with at most this many questions of a group. */
const COMPARED = 20;

export interface Unanswered {
  question: string;
  lang: Locale;
  askedAt: string;
  /** no_answer: the assistant had nothing; thumbs_down: its asker rated the answer down. */
  why: 'no_answer' | 'thumbs_down';
  reason: string | null;
}

export interface GapGroup {
  /** The group's id: the id of its first question (a hash of the language and the words). */
  id: string;
  /** The ids every member question would have alone, so a decision on any of them applies. */
  memberIds: Set<string>;
  lang: Locale;
  question: string;
  count: number;
  noAnswer: number;
  thumbsDown: number;
  firstAskedAt: string;
  lastAskedAt: string;
  examples: string[];
  reasons: string[];
  words: string[][];
}

/** The id of a question alone (and of a group by its main question). */
export function questionId(lang: Locale, words: string[]): string {
  return createHash('sha256')
    .update(`${lang}:${[...words].sort().join(' ')}`)
    .digest('hex')
    .slice(0, 16);
}

/** Per knowledge base: the words its passages use, per language, rebuilt when its passage count changes. */
const vocabularies = new WeakMap<KnowledgeBase, { size: number; words: Record<Locale, Set<string>> }>();

function vocabulary(knowledge: KnowledgeBase): Record<Locale, Set<string>> {
  const size = knowledge.count('en') + knowledge.count('fa');
  const cached = vocabularies.get(knowledge);
  if (cached?.size === size) return cached.words;
  const words: Record<Locale, Set<string>> = { en: new Set(), fa: new Set() };
  for (const p of knowledge.passages)
    for (const word of knowledge.words([p.question, ...p.alternates, p.answer].join('\n'), p.lang))
      words[p.lang].add(word);
  vocabularies.set(knowledge, { size, words });
  return words;
}

function similarity(a: string[], b: string[], known: Set<string>): number {
  const weight = (word: string) => (known.has(word) ? 1 : UNKNOWN_WEIGHT);
  const left = new Set(a);
  let shared = 0;
  let union = 0;
  for (const word of a) union += weight(word);
  for (const word of new Set(b)) {
    if (left.has(word)) shared += weight(word);
    else union += weight(word);
  }
  return union === 0 ? 0 : shared / union;
}

/** The groups, most asked first (then most recently asked). Questions with no word the assistant reads are left out. */
export function groupQuestions(knowledge: KnowledgeBase, questions: Unanswered[]): GapGroup[] {
  const groups: GapGroup[] = [];
  const ordered = [...questions].sort((a, b) => a.askedAt.localeCompare(b.askedAt));
  const phrasings = new Map<GapGroup, Map<string, number>>();
  const known = vocabulary(knowledge);
  for (const item of ordered) {
    const words = [...new Set(knowledge.expand(item.question, item.lang).terms)];
    if (words.length === 0) continue;
    const own = questionId(item.lang, words);
    let group = groups.find(
      (g) =>
        g.lang === item.lang &&
        g.words.slice(0, COMPARED).some((w) => similarity(w, words, known[item.lang]) >= SAME_THING),
    );
    if (!group) {
      group = {
        id: own,
        memberIds: new Set(),
        lang: item.lang,
        question: item.question,
        count: 0,
        noAnswer: 0,
        thumbsDown: 0,
        firstAskedAt: item.askedAt,
        lastAskedAt: item.askedAt,
        examples: [],
        reasons: [],
        words: [],
      };
      groups.push(group);
      phrasings.set(group, new Map());
    }
    group.memberIds.add(own);
    group.words.push(words);
    group.count++;
    if (item.why === 'no_answer') group.noAnswer++;
    else group.thumbsDown++;
    group.lastAskedAt = item.askedAt;
    if (item.reason && !group.reasons.includes(item.reason)) group.reasons.unshift(item.reason);
    const text = item.question.trim().replace(/\s+/g, ' ');
    const seen = phrasings.get(group)!;
    seen.set(text, (seen.get(text) ?? 0) + 1);
  }
  for (const group of groups) {
    // The main question is the phrasing asked most often (the earliest of equals); examples are the newest others.
    const seen = [...phrasings.get(group)!.entries()];
    group.question = seen.reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0];
    group.examples = seen
      .map(([text]) => text)
      .reverse()
      .filter((text) => text !== group.question)
      .slice(0, 4);
    group.reasons = group.reasons.slice(0, 3);
  }
  return groups.sort((a, b) => b.count - a.count || b.lastAskedAt.localeCompare(a.lastAskedAt));
}
