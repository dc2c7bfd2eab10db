import { describe, expect, it } from 'vitest';
import { chooseAgent, routeByMessage, scoreAgents } from '../../src/modules/assistant/agents.js';
import {
  bundledKnowledgeBase,
  KnowledgeBaseError,
  loadPassages,
  parseKnowledgeFile,
} from '../../src/modules/assistant/knowledge.js';
import { DEFAULT_THRESHOLDS, isWeakMatch } from '../../src/modules/assistant/retrieval.js';
import { conversationTitle, messageLanguage, normalizeText } from '../../src/modules/assistant/text.js';
import { PARAPHRASES } from '../../eval/assistant/paraphrases.js';

describe('knowledge base', () => {
  const passages = loadPassages();

  it('holds at least 40 passages in each language, each with its counterpart in the other', () => {
    const en = passages.filter((p) => p.lang === 'en');
    const fa = passages.filter((p) => p.lang === 'fa');
    expect(en.length).toBeGreaterThanOrEqual(40);
    expect(fa.length).toBeGreaterThanOrEqual(40);
    expect(new Set(en.map((p) => p.id))).toEqual(new Set(fa.map((p) => p.id)));
    expect(new Set(passages.map((p) => p.topic))).toEqual(
      new Set(['accounts', 'address', 'investing', 'notifications', 'payments', 'projects', 'tickets']),
    );
  });

  it('states the ticket SLAs of the platform', () => {
    const sla = bundledKnowledgeBase().passage('en', 'tickets.sla')!;
    expect(sla.answer).toMatch(/high\*\* within 4 hours.*normal\*\* within 24 hours.*low\*\* within 72 hours/s);
  });

  it('keeps the held-out paraphrases out of the knowledge base', () => {
    const text = passages.map((p) => normalizeText(`${p.question}\n${p.answer}`)).join('\n');
    for (const { query } of PARAPHRASES) expect(text.includes(normalizeText(query))).toBe(false);
  });

  for (const lang of ['en', 'fa'] as const) {
    it(`finds the right passage first for at least 80 % of held-out ${lang} paraphrases`, () => {
      const cases = PARAPHRASES.filter((p) => p.lang === lang);
      expect(cases.length).toBeGreaterThanOrEqual(40);
      const kb = bundledKnowledgeBase();
      const misses = cases.filter((c) => kb.search(c.query, lang, 1)[0]?.passage.id !== c.expected);
      const accuracy = (cases.length - misses.length) / cases.length;
      expect(accuracy, `misses: ${misses.map((m) => m.query).join(' | ')}`).toBeGreaterThanOrEqual(0.8);
    });
  }

  it("answers every passage's own question with that passage", () => {
    const kb = bundledKnowledgeBase();
    for (const p of passages) expect(kb.search(p.question, p.lang, 1)[0]?.passage.id, p.question).toBe(p.id);
  });

  it('matches Persian whatever the spelling: Arabic letters, ZWNJ or space, Persian or Arabic digits, diacritics', () => {
    const kb = bundledKnowledgeBase();
    const variants = [
      'مهلت پاسخ تیکت با اولویت بالا ۴ ساعت است؟',
      'مهلت پاسخ تيکت با اولويت بالا ٤ ساعت است؟',
      'مُهلت پاسخ تیکت با اولویت بالا 4 ساعت است؟',
    ];
    for (const query of variants) expect(kb.search(query, 'fa', 1)[0]?.passage.id, query).toBe('tickets.sla');
    expect(kb.search('سرمایه گذاری چطور', 'fa', 3).map((h) => h.passage.id)).toEqual(
      kb.search('سرمایه‌گذاری چطور', 'fa', 3).map((h) => h.passage.id),
    );
  });

  it('calls an unrelated question a weak match', () => {
    const kb = bundledKnowledgeBase();
    expect(
      isWeakMatch(kb.match('What is the airspeed velocity of an unladen swallow?', 'en'), DEFAULT_THRESHOLDS.en),
    ).toBe(true);
    expect(isWeakMatch(kb.match('یک فیلم خوب پیشنهاد بده', 'fa'), DEFAULT_THRESHOLDS.fa)).toBe(true);
    expect(isWeakMatch(kb.match('How long does a refund take?', 'en'), DEFAULT_THRESHOLDS.en)).toBe(false);
  });

  it('refuses a passage without an id line, with the file and question in the message', () => {
    expect(() => parseKnowledgeFile('# T\n\n## A question?\nAn answer.\n', 'topic', 'en', 'topic.en.md')).toThrow(
      KnowledgeBaseError,
    );
    expect(() => parseKnowledgeFile('# T\n\n## A question?\nAn answer.\n', 'topic', 'en', 'topic.en.md')).toThrow(
      /topic\.en\.md: the passage "A question\?" needs an id line/,
    );
  });
});

describe('text helpers', () => {
  it('normalises Arabic letters, digits, diacritics and ZWNJ', () => {
    expect(normalizeText('كيف')).toBe('کیف');
    expect(normalizeText('۱۲۳٤٥')).toBe('12345');
    expect(normalizeText('مُهِمّ')).toBe('مهم');
    expect(normalizeText('می‌شود')).toBe('می شود');
  });

  it('detects the message language', () => {
    expect(messageLanguage('How do I invest?')).toBe('en');
    expect(messageLanguage('چطور سرمایه‌گذاری کنم؟')).toBe('fa');
    expect(messageLanguage('توکن API من کار نمی‌کند')).toBe('fa');
    expect(messageLanguage('12345')).toBe('en');
  });

  it('cuts a title at a word boundary with the ellipsis inside 50 characters', () => {
    const title = conversationTitle('one two three four five six seven eight nine ten eleven twelve');
    expect(title).toBe('one two three four five six seven eight nine ten…');
    expect(Array.from(title).length).toBeLessThanOrEqual(50);
    expect(conversationTitle('a'.repeat(60))).toBe(`${'a'.repeat(49)}…`);
    expect(conversationTitle('short')).toBe('short');
    const emoji = conversationTitle(`${'😀'.repeat(30)} ${'😀'.repeat(30)}`);
    expect(Array.from(emoji).length).toBeLessThanOrEqual(50);
    expect(emoji.endsWith('…')).toBe(true);
  });
});

describe('agent routing', () => {
  it('scores cues in both languages and sends ties and no match to steward', () => {
    expect(routeByMessage('login error')).toBe('engineer');
    expect(routeByMessage('ورود خطا')).toBe('engineer');
    expect(routeByMessage('nothing relevant here')).toBe('steward');
    const tie = 'error project';
    expect(scoreAgents(tie).engineer).toBe(scoreAgents(tie).pilot);
    expect(routeByMessage(tie)).toBe('steward');
  });

  it('matches cues at word starts only', () => {
    expect(scoreAgents('rapid').engineer).toBe(0);
  });

  it("forces steward for non-admins and honours an admin's choice", () => {
    expect(chooseAgent(false, 'engineer', 'login error')).toBe('steward');
    expect(chooseAgent(true, 'guide', 'login error')).toBe('guide');
    expect(chooseAgent(true, 'auto', 'login error')).toBe('engineer');
    expect(chooseAgent(true, undefined, 'login error')).toBe('engineer');
  });
});
