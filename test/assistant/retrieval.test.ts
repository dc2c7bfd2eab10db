// The retrieval mechanisms behind the assistant's answers (docs/performance.md, "Assistant
// quality"): the share of a question's words the knowledge base knows, the abstention rule built
// on it, the questions outside the scope, word pairs in the phrasing similarity, and the
// spoken-Persian and informal-English forms.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { formalPersian } from '../../src/modules/assistant/colloquial.js';
import {
  KnowledgeBase,
  loadOutside,
  parseKnowledgeFile,
  type Thesaurus,
} from '../../src/modules/assistant/knowledge.js';
import { trigrams } from '../../src/modules/assistant/trigrams.js';
import {
  answerPassages,
  confidence,
  isWeakMatch,
  namesOutsideSubject,
  retrieve,
  type Thresholds,
} from '../../src/modules/assistant/retrieval.js';
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
const kb = new KnowledgeBase(
  [...parseKnowledgeFile(EN, 't', 'en', 't.en.md'), ...parseKnowledgeFile(FA, 't', 'fa', 't.fa.md')],
  thesaurus,
);

describe('the share of a question the knowledge base knows', () => {
  it("is high for a question in the passages' words and low for one about something else", () => {
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
  const rule: Thresholds = {
    marginWeight: 0,
    knownWeight: 1,
    outsideWeight: 0,
    missingWeight: 0,
    minConfidence: 0.4,
    secondRatio: 0.9,
  };

  it('mixes the best score and the known share, scaled back to 0..1', () => {
    const match = kb.match('refund not received', 'en');
    expect(confidence(match, rule)).toBeCloseTo((match.hits[0]!.score + match.known) / 2, 10);
    expect(confidence({ hits: [], known: 1, outside: 0, closest: 0 }, rule)).toBe(0);
  });

  it("lowers the bar by the page lift when the best passage is a document's page, and only then", () => {
    const match = kb.match('refund not received', 'en');
    const best = match.hits[0]!;
    const asPage = {
      ...match,
      hits: [{ ...best, passage: { ...best.passage, document: true } }, ...match.hits.slice(1)],
    };
    const lifted = { ...rule, pageLift: 0.05 };
    expect(confidence(asPage, lifted)).toBeCloseTo(confidence(match, rule) + 0.05, 10);
    expect(confidence(match, lifted)).toBe(confidence(match, rule));
    expect(confidence(asPage, rule)).toBe(confidence(match, rule));
    const bar = { ...lifted, minConfidence: confidence(match, rule) + 0.01 };
    expect(isWeakMatch(match, bar)).toBe(true);
    expect(isWeakMatch(asPage, bar)).toBe(false);
  });

  it('answers a question the passages cover and says "I don\'t know" to one they do not', () => {
    expect(isWeakMatch(kb.match('my refund is not received yet', 'en'), rule)).toBe(false);
    expect(isWeakMatch(kb.match('who won the football match', 'en'), rule)).toBe(true);
    expect(answerPassages(retrieve(kb, 'who won the football match', 'en', rule))).toEqual([]);
    expect(answerPassages(retrieve(kb, 'my refund is not received yet', 'en', rule)).map((p) => p.id)).toEqual([
      't.refund-time',
    ]);
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

describe('questions outside the scope', () => {
  const outside = {
    en: ['can amazon refund my parcel order', 'what is the tax on my profit'],
    fa: ['مالیات سود سرمایه چقدره'],
  };
  const passages = [...parseKnowledgeFile(EN, 't', 'en', 't.en.md'), ...parseKnowledgeFile(FA, 't', 'fa', 't.fa.md')];
  const guarded = new KnowledgeBase(passages, thesaurus, undefined, outside);
  const rule: Thresholds = {
    marginWeight: 0,
    knownWeight: 0,
    outsideWeight: 16,
    missingWeight: 0,
    minConfidence: 0.1,
    secondRatio: 0.9,
  };

  it('measures how close a message is to the closest of them, and nothing without them', () => {
    const near = guarded.match('amazon refund for my parcel', 'en');
    expect(near.outside).toBeGreaterThan(near.hits[0]!.similarity);
    expect(guarded.match('refund not received yet', 'en').outside).toBeLessThan(
      guarded.match('refund not received yet', 'en').hits[0]!.similarity,
    );
    expect(kb.match('amazon refund for my parcel', 'en').outside).toBe(0);
  });

  it("turns away a message closer to one of them than to the best passage's phrasings, and keeps the others", () => {
    expect(isWeakMatch(guarded.match('amazon refund for my parcel', 'en'), rule)).toBe(true);
    expect(isWeakMatch(guarded.match('amazon refund for my parcel', 'en'), { ...rule, outsideWeight: 0 })).toBe(false);
    expect(isWeakMatch(guarded.match('refund not received yet', 'en'), rule)).toBe(false);
    expect(isWeakMatch(guarded.match('مالیات سودم چقدره', 'fa'), rule)).toBe(true);
  });

  it('subtracts the outside lead, weighted, from the confidence', () => {
    const match = guarded.match('amazon refund for my parcel', 'en');
    const lead = match.outside - match.hits[0]!.similarity;
    expect(confidence(match, { ...rule, outsideWeight: 2 })).toBeCloseTo(match.hits[0]!.score - 2 * lead, 10);
  });

  it('reads one question a line, skipping comments and blank lines; a missing file is an empty list', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outside-'));
    fs.writeFileSync(
      path.join(dir, 'en.txt'),
      '# a comment\n\nwhat is the tax on my profit\n  can amazon refund me  \n',
    );
    expect(loadOutside(dir)).toEqual({ en: ['what is the tax on my profit', 'can amazon refund me'], fa: [] });
  });
});

describe('subjects the help never covers', () => {
  const passage = (lang: 'en' | 'fa', question: string, answer: string) => ({
    id: 't.x',
    lang,
    topic: 't',
    question,
    alternates: [],
    answer,
  });
  const submit = passage('en', 'How do I submit a project?', 'Fill in the form and press Submit.');
  const receipt = passage('en', 'Where is my receipt?', 'Download it for the tax office under Payments.');

  it('names one in a short message the passage does not speak of', () => {
    expect(namesOutsideSubject('is there a fee to submit my project', submit)).toBe(true);
    expect(namesOutsideSubject('how do i submit my project', submit)).toBe(false);
  });

  it('lets the passage answer when it names the subject itself, and a long story mention it in passing', () => {
    expect(namesOutsideSubject('i need a receipt for the tax office', receipt)).toBe(false);
    const story =
      'hi, the bank refused me a loan for my bakery so a friend told me to raise the money here from members instead, how do i submit my project';
    expect(namesOutsideSubject(story, submit)).toBe(false);
  });

  it('finds a Persian subject with an ending on it, and not a longer word it begins', () => {
    const fa = passage('fa', 'چطور پروژه ثبت کنم؟', 'فرم را پر کنید.');
    expect(namesOutsideSubject('کارمزدش چقدره برای ثبت پروژه', fa)).toBe(true);
    expect(namesOutsideSubject('وامی که گرفتم', fa)).toBe(false);
    expect(namesOutsideSubject('کد معرف دارین؟', fa)).toBe(true);
    expect(namesOutsideSubject('کسی رو معرفی کنید', fa)).toBe(false);
  });

  it('names a subject of several words only when its words come together and in order', () => {
    const code = passage('en', 'What is the tracking code?', 'Quote it when you contact support by phone.');
    expect(namesOutsideSubject('whats the phone number for support, i want to call', code)).toBe(true);
    expect(namesOutsideSubject('support asked on the phone for my number', code)).toBe(false);
    const fa = passage('fa', 'کد پیگیری چیست؟', 'هنگام تماس با پشتیبانی آن را بگویید.');
    expect(namesOutsideSubject('شماره تلفن پشتیبانی چنده', fa)).toBe(true);
    expect(namesOutsideSubject('تلفن همراهم شماره جدید داره', fa)).toBe(false);
  });

  it('names becoming a reviewer, which the help never explains, in both languages', () => {
    const review = passage('en', 'How does the review work?', 'Reviewers check each project within ten working days.');
    expect(namesOutsideSubject('how can i become a reviewer', review)).toBe(true);
    expect(namesOutsideSubject('what do the reviewers check', review)).toBe(false);
    const fa = passage('fa', 'بررسی پروژه چطوره؟', 'داوران هر پروژه را بررسی می کنند.');
    expect(namesOutsideSubject('چطوری جزو داورای بررسی پروژه بشم؟', fa)).toBe(true);
    expect(namesOutsideSubject('داورها چی رو بررسی میکنن؟', fa)).toBe(false);
  });

  it('reads a question of up to twenty-five words for a subject, and not a longer story', () => {
    const tokens = passage('en', 'What is an access token?', 'A token lets a script act for you.');
    const question = 'how many requests per minute can a script send with my token before you block it';
    expect(question.split(' ').length).toBe(16);
    expect(namesOutsideSubject(question, tokens)).toBe(true);
    // A question with a clause around it still names its subject.
    const longer =
      'do i have to pay the tax on my profit from the script myself or is it already taken out before it reaches my account';
    expect(longer.split(' ').length).toBe(25);
    expect(namesOutsideSubject(longer, tokens)).toBe(true);
    expect(namesOutsideSubject(`so ${longer}`, tokens)).toBe(false);
  });

  it('names services the product does not have', () => {
    const password = passage('en', 'I forgot my password', 'Press Forgot password on the sign-in page.');
    expect(namesOutsideSubject('can i turn on two factor login', password)).toBe(true);
    expect(namesOutsideSubject('ورود دو مرحله ای دارین؟', { ...password, lang: 'fa' })).toBe(true);
    expect(namesOutsideSubject('i have two accounts, which one do i log in with', password)).toBe(false);
    const invest = passage('en', 'How do I invest?', 'Open the project page and press Invest.');
    expect(namesOutsideSubject('can my daughter invest too', invest)).toBe(true);
    expect(namesOutsideSubject('can i sell my share to someone else', invest)).toBe(true);
    expect(namesOutsideSubject('can i sell and invest in another project', invest)).toBe(false);
  });

  it('lets a passage that holds the phrase answer', () => {
    const register = passage('en', 'How do I sign up?', 'Enter your email and phone number, then confirm the code.');
    expect(namesOutsideSubject('do i need a phone number to sign up', register)).toBe(false);
  });
});

describe('word pairs in the phrasing similarity', () => {
  it('adds each pair of neighbouring words as a feature', () => {
    const grams = trigrams(['status', 'changed']);
    expect(grams).toContain('status|changed');
    expect(grams).not.toContain('changed|status');
    expect(trigrams(['status']).some((g) => g.includes('|'))).toBe(false);
  });

  it("ranks the passage that has the words in the question's order first", () => {
    expect(kb.search('what does investment status changed mean', 'en', 1)[0]?.passage.id).toBe('t.status-notification');
  });
});

describe('spoken and informal forms', () => {
  it('drops English contractions typed without the apostrophe and informal fillers, also after stemming', () => {
    expect(queryTerms("whats the refund time pls, i cant wait, it's been days")).toEqual([
      'refund',
      'time',
      'wait',
      'day',
    ]);
  });

  it('reads spoken Persian verbs after the subjunctive ب and the negative ن, and the unambiguous ones without a prefix', () => {
    expect(formalPersian('بشه')).toEqual(['شود']);
    expect(formalPersian('نتونم')).toEqual(['توانم']);
    expect(formalPersian('بذاره')).toEqual(['گذارد']);
    expect(formalPersian('شه')).toEqual(['شود']);
    expect(formalPersian('کنه')).toEqual(['کند']);
    // Short stems that are also nouns stay nouns without a prefix (ده: ten, a village; دم: a moment).
    expect(formalPersian('ده')).toEqual(['ده']);
    expect(formalPersian('دم')).toEqual(['دم']);
    expect(formalPersian('بانک')).toEqual(['بانک']);
    expect(kb.words('اگه پروژه رد بشه توش چی میمونه', 'fa')).not.toContain('اگه');
    expect(kb.words('اگه پروژه رد بشه توش چی میمونه', 'fa')).not.toContain('بشه');
  });

  it('finds the written Persian word for a spoken و before ن', () => {
    expect(kb.words('خیابونمون', 'fa')).toEqual(['خیابان']);
    expect(kb.words('خیابون', 'fa')).toEqual(['خیابان']);
  });
});
