// The pieces that read a message the way members write it: Persian in Latin letters
// (finglish*.ts), the parts of a long message (message-parts.ts), the page (page-context.ts), the
// pages line of the knowledge base, and understand() putting them together.
import { describe, expect, it } from 'vitest';
import { consonantKey, latinSymbols, persianSymbols, readingCost } from '../../src/modules/assistant/finglish.js';
import { isFinglish } from '../../src/modules/assistant/finglish-words.js';
import { bundledKnowledgeBase, KnowledgeBaseError, parseKnowledgeFile } from '../../src/modules/assistant/knowledge.js';
import { asksSomething, messageParts, refersToContext, wordCount } from '../../src/modules/assistant/message-parts.js';
import { pageAffinities, pageFromContext, routeMatches } from '../../src/modules/assistant/page-context.js';
import { DEFAULT_READING, understand } from '../../src/modules/assistant/understanding.js';

const key = (word: string) => consonantKey(/[\u0600-\u06FF]/.test(word) ? persianSymbols(word) : latinSymbols(word));

describe('Persian typed in Latin letters', () => {
  it('gives a Latin spelling and the Persian word the same consonant key, whatever the vowels, digits or digraphs', () => {
    for (const [latin, persian] of <Array<[string, string]>>[
      ['mikham', 'میخوام'],
      ['mkham', 'میخوام'],
      ['mikhaam', 'میخوام'],
      ['7esab', 'حساب'],
      ['hesab', 'حساب'],
      ['proje', 'پروژه'],
      ['projeh', 'پروژه'],
      ['sarmaye', 'سرمایه'],
      ['ta2id', 'تایید'],
      ['etela3at', 'اطلاعات'],
      ['ghabool', 'قبول'],
      ['shahrestan', 'شهرستان'],
      ['yaddasht', 'یادداشت'],
    ])
      expect(key(latin), `${latin} / ${persian}`).toBe(key(persian));
    // ه after ا is heard (ماه), after a consonant it is a vowel (پروژه).
    expect(persianSymbols('ماه')).toBe('mAh');
    expect(persianSymbols('پروژه')).toBe('prWjH');
  });

  it('fits a spelling best to the word whose letters its vowels match', () => {
    expect(readingCost(latinSymbols('pool'), persianSymbols('پول'))).toBeLessThan(
      readingCost(latinSymbols('pool'), persianSymbols('پل')),
    );
    expect(readingCost(latinSymbols('kar'), persianSymbols('کار'))).toBeLessThan(
      readingCost(latinSymbols('kar'), persianSymbols('کر')),
    );
  });

  it('reads a message as Persian with the knowledge base words, the glossary and the function words; an adverb in -an too', () => {
    const kb = bundledKnowledgeBase();
    expect(kb.readLatin('password ro yadam rafte')).toBe('رمز عبور رو یادم رفته');
    expect(kb.readLatin('mishe notif ro kolan 7azf kard')).toBe('میشه اعلان رو کلا حذف کرد');
    // A word nothing fits stays as it was typed.
    expect(kb.readLatin('esteghlal bord')).toContain('esteghlal');
  });

  it('tells Finglish from English by their small words', () => {
    for (const message of [
      'salam chetori pool varis konam?',
      'password ro yadam rafte',
      'refund kei be hesabam miad',
      'ramz yadam raft',
    ])
      expect(isFinglish(message), message).toBe(true);
    for (const message of [
      'too many wrong login attempts, account paused',
      'how do i get a refund',
      'is the key in the header?',
      'سلام، رمزم یادم رفته',
    ])
      expect(isFinglish(message), message).toBe(false);
  });

  it('is answered in Persian with the Persian passages', () => {
    const understood = understand(bundledKnowledgeBase(), { message: 'salam, password ro yadam rafte chikar konam?' });
    expect(understood).toMatchObject({ language: 'fa', finglish: true, weakMatch: false });
    expect(understood.passages.map((p) => [p.id, p.lang])).toEqual([['accounts.password', 'fa']]);
  });
});

describe('the parts of a long message', () => {
  it('cuts sentences, and a sentence where a connective opens another question', () => {
    expect(
      messageParts(
        'hi. how do i ask for a refund when its past the 48 hours, and after that how do i close the account',
      ),
    ).toEqual(['hi.', 'how do i ask for a refund when its past the 48 hours', 'how do i close the account']);
    expect(messageParts('حداقل چقد باید بذارم تو یه پروژه؟ و اینکه اگه پروژه ضرر کنه اصل پولم امنه')).toEqual([
      'حداقل چقد باید بذارم تو یه پروژه؟',
      'و اینکه اگه پروژه ضرر کنه اصل پولم امنه',
    ]);
    // Persian asks with the question word late: a clause that asks, و, and another that asks are two questions.
    expect(messageParts('حساب رو چطور ببندم و پولم کی برمیگرده؟')).toEqual(['حساب رو چطور ببندم', 'پولم کی برمیگرده؟']);
    expect(messageParts('how do i pay and get a receipt')).toEqual(['how do i pay and get a receipt']);
  });

  it('keeps a clause that asks only with its question mark with the question before it', () => {
    // "Can we fix it and register again?" is one question, not a second one about registering twice.
    expect(messageParts('پروژمون رد شد میشه درستش کنیم و دوباره ثبت کنیم؟')).toEqual([
      'پروژمون رد شد میشه درستش کنیم و دوباره ثبت کنیم؟',
    ]);
  });

  it('knows which parts ask something', () => {
    expect(asksSomething('my bank is melli.')).toBe(false);
    expect(asksSomething('how many days does it take')).toBe(true);
    expect(asksSomething('and if i get cold feet after paying can i still cancel')).toBe(true);
    expect(asksSomething('اگه پروژه ضرر کنه اصل پولم امنه')).toBe(true);
  });

  it('reads a sentence closed by a full stop as telling, unless a real question word asks in it', () => {
    expect(asksSomething('ولی روستامون تو آخرین لیست نیست.')).toBe(false);
    expect(asksSomething('روستامون تو لیست نیست؟')).toBe(true);
    expect(asksSomething('روستامون تو لیست نیست')).toBe(true);
    expect(asksSomething('when i fill the address i pick province and county fine.')).toBe(false);
    expect(asksSomething('when i fill the address which county do i pick')).toBe(true);
    expect(asksSomething('how do i pick the county.')).toBe(true);
  });

  it('reads چند in a sentence closed by a full stop as counting, and each clause of such a sentence as telling', () => {
    expect(asksSomething('چند تا پروژه تو لیستم هست.')).toBe(false);
    expect(asksSomething('چند روز طول میکشه؟')).toBe(true);
    const told = 'من چند ماهه اینجا سرمایه گذاری میکنم و چند تا پروژه هم دارم.';
    expect(messageParts(told).map((part) => [part, asksSomething(part)])).toEqual([
      ['من چند ماهه اینجا سرمایه گذاری میکنم.', false],
      ['چند تا پروژه هم دارم.', false],
    ]);
    expect(messageParts(told.slice(0, -1)).map(asksSomething)).toEqual([true, true]);
    expect(messageParts('i have used the site for years and when i log in it is fine.').map(asksSomething)).toEqual([
      false,
      false,
    ]);
  });

  it('answers a story that ends in a vague question from the story', () => {
    // "what should i choose?" alone points at choosing from the lists; the story says the village is missing.
    const understood = understand(bundledKnowledgeBase(), {
      message:
        'سلام. من تو یه روستای خیلی کوچیک نزدیک کوه زندگی میکنم، شاید ۳۰ تا خونه، پدربزرگم خونمونو ساخته. موقع پر کردن آدرس استان و شهرستان رو انتخاب میکنم ولی روستامون تو آخرین لیست نیست. چیو انتخاب کنم؟',
    });
    expect(understood.passages[0]?.id).toBe('address.missing-place');
  });

  it('knows a message that points outside itself', () => {
    for (const message of [
      'where do i get a pdf of this',
      'and completed?',
      'سودشو ماهانه میدن',
      'پس سود این ماهم کجا میره',
      // Spoken Persian points without a pronoun: like this, all of them, where is it.
      'مال من تا کی اینجوری میمونه',
      'همرو دیدم چرا هنوز ۵ نشون میده',
      '۴ روزه منتظرم پس کو',
    ])
      expect(refersToContext(message), message).toBe(true);
    for (const message of ['is there a fee to submit my project for review', 'حداقل سن برای ثبت نام چنده'])
      expect(refersToContext(message), message).toBe(false);
  });
});

describe('the page', () => {
  it("reads the widget's page and the older script's, and nothing from a page that is not an object", () => {
    expect(pageFromContext({ page: { module: 'Wallet', route: '/wallet/refunds' } })).toEqual({
      module: 'wallet',
      route: '/wallet/refunds',
      name: undefined,
    });
    expect(pageFromContext({ page: { route_name: 'projects.show', module: 'projects', resource_id: 12 } })).toEqual({
      module: 'projects',
      route: undefined,
      name: 'projects.show',
    });
    expect(pageFromContext({ page: 'investment-42' })).toBeUndefined();
    expect(pageFromContext({ page: {} })).toBeUndefined();
    expect(pageFromContext(null)).toBeUndefined();
  });

  it('matches :param placeholders either way, and never a path of another length', () => {
    expect(routeMatches('/investments/:id', '/investments/42')).toBe(true);
    expect(routeMatches('/investments/:id', '/investments/:id')).toBe(true);
    expect(routeMatches('/investments/:id', '/investments/42/edit')).toBe(false);
    expect(routeMatches('/wallet/refunds', '/wallet/refunds/?tab=open')).toBe(true);
  });

  it('lets a route listed as it is win over a pattern, and counts a module in part', () => {
    const passages = parseKnowledgeFile(
      [
        '## A',
        '<!-- id: t.a -->',
        '<!-- pages: /projects/:id -->',
        'a.',
        '## B',
        '<!-- id: t.b -->',
        '<!-- pages: /projects/create -->',
        'b.',
        '## C',
        '<!-- id: t.c -->',
        '<!-- pages: projects, projects.index -->',
        'c.',
      ].join('\n'),
      't',
      'en',
      't.en.md',
    );
    expect(pageAffinities(passages, { route: '/projects/create', module: 'projects' }, 0.5)).toEqual(
      new Map([
        ['t.b', 1],
        ['t.c', 0.5],
      ]),
    );
    expect(pageAffinities(passages, { route: '/projects/12' }, 0.5)).toEqual(new Map([['t.a', 1]]));
    expect(pageAffinities(passages, { name: 'projects.index' }, 0.5)).toEqual(new Map([['t.c', 1]]));
  });

  it('reads one pages line per passage and refuses a second', () => {
    const [passage] = parseKnowledgeFile(
      '## Q\n<!-- id: t.q -->\n<!-- also: another way -->\n<!-- pages: wallet, /wallet/refunds -->\nThe answer.',
      't',
      'en',
      't.en.md',
    );
    expect(passage).toMatchObject({
      alternates: ['another way'],
      pages: ['wallet', '/wallet/refunds'],
      answer: 'The answer.',
    });
    expect(() =>
      parseKnowledgeFile(
        '## Q\n<!-- id: t.q -->\n<!-- pages: a -->\n<!-- pages: b -->\nThe answer.',
        't',
        'en',
        't.en.md',
      ),
    ).toThrow(KnowledgeBaseError);
    expect(parseKnowledgeFile('## Q\n<!-- id: t.q -->\nThe answer.', 't', 'en', 't.en.md')[0]!.pages).toBeUndefined();
  });

  it('lists pages on every bundled passage, the same in both languages', () => {
    const passages = bundledKnowledgeBase().passages;
    for (const passage of passages) {
      expect(passage.pages?.length, passage.id).toBeGreaterThan(0);
      const other = passages.find((p) => p.id === passage.id && p.lang !== passage.lang)!;
      expect(other.pages, passage.id).toEqual(passage.pages);
    }
  });
});

describe('understand()', () => {
  const kb = bundledKnowledgeBase();
  const refund = [{ message: 'How do I request a refund?', sources: ['payments.refund-request'] }];

  it('reads a vague follow-up with the conversation, and not a clear one', () => {
    expect(understand(kb, { message: 'and how long will it take?' }).passages[0]?.id).toBe('projects.review');
    expect(understand(kb, { message: 'and how long will it take?', earlier: refund })).toMatchObject({
      via: 'context',
      passages: [expect.objectContaining({ id: 'payments.refund-time' })],
    });
    expect(
      understand(kb, { message: 'How do I open a support ticket?', earlier: refund }).passages.map((p) => p.id),
    ).toEqual(['tickets.open']);
  });

  it('answers an unanswered "and after that?" with the passage after the last answer in its topic', () => {
    const submitted = [{ message: 'How do I submit a project?', sources: ['projects.review'] }];
    expect(understand(kb, { message: 'k and after that??', earlier: refund })).toMatchObject({
      via: 'context',
      weakMatch: false,
      passages: [expect.objectContaining({ id: 'payments.refund-time' })],
    });
    expect(understand(kb, { message: 'خب بعدش چی میشه؟', earlier: refund }).passages.map((p) => p.id)).toEqual([
      'payments.refund-time',
    ]);
    // Nothing after the topic's last passage; alone, or with a subject of its own, it is searched as usual.
    const receipt = [{ message: 'Where is my receipt?', sources: ['payments.receipt'] }];
    expect(understand(kb, { message: 'and then?', earlier: receipt }).passages).toEqual([]);
    expect(understand(kb, { message: 'k and after that??' }).passages).toEqual([]);
    expect(understand(kb, { message: 'what is the weather after that', earlier: submitted }).passages).toEqual([]);
  });

  it('reads a story by its asking parts only when they are clearer by askedMargin', () => {
    // "What should I do?" alone leans to how the address form works; the story names the missing village.
    const message =
      'سلام خسته نباشید. من تو یه روستای کوچیک نزدیک کاشان زندگی میکنم، استان و شهرستان و بخش رو انتخاب کردم ولی اسم روستامون تو لیست نیست. چیکار کنم؟';
    const ids = (askedMargin: number) =>
      understand(kb, { message }, { reading: { ...DEFAULT_READING, askedMargin } }).passages.map((p) => p.id);
    expect(ids(DEFAULT_READING.askedMargin)).toContain('address.missing-place');
    expect(ids(0)).not.toContain('address.missing-place');
  });

  it('raises the passage written after the last answer in its topic by nextShare', () => {
    const token = [{ message: 'What is an access token?', sources: ['accounts.tokens'] }];
    const message = 'اگه کس دیگه ای ببینتش چی؟';
    expect(understand(kb, { message, earlier: token }).passages.map((p) => p.id)).toEqual(['accounts.revoke-token']);
    const without = { ...DEFAULT_READING, nextShare: 0 };
    expect(understand(kb, { message, earlier: token }, { reading: without }).passages).toEqual([]);
  });

  it('weighs the passage just answered by sameShare (1: as much as the next step in its topic)', () => {
    const earlier = [{ message: 'How do I request a refund?', sources: ['payments.refund-request'] }];
    // Without the next step's own share (and the lead of a heading asking when), the passage just answered stays first.
    const flat = { ...DEFAULT_READING, nextShare: 0, timeBoost: 0 };
    expect(understand(kb, { message: 'so the money returns when?', earlier }, { reading: flat }).passages[0]?.id).toBe(
      'payments.refund-request',
    );
    // Lower (tried on the tuning halves, not kept: held-out conversations lost), the next step comes first.
    const lower = { ...flat, sameShare: 0.7, followBoost: 0.8 };
    expect(understand(kb, { message: 'so the money returns when?', earlier }, { reading: lower }).passages[0]?.id).toBe(
      'payments.refund-time',
    );
    // With it (the defaults), too.
    expect(understand(kb, { message: 'so the money returns when?', earlier }).passages[0]?.id).toBe(
      'payments.refund-time',
    );
  });

  it('lets a message of a few words lean on its page in full, and a longer one only in part', () => {
    const register = { module: 'auth', route: '/register' };
    expect(wordCount('کد نمیاد')).toBe(2);
    expect(wordCount("still nothing arrived, it's been days!")).toBe(7);
    // Alone, two words are "I don't know"; on the sign-up page they are about signing up.
    expect(understand(kb, { message: 'کد نمیاد' }).passages).toEqual([]);
    expect(understand(kb, { message: 'کد نمیاد', page: register }).passages[0]?.id).toBe('accounts.register');
    // The same page at the partial weight (shortWords 0: the rule before) is not enough.
    expect(
      understand(kb, { message: 'کد نمیاد', page: register }, { reading: { ...DEFAULT_READING, shortWords: 0 } })
        .passages,
    ).toEqual([]);
  });

  it('counts a message of up to six words as saying too little to stand alone on its page', () => {
    const newTicket = { module: 'support', route: '/support/tickets/new' };
    const message = 'how many characters are needed';
    expect(wordCount(message)).toBe(5);
    expect(understand(kb, { message, page: newTicket }).passages[0]?.id).toBe('tickets.open');
    // At four words (the rule before) the page only orders the passages, and the message is not answered.
    expect(
      understand(kb, { message, page: newTicket }, { reading: { ...DEFAULT_READING, shortWords: 4 } }).passages,
    ).toEqual([]);
  });

  it('answers two questions with both passages', () => {
    const understood = understand(kb, {
      message: 'How do I change my saved address? Also, how long does a refund take?',
    });
    expect(understood.passages.map((p) => p.id)).toEqual(['address.change', 'payments.refund-time']);
    expect(understood.via).toBe('questions');
  });

  it('answers a second question whose part is fairly confident alone', () => {
    const message = 'hello, first time here. how do i send a ticket, and can i add a screenshot to it?';
    expect(understand(kb, { message }).passages.map((p) => p.id)).toEqual(['tickets.attachments', 'tickets.open']);
    const stricter = { ...DEFAULT_READING, partConfidence: 0.6 };
    expect(understand(kb, { message }, { reading: stricter }).passages.map((p) => p.id)).toEqual([
      'tickets.attachments',
    ]);
  });
});
