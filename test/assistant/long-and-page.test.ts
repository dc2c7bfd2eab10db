// A long message weak as a whole that its parts bear out (long-messages.ts), and the page's own
// passage, the answer to a message with no words to search (page-context.ts, understanding.ts).
import { describe, expect, it } from 'vitest';
import { bundledKnowledgeBase, parseKnowledgeFile, type SearchMatch } from '../../src/modules/assistant/knowledge.js';
import { borneOut, namedByQuestions, secondPassage } from '../../src/modules/assistant/long-messages.js';
import { onlyCourtesy } from '../../src/modules/assistant/message-parts.js';
import { pageOwnPassage, pageSpecificity } from '../../src/modules/assistant/page-context.js';
import { DEFAULT_THRESHOLDS } from '../../src/modules/assistant/retrieval.js';
import { DEFAULT_READING, understand } from '../../src/modules/assistant/understanding.js';

const [first, second] = parseKnowledgeFile(
  [
    '## A',
    '<!-- id: t.a -->',
    '<!-- pages: /wallet/refunds, /wallet/transactions, /investments/:id -->',
    'a.',
    '## B',
    '<!-- id: t.b -->',
    '<!-- pages: wallet, /wallet/refunds -->',
    'b.',
  ].join('\n'),
  't',
  'en',
  't.en.md',
);
const hit = (passage: typeof first, score: number) => ({
  passage: passage!,
  score,
  coverage: 1,
  similarity: 0,
  own: 1,
});
/** A search whose confidence under the English defaults is (score + 0.4 × known) / 1.4, its best passage first. */
const found = (best: typeof first, score: number, known = 0.5): SearchMatch => ({
  hits: [hit(best, score), hit(best === first ? second : first, 0)],
  known,
  outside: 0,
  closest: 0,
});
const rule = DEFAULT_THRESHOLDS.en;

describe('a long message weak as a whole', () => {
  // (0.6 + 0.2) / 1.4 ≈ 0.571: just below the threshold of 0.58.
  const nearly = found(first, 0.6);
  // (0.3 + 0.2) / 1.4 ≈ 0.357: far below it.
  const far = found(first, 0.3);

  it('is answered when a question in it finds the same passage first and is confident alone', () => {
    const question = { text: 'how?', match: found(first, 0.7, 1) };
    expect(borneOut(far, { parts: [question], asked: new Set(['how?']) }, rule, 0)?.id).toBe('t.a');
    // A part that only tells, however confident, does not stand for the question.
    expect(borneOut(far, { parts: [question], asked: new Set() }, rule, 0)).toBeUndefined();
    // Nor does a question that finds another passage first.
    const elsewhere = { text: 'how?', match: found(second, 0.7, 1) };
    expect(borneOut(far, { parts: [elsewhere], asked: new Set(['how?']) }, rule, 0)).toBeUndefined();
  });

  it('is answered when it falls at most nearMiss short and some part finds the same passage first', () => {
    const story = { text: 'a story.', match: found(first, 0.2) };
    expect(borneOut(nearly, { parts: [story], asked: new Set() }, rule, 0.03)?.id).toBe('t.a');
    expect(borneOut(nearly, { parts: [story], asked: new Set() }, rule, 0)).toBeUndefined();
    expect(borneOut(far, { parts: [story], asked: new Set() }, rule, 0.03)).toBeUndefined();
    const otherStory = { text: 'a story.', match: found(second, 0.2) };
    expect(borneOut(nearly, { parts: [otherStory], asked: new Set() }, rule, 0.03)).toBeUndefined();
  });

  it('answers a worried story about risks whose parts agree, and not without nearMiss', () => {
    const kb = bundledKnowledgeBase();
    const message = 'سلام. مادرم میخواد همه پس اندازشو تو یه طرح بذاره. من خیلی نگرانم، چه ریسکی داره؟';
    expect(understand(kb, { message }).passages.map((p) => p.id)).toEqual(['investing.risks']);
    const without = { ...DEFAULT_READING, nearMiss: -1 };
    expect(understand(kb, { message }, { reading: without }).passages).toEqual([]);
  });
});

describe('the questions of a long message that name passages of their own', () => {
  const reading = { partConfidence: 0.45, apartConfidence: 0.65, shortWords: 6, wholeWeight: 0.2 };
  const [elsewhere] = parseKnowledgeFile('## C\n<!-- id: u.c -->\nc.', 'u', 'en', 'u.en.md');
  const tops = (named: SearchMatch[]) => named.map((match) => match.hits[0]!.passage.id);
  // (0.6 + 0.2) / 1.4 ≈ 0.571: above partConfidence, below apartConfidence.
  const fair = (best: typeof first) => found(best, 0.6);
  const aboutA = found(first, 0.7);

  it('holds a few words that leave the message’s subject to the bar of a message read apart', () => {
    const few = (best: typeof first) => ({ text: 'why does this happen?', match: fair(best) });
    const more = { text: 'why does the payment page keep failing on me?', match: fair(elsewhere) };
    expect(tops(namedByQuestions([few(elsewhere)], aboutA, rule, reading))).toEqual([]);
    expect(tops(namedByQuestions([more], aboutA, rule, reading))).toEqual(['u.c']);
    // On the whole message's subject, a few words are a question of their own.
    expect(tops(namedByQuestions([few(second)], aboutA, rule, reading))).toEqual(['t.b']);
    // (0.75 + 0.2) / 1.4 ≈ 0.679: sure enough to stand alone however short.
    const sure = { text: 'why does this happen?', match: found(elsewhere, 0.75) };
    expect(tops(namedByQuestions([sure], aboutA, rule, reading))).toEqual(['u.c']);
    expect(tops(namedByQuestions([few(elsewhere)], aboutA, rule, { ...reading, shortWords: 0 }))).toEqual(['u.c']);
  });

  it("takes the second passage from a question's passages ordered by the whole message as well", () => {
    const question: SearchMatch = {
      hits: [hit(elsewhere, 0.8), hit(second, 0.75), hit(first, 0.1)],
      known: 1,
      outside: 0,
      closest: 0,
    };
    const whole: SearchMatch = { hits: [hit(first, 0.9), hit(second, 0.7)], known: 1, outside: 0, closest: 0 };
    expect(secondPassage([question], first!, whole, 0.2)?.passage.id).toBe('t.b');
    expect(secondPassage([question], first!, whole, 0)?.passage.id).toBe('u.c');
    // A question whose best passage is the first one asks the first question again.
    expect(secondPassage([found(first, 0.8)], first!, whole, 0.2)).toBeUndefined();
  });

  it('adds no passage for a few words that ask about the story before them', () => {
    const kb = bundledKnowledgeBase();
    const message =
      'hi, i paid for a project yesterday but the bank page showed an error and my card was charged anyway. ' +
      'why does this happen? and can i attach a screenshot of the error when i send you a ticket?';
    expect(understand(kb, { message }).passages.map((p) => p.id)).toEqual(['tickets.attachments']);
    const anyLength = { ...DEFAULT_READING, shortWords: 0 };
    expect(understand(kb, { message }, { reading: anyLength }).passages.map((p) => p.id)).toEqual([
      'tickets.attachments',
      'notifications.email',
    ]);
  });
});

describe("the page's own passage", () => {
  const kb = bundledKnowledgeBase();
  const page = (route: string) => ({ route, module: route.split('/')[1] });

  it('belongs more to a passage listed on fewer routes', () => {
    expect(pageSpecificity(first!)).toBeCloseTo(1 / 3);
    expect(pageSpecificity(second!)).toBe(1);
    expect(pageOwnPassage([first!, second!], page('/wallet/refunds'), 0.5)?.id).toBe('t.b');
    // A route listed as it is counts over a module, however specific the passage listed by module.
    expect(pageOwnPassage([first!, second!], page('/wallet/transactions'), 0.5)?.id).toBe('t.a');
    expect(pageOwnPassage([first!, second!], page('/projects'), 0.5)).toBeUndefined();
  });

  it('answers a message with no words to search asked on a page, but not greetings or thanks', () => {
    expect(understand(kb, { message: 'what are these for' }).passages).toEqual([]);
    expect(
      understand(kb, { message: 'what are these for', page: page('/profile/security') }).passages.map((p) => p.id),
    ).toEqual(['accounts.tokens']);
    expect(understand(kb, { message: 'cant get in', page: page('/login') }).passages.map((p) => p.id)).toEqual([
      'accounts.password',
    ]);
    for (const message of ['thanks!', 'hi', 'سلام وقت بخیر', 'ok thank you'])
      expect(understand(kb, { message, page: page('/login') }).passages, message).toEqual([]);
    // In a conversation the last answer, not the page, tells what such a message is about.
    const earlier = [{ message: 'How do I request a refund?', sources: ['payments.refund-request'] }];
    expect(understand(kb, { message: 'cant get in', page: page('/login'), earlier }).via).not.toBe('context');
  });

  it('tells greetings, thanks and assent from a message that says something', () => {
    expect(onlyCourtesy('Thanks, good morning!')).toBe(true);
    expect(onlyCourtesy('سلام، خسته نباشید')).toBe(true);
    expect(onlyCourtesy('hi, cant get in')).toBe(false);
  });
});
