// The retrieval mechanisms behind the assistant's answers (docs/performance.md, "Assistant
// quality"): the share of a question's words the knowledge base knows, the abstention rule built
// on it, word pairs in the phrasing similarity, and the spoken-Persian and informal-English forms.
import { describe, expect, it } from 'vitest';
import { KnowledgeBase, parseKnowledgeFile, type Thesaurus } from '../../src/modules/assistant/knowledge.js';
import { trigrams } from '../../src/modules/assistant/ngrams.js';
import { answerPassages, confidence, isWeakMatch, retrieve, type Thresholds } from '../../src/modules/assistant/retrieval.js';
import { queryTerms } from '../../src/modules/assistant/terms.js';

const EN = `# Test
## How long does a refund take?
<!-- id: t.refund-time -->
<!-- also: refund not received yet -->
The money is back on your card within seven working days.

## What does the "investment status changed" notification mean?
<!-- id: t.status-notification -->
It tells you that one of your investments moved to a new status.

## What do the investment statuses mean?
<!-- id: t.statuses -->
Paid means received, active means at work, completed means paid out; each change is notified.
`;

const FA = `# آزمون
## چطور حساب کاربری بسازم؟
<!-- id: t.register -->
ثبت نام را بزنید و ایمیل و شماره موبایل را وارد کنید.

## چطور آدرسم را عوض کنم؟
<!-- id: t.address -->
در پروفایل آدرس و خیابان را ویرایش کنید.
`;

const thesaurus: Thesaurus = { en: [], fa: [{ phrase: 'اکانت', adds: ['حساب', 'کاربری'] }] };
const kb = new KnowledgeBase([...parseKnowledgeFile(EN, 't', 'en', 't.en.md'), ...parseKnowledgeFile(FA, 't', 'fa', 't.fa.md')], thesaurus);

describe('the share of a question the knowledge base knows', () => {
  it('is high for a question in the passages\' words and low for one about something else', () => {
    expect(kb.match('refund card days', 'en').known).toBe(1);
    expect(kb.match('capital of australia weather', 'en').known).toBe(0);
    const half = kb.match('refund pizza', 'en').known;
    expect(half).toBeGreaterThan(0);
    expect(half).toBeLessThan(1);
  });

  it('weighs a word by its rarity among the passages: an unknown word outweighs a common known one', () => {
    // "investment" is in two of the three English passages, "pizza" in none.
    expect(kb.match('investment pizza', 'en').known).toBeLessThan(0.5);
  });

  it('counts a word a thesaurus phrase stands for as known, also with a Persian ending glued on', () => {
    expect(kb.match('اکانت', 'fa').known).toBe(1);
    const glued = kb.match('اکانتمو میخوام', 'fa');
    expect(glued.known).toBe(1);
    expect(glued.hits[0]?.passage.id).toBe('t.register');
  });
});

describe('the abstention rule', () => {
  const rule: Thresholds = { marginWeight: 0, knownWeight: 1, minConfidence: 0.4, secondRatio: 0.9 };

  it('mixes the best score and the known share, scaled back to 0..1', () => {
    const match = kb.match('refund not received', 'en');
    expect(confidence(match, rule)).toBeCloseTo((match.hits[0]!.score + match.known) / 2, 10);
    expect(confidence({ hits: [], known: 1 }, rule)).toBe(0);
  });

  it('answers a question the passages cover and says "I don\'t know" to one they do not', () => {
    expect(isWeakMatch(kb.match('my refund is not received yet', 'en'), rule)).toBe(false);
    expect(isWeakMatch(kb.match('who won the football match', 'en'), rule)).toBe(true);
    expect(answerPassages(retrieve(kb, 'who won the football match', 'en', rule))).toEqual([]);
    expect(answerPassages(retrieve(kb, 'my refund is not received yet', 'en', rule)).map((p) => p.id)).toEqual(['t.refund-time']);
  });

  it('turns away a question whose words are mostly unknown once the known share weighs, and keeps one whose words are known', () => {
    const unknown = kb.match('refund pizza pasta salad', 'en');
    const known = kb.match('refund not received yet', 'en');
    expect(unknown.known).toBeLessThan(0.5);
    expect(known.known).toBe(1);
    expect(isWeakMatch(unknown, { ...rule, knownWeight: 0, minConfidence: unknown.hits[0]!.score - 0.01 })).toBe(false);
    expect(isWeakMatch(unknown, { ...rule, knownWeight: 3, minConfidence: 0.5 })).toBe(true);
    expect(isWeakMatch(known, { ...rule, knownWeight: 3, minConfidence: 0.5 })).toBe(false);
  });
});

describe('word pairs in the phrasing similarity', () => {
  it('adds each pair of neighbouring words as a feature', () => {
    const grams = trigrams(['status', 'changed']);
    expect(grams).toContain('status|changed');
    expect(grams).not.toContain('changed|status');
    expect(trigrams(['status']).some((g) => g.includes('|'))).toBe(false);
  });

  it('ranks the passage that has the words in the question\'s order first', () => {
    expect(kb.search('what does investment status changed mean', 'en', 1)[0]?.passage.id).toBe('t.status-notification');
  });
});

describe('spoken and informal forms', () => {
  it('drops English contractions typed without the apostrophe and informal fillers, also after stemming', () => {
    expect(queryTerms("whats the refund time pls, i cant wait, it's been days")).toEqual(['refund', 'time', 'wait', 'day']);
  });

  it('finds the written Persian word for a spoken و before ن', () => {
    expect(kb.words('خیابونمون', 'fa')).toEqual(['خیابان']);
    expect(kb.words('خیابون', 'fa')).toEqual(['خیابان']);
  });
});
