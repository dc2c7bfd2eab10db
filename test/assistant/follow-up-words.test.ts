// Everyday words for what follows an answer (the thesaurus's last groups): a follow-up that says
// "say no", "falls short", "breaks again", "a new one" or "بیخیالش" in place of the knowledge
// base's words (rejected, goal, reopen, create, لغو) reaches the step it asks for, which the
// conversation alone does not tell apart from the passage just answered.
import { describe, expect, it } from 'vitest';
import {
  bundledKnowledgeBase,
  DEFAULT_RANKING,
  KnowledgeBase,
  loadOutside,
  loadPassages,
  loadThesaurus,
} from '../../src/modules/assistant/knowledge.js';
import { type Exchange, understand } from '../../src/modules/assistant/understanding.js';

const kb = bundledKnowledgeBase();
/** What a follow-up says instead of the knowledge base's words, as the groups below map them. */
const FOLLOW_UP_PHRASES = new Set([
  'say no',
  'says no',
  'falls short',
  'fall short',
  'breaks again',
  'happens again',
  'new one',
  'another one',
  'get a new',
  'come back',
  'comes back',
  'بیخیالش',
  'بیخیال',
  'جمع نشد',
  'جمع نشه',
  'doesnt make it',
]);
const thesaurus = loadThesaurus();
/** The bundled knowledge base without those groups. */
const without = new KnowledgeBase(
  loadPassages(),
  {
    en: thesaurus.en.filter((t) => !FOLLOW_UP_PHRASES.has(t.phrase)),
    fa: thesaurus.fa.filter((t) => !FOLLOW_UP_PHRASES.has(t.phrase)),
  },
  DEFAULT_RANKING,
  loadOutside(),
);

/** The first passage of the answer to the last message, the earlier ones asked first. */
function answer(knowledge: KnowledgeBase, ...messages: string[]): string | undefined {
  const earlier: Exchange[] = [];
  for (const message of messages.slice(0, -1)) {
    const sources = understand(knowledge, { message, earlier: [...earlier] }).passages.map((p) => p.id);
    earlier.unshift({ message, sources });
  }
  return understand(knowledge, { message: messages.at(-1)!, earlier }).passages[0]?.id;
}

/** Follow-ups whose step the conversation alone does not find (each a miss without the groups). */
const FOLLOW_UPS: Array<{ expected: string; messages: string[] }> = [
  { expected: 'projects.rejected', messages: ['how does the project review work', 'what happens if they say no'] },
  {
    expected: 'projects.not-funded',
    messages: ['how much money has the project collected', 'what if it doesnt make it'],
  },
  { expected: 'accounts.tokens', messages: ['my token was leaked', 'how do i get another one'] },
  {
    expected: 'tickets.reopen-close',
    messages: ['when will support reply to my ticket', 'what if the problem happens again later'],
  },
];

describe('everyday words for what follows an answer', () => {
  it('map to the words of the passages they stand for', () => {
    for (const phrase of ['say no', 'falls short', 'breaks again', 'another one'])
      expect(
        thesaurus.en.some((t) => t.phrase === phrase),
        phrase,
      ).toBe(true);
    expect(thesaurus.fa.some((t) => t.phrase === 'بیخیالش')).toBe(true);
  });

  it.each(FOLLOW_UPS)('lead the follow-up to $expected', ({ expected, messages }) => {
    expect(answer(kb, ...messages)).toBe(expected);
  });

  it('are what decides: without them each of these follow-ups misses its step', () => {
    for (const { expected, messages } of FOLLOW_UPS)
      expect(answer(without, ...messages), messages.at(-1)).not.toBe(expected);
  });

  it("read Persian too: changing one's mind after a status is a cancellation", () => {
    expect(answer(kb, 'وضعیت فعال تو سرمایه گذاری یعنی چی', 'هنوز میتونم بیخیالش بشم؟')).toBe('investing.cancel');
  });
});
