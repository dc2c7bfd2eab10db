// The knowledge base follows a change of one source (an article, a document) without a rebuild:
// a passage added is found, a passage replaced is found by its new words only, a passage removed
// is gone from every index (words, phrasings, the Finglish reader), and a round trip leaves the
// answers as a fresh build gives them, as do passages added past the drift threshold (ngrams.ts).
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RANKING,
  KnowledgeBase,
  loadOutside,
  loadPassages,
  loadThesaurus,
  type Passage,
} from '../../src/modules/assistant/knowledge.js';
import { PARAPHRASES } from '../../eval/assistant/paraphrases.js';

const passages = loadPassages();
const build = () => new KnowledgeBase(passages, loadThesaurus(), DEFAULT_RANKING, loadOutside());
const top = (kb: KnowledgeBase, query: string, lang: 'en' | 'fa') => kb.search(query, lang, 1)[0]?.passage.id;

const solar: Passage = {
  id: 'energy.solar-panels',
  lang: 'en',
  topic: 'energy',
  question: 'Can I finance solar panels for my roof?',
  alternates: ['photovoltaic roof loan'],
  answer: 'Solar panel projects are financed like any other project once the installer is verified.',
};
const persianSolar: Passage = {
  ...solar,
  lang: 'fa',
  question: 'آیا می‌توانم گلخانه زعفران را تأمین مالی کنم؟',
  alternates: ['وام گلخانه زعفران'],
  answer: 'پروژه‌های گلخانه زعفران پس از تأیید مانند هر پروژهٔ دیگری تأمین مالی می‌شوند.',
};

describe('passages by source', () => {
  it('finds a passage added at run time, in both languages, and Latin-typed Persian reads its words', () => {
    const kb = build();
    expect(kb.passage('en', solar.id)).toBeUndefined();
    expect(kb.readLatin('zafaran')).not.toBe('زعفران');
    kb.add('article:energy.solar-panels', [solar, persianSolar]);
    expect(kb.count('en')).toBe(passages.filter((p) => p.lang === 'en').length + 1);
    expect(top(kb, 'photovoltaic roof loan', 'en')).toBe(solar.id);
    expect(top(kb, 'finance solar pannels', 'en')).toBe(solar.id);
    expect(top(kb, 'وام گلخونه زعفران', 'fa')).toBe(solar.id);
    expect(kb.readLatin('zafaran')).toBe('زعفران');
  });

  it('replaces a source: the new words find it, the old ones no longer do', () => {
    const kb = build();
    kb.add('doc:1', [solar]);
    kb.add('doc:1', [
      { ...solar, question: 'Can I finance a wind turbine?', alternates: [], answer: 'Wind turbines qualify.' },
    ]);
    expect(kb.count('en')).toBe(passages.filter((p) => p.lang === 'en').length + 1);
    expect(top(kb, 'wind turbine finance', 'en')).toBe(solar.id);
    expect(kb.search('photovoltaic', 'en', 5).some((h) => h.passage.id === solar.id && h.coverage > 0)).toBe(false);
  });

  it('removes a source from every index, the Finglish reader included', () => {
    const kb = build();
    kb.add('article:energy.solar-panels', [solar, persianSolar]);
    kb.remove('article:energy.solar-panels');
    expect(kb.passage('en', solar.id)).toBeUndefined();
    expect(kb.passage('fa', solar.id)).toBeUndefined();
    expect(kb.search('photovoltaic roof loan', 'en', 3).map((h) => h.passage.id)).not.toContain(solar.id);
    expect(kb.readLatin('zafaran')).not.toBe('زعفران');
    kb.remove('article:energy.solar-panels');
  });

  it('keeps the passages of each topic in the order of a scan as passages are added, moved to another topic and removed', () => {
    const kb = build();
    const scan = (topic: string) => kb.passages.filter((p) => p.lang === 'en' && p.topic === topic).map((p) => p.id);
    const ofTopic = (topic: string) => kb.ofTopic('en', topic).map((p) => p.id);
    const payments = kb.passage('en', 'payments.refund-time')!;
    kb.add('doc:1', [solar]);
    expect(ofTopic('energy')).toEqual([solar.id]);
    kb.add('doc:1', [{ ...solar, topic: 'payments' }]);
    expect(ofTopic('energy')).toEqual([]);
    expect(ofTopic('payments')).toEqual(scan('payments'));
    expect(ofTopic('payments').at(-1)).toBe(solar.id);
    // A bundled passage replaced moves to the end of its topic, as it does among all passages.
    kb.add('en:payments.refund-time', [{ ...payments }]);
    expect(ofTopic('payments')).toEqual(scan('payments'));
    expect(ofTopic('payments').at(-1)).toBe('payments.refund-time');
    expect(kb.related(payments, 100).map((p) => p.id)).toEqual(scan('payments').filter((id) => id !== payments.id));
    kb.remove('doc:1');
    expect(ofTopic('payments')).toEqual(scan('payments'));
    expect(ofTopic('payments')).not.toContain(solar.id);
  });

  it('answers the held-out paraphrases as a fresh build does after a bundled passage is removed and added back', () => {
    const fresh = build();
    const edited = build();
    for (const lang of ['en', 'fa'] as const) {
      const refund = edited.passage(lang, 'payments.refund-time')!;
      edited.remove(`${lang}:payments.refund-time`);
      expect(edited.passage(lang, 'payments.refund-time')).toBeUndefined();
      edited.add(`${lang}:payments.refund-time`, [refund]);
    }
    const agree = PARAPHRASES.filter((p) => top(fresh, p.query, p.lang) === top(edited, p.query, p.lang)).length;
    expect(agree / PARAPHRASES.length).toBeGreaterThanOrEqual(0.98);
  });

  it('weighs the trigram vectors again once the passages added pass the drift threshold, as a fresh build', () => {
    // Copies of bundled passages under new ids: the counts of their trigrams change, the vocabulary does not.
    const copies = passages.slice(0, 12).map((p) => ({ ...p, id: `copy-${p.id}` }));
    const fresh = new KnowledgeBase([...passages, ...copies], loadThesaurus(), DEFAULT_RANKING, loadOutside());
    const edited = build();
    for (const copy of copies) edited.add(`${copy.lang}:${copy.id}`, [copy]);
    const similarity = (kb: KnowledgeBase, query: string, lang: 'en' | 'fa') => {
      const match = kb.match(query, lang, kb.count(lang));
      const byId = Object.fromEntries(match.hits.map((h) => [h.passage.id, h.similarity]));
      return { byId, outside: match.outside, closest: match.closest };
    };
    for (const { query, lang } of PARAPHRASES.slice(0, 40))
      expect(similarity(edited, query, lang)).toEqual(similarity(fresh, query, lang));
  });
});
