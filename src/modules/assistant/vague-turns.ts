// A follow-up that says almost nothing itself but "what comes next" ("k and after that??", "خب
// بعدش چی میشه؟") asks for the step after the answer it follows. The knowledge base's own order
// decides: a topic's passages are written in the order a member meets them (submit, review,
// revision…; a refund requested, then the time it takes).
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

/** The passage written after this one in its topic: the step a member meets next; none after the last. */
export function nextInTopic(knowledge: KnowledgeBase, language: Locale, id: string): Passage | undefined {
  const passage = knowledge.passage(language, id);
  if (!passage) return undefined;
  const topic = knowledge.ofTopic(language, passage.topic);
  return topic[topic.findIndex((p) => p.id === id) + 1];
}
