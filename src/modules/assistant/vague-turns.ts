// A follow-up that says almost nothing itself but "what comes next" ("k and after that??", "خب
// بعدش چی میشه؟") asks for the step after the answer it follows, and a vague follow-up leans to
// it. A passage's next line names its next steps in any topic (after a cancellation, the time a
// refund takes); without one the knowledge base's own order decides: a topic's passages are
// written in the order a member meets them (submit, review, revision…; a refund requested, then
// the time it takes).
import type { Locale } from '../../core/i18n.js';
import type { KnowledgeBase, Passage } from './knowledge.js';
import { wordCount } from './message-parts.js';
import { tokenize } from './terms.js';
import { normalizeText } from './text.js';

// Words that ask for what comes after ("k and after that??", "what next", "خب بعدش چی میشه؟").
const NEXT = new Set(
  ['after', 'afterwards', 'next', 'then', 'بعدش', 'بعد', 'بعدی', 'بعدیش'].map((w) => normalizeText(w)),
);
/** A message of more words than this says enough to be searched on its own. */
const VAGUE_WORDS = 5;

/**
 * True when a short message asks only what comes next: it holds a word of NEXT, and apart from
 * those at most one word the knowledge base searches for ("k and after that??", "what happens next").
 */
export function asksNextStep(knowledge: KnowledgeBase, message: string, language: Locale): boolean {
  if (wordCount(message) > VAGUE_WORDS || !tokenize(message).some((t) => NEXT.has(t))) return false;
  return knowledge.words(message, language).filter((w) => !NEXT.has(normalizeText(w))).length <= 1;
}

/**
 * The steps a member meets after this passage: the passages its next line names (in any topic),
 * or without one the passage written after it in its topic; none after a topic's last.
 */
export function nextSteps(knowledge: KnowledgeBase, language: Locale, id: string): Passage[] {
  const declared = knowledge.passage(language, id)?.next;
  if (!declared) {
    const after = nextInTopic(knowledge, language, id);
    return after ? [after] : [];
  }
  return declared.map((step) => knowledge.passage(language, step)).filter((p): p is Passage => p !== undefined);
}

/** The passage written after this one in its topic: the step a member meets next; none after the last. */
export function nextInTopic(knowledge: KnowledgeBase, language: Locale, id: string): Passage | undefined {
  const passage = knowledge.passage(language, id);
  if (!passage) return undefined;
  const topic = knowledge.ofTopic(language, passage.topic);
  return topic[topic.findIndex((p) => p.id === id) + 1];
}

/** The passages a follow-up to an answer that used this one may be about: its topic's and its next steps. */
export function pointedAt(knowledge: KnowledgeBase, language: Locale, id: string): Passage[] {
  const source = knowledge.passage(language, id);
  return source ? [...knowledge.ofTopic(language, source.topic), ...nextSteps(knowledge, language, id)] : [];
}

// A follow-up that asks when or how long ("and the money goes back how fast?", "اضافیش کی
// برمیگرده") is answered by a passage whose heading asks it too (How long does a refund take?),
// rather than by the passage it follows (Can I cancel an investment?). Persian کی also asks who
// ("کی تعیینش میکنه"); at the small weight this gets, the passage the words name still wins.
// Places (where) and reasons (why) were tried as well: "where do I send the receipts" is not
// "where do I download a receipt", and why changed nothing.
const ASKING_TIME = [
  'when',
  'whens',
  'how long',
  'how fast',
  'how soon',
  'how quickly',
  'how many days',
  'کی',
  'چقدر طول',
  'چقد طول',
  'چقدر سریع',
  'چند روز',
  'چند وقت',
].map((phrase) => ` ${tokenize(phrase).join(' ')} `);
const headingsAskingTime = new WeakMap<Passage, boolean>();

/** True when a text asks for a time by its question words. */
export function asksForTime(text: string): boolean {
  const padded = ` ${tokenize(text).join(' ')} `;
  return ASKING_TIME.some((phrase) => padded.includes(phrase));
}

/**
 * The ids of the ranked passages the conversation points to (`pointed`, by id) whose heading asks
 * for a time, when the message asks for one; none otherwise. Each heading is read once.
 */
export function sayingWhen(message: string, hits: Array<{ passage: Passage }>, pointed: Map<string, number>): string[] {
  if (!asksForTime(message)) return [];
  return hits
    .filter(({ passage }) => (pointed.get(passage.id) ?? 0) > 0)
    .filter(({ passage }) => {
      let asks = headingsAskingTime.get(passage);
      if (asks === undefined) {
        asks = asksForTime(passage.question);
        headingsAskingTime.set(passage, asks);
      }
      return asks;
    })
    .map(({ passage }) => passage.id);
}
