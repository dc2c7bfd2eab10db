// The knowledge base's word index against MiniSearch, whose scores it keeps: the same numbers for
// the bundled passages and many generated ones, after removals the numbers of an index built
// without the removed passages, and a ranking of the best few equal to the ranking of everything.
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { generatedArticles } from '../../bench/knowledge/corpus.js';
import { DEFAULT_RANKING, KnowledgeBase, loadPassages, type Passage } from '../../src/modules/assistant/knowledge.js';
import { searchTerm, tokenize } from '../../src/modules/assistant/terms.js';
import { understand } from '../../src/modules/assistant/understanding.js';
import { WordIndex } from '../../src/modules/assistant/word-index.js';

const fields = (p: Passage): [string, string] => [[p.question, ...p.alternates].join('\n'), p.answer];
const QUERY = { prefixFrom: 4, fuzzyFrom: 5 };
const tokens = (p: Passage): [string[], string[]] => [tokenize(fields(p)[0]), tokenize(p.answer)];

function miniSearch(passages: Passage[]) {
  const index = new MiniSearch<{ key: string; question: string; answer: string }>({
    idField: 'key',
    fields: ['question', 'answer'],
    storeFields: [],
    tokenize,
    processTerm: searchTerm,
  });
  index.addAll(passages.map((p) => ({ key: p.id, question: fields(p)[0], answer: p.answer })));
  return (terms: string[]) =>
    index.search(terms.join(' '), {
      boost: { question: 2 },
      prefix: (term) => term.length >= 4,
      fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
      combineWith: 'OR',
      processTerm: (term) => term,
      tokenize: (text) => text.split(' '),
    });
}

function wordIndex(passages: Passage[]) {
  const index = new WordIndex(searchTerm);
  for (const [i, p] of passages.entries()) index.add(i + 1, tokens(p));
  return index;
}

const generated: Passage[] = generatedArticles(150)
  .filter((a) => a.lang === 'en')
  .map((a) => ({
    id: a.key,
    lang: a.lang,
    topic: 'generated',
    question: a.title,
    alternates: a.questions,
    answer: a.body,
  }));
const english = [...loadPassages().filter((p) => p.lang === 'en'), ...generated];
// Real questions' terms, a term given twice, prefixes (refund → refunds) and typos (paymnt).
const QUERIES = [
  ['refund'],
  ['request', 'refund', 'long'],
  ['paymnt', 'fail'],
  ['project', 'review', 'project'],
  ['password', 'reset', 'account'],
  ['ticket', 'priority', 'respons'],
  ['pizza'],
];

/** Every passage MiniSearch finds over `passages` scores the same in the index, at its slot in `english`. */
function scoresAsReference(index: WordIndex, passages: Passage[]) {
  const reference = miniSearch(passages);
  for (const terms of QUERIES)
    for (const result of reference(terms)) {
      const slot = english.findIndex((p) => p.id === result.id) + 1;
      expect(index.search(terms, QUERY).scores[slot]).toBeCloseTo(result.score, 9);
    }
}

describe('word index', () => {
  it('scores every passage as MiniSearch does, with the same matched terms', () => {
    const reference = miniSearch(english);
    const index = wordIndex(english);
    let compared = 0;
    for (const terms of QUERIES) {
      const expected = reference(terms);
      const found = index.search(terms, QUERY);
      expect(found.slots.length).toBe(expected.length);
      for (const result of expected) {
        const slot = english.findIndex((p) => p.id === result.id) + 1;
        expect(found.scores[slot]).toBe(result.score);
        expect(new Set(found.termsOf(slot).map((t) => terms[t]))).toEqual(new Set(result.queryTerms));
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(200);
  });

  it('after removals and re-additions scores as an index built from the passages that remain', () => {
    const index = wordIndex(english);
    const removed = new Set([3, 10, 11, 50, 120]);
    for (const slot of removed) index.remove(slot);
    index.add(7, tokens({ ...english[6]!, answer: 'An edited answer about refunds and payments.' }));
    const remaining = english
      .map((p, i) => (i === 6 ? { ...p, answer: 'An edited answer about refunds and payments.' } : p))
      .filter((_, i) => !removed.has(i + 1));
    scoresAsReference(index, remaining);
  });

  it('keeps a term’s dictionary matches between searches only while the dictionary has the same terms', () => {
    const index = wordIndex(english);
    const before = QUERIES.map((terms) => index.search(terms, QUERY).slots.length);
    // New terms that the queries' terms match by prefix (refundable, longest) and by a typo (paymnts).
    const added: Passage = { ...english[0]!, id: 'added', answer: 'Refundable paymnts take the longest.' };
    index.add(english.length + 1, tokens(added));
    const grown = miniSearch([...english, added]);
    for (const terms of QUERIES) {
      const slots = new Set(index.search(terms, QUERY).slots);
      expect(slots.size).toBe(grown(terms).length);
      if (terms.includes('refund') || terms.includes('paymnt')) expect(slots.has(english.length + 1)).toBe(true);
    }
    index.remove(english.length + 1);
    expect(QUERIES.map((terms) => index.search(terms, QUERY).slots.length)).toEqual(before);
    scoresAsReference(index, english);
  });

  it('scores a passage the words did not find by its similarity alone, and adds another search’s score by id', () => {
    // The Persian passages in the reverse order: a passage's slot differs between the languages.
    const bundled = loadPassages();
    const reversed = [...bundled.filter((p) => p.lang === 'en'), ...bundled.filter((p) => p.lang === 'fa').reverse()];
    const knowledge = new KnowledgeBase([...reversed, ...generated], { en: [], fa: [] }, DEFAULT_RANKING);
    const { wordWeight, coverageWeight } = DEFAULT_RANKING.fa;
    const persian = 'پولم کی برمیگرده';
    const alone = knowledge.match(persian, 'fa', knowledge.count('fa')).hits;
    const byWords = alone.filter((h) => h.coverage === 0 && h.similarity > 0);
    expect(byWords.length).toBeGreaterThan(0);
    for (const hit of byWords) expect(hit.score).toBe((1 - wordWeight - coverageWeight) * hit.similarity);
    // The English reading's score of each passage joins its Persian one, by the passage's id.
    const englishScores = new Map(
      knowledge.match('when is my money back', 'en', knowledge.count('en')).hits.map((h) => [h.passage.id, h.score]),
    );
    const own = new Map(alone.map((h) => [h.passage.id, h.score]));
    const bonus = { scores: knowledge.scorer('when is my money back', 'en', 'fa'), weight: 0.5 };
    const mixed = knowledge.match(persian, 'fa', 5, { bonus }).hits;
    expect(mixed.some((h) => (englishScores.get(h.passage.id) ?? 0) > 0)).toBe(true);
    for (const hit of mixed)
      expect(hit.score).toBe(own.get(hit.passage.id)! + 0.5 * (englishScores.get(hit.passage.id) ?? 0));
  });

  it('ranks the best few as a ranking of every passage would, page and conversation candidates included', () => {
    const knowledge = new KnowledgeBase([...loadPassages(), ...generated], { en: [], fa: [] }, DEFAULT_RANKING);
    for (const message of ['how long does a refund take', 'my paymnt failed', 'change my email address']) {
      const all = knowledge.match(message, 'en', knowledge.count('en')).hits;
      const few = knowledge.match(message, 'en', 5).hits;
      expect(few.map((h) => [h.passage.id, h.score])).toEqual(all.slice(0, 5).map((h) => [h.passage.id, h.score]));
      const named = all[all.length - 1]!.passage.id;
      const withNamed = knowledge.match(message, 'en', 5, { also: new Set([named]) }).hits;
      expect(withNamed.map((h) => h.passage.id)).toEqual([...few.map((h) => h.passage.id), named]);
    }
  });
});

describe('the chat among many passages', () => {
  // Sixty passages that say "pending" more loudly than the one about the member's page: on the
  // message alone that one ranks below the first fifty, which are all a search ranks in full.
  const loud: Passage[] = Array.from({ length: 60 }, (_, i) => ({
    id: `loud.pending-${i}`,
    lang: 'en',
    topic: 'loud',
    question: `Why is transfer ${i} pending?`,
    alternates: [`pending transfer ${i} still pending`],
    answer: `A pending transfer ${i} stays pending until the bank confirms it.`,
  }));
  const knowledge = new KnowledgeBase([...loadPassages(), ...loud], { en: [], fa: [] }, DEFAULT_RANKING);
  const message = 'why is this pending?';
  const page = { route: '/wallet/refunds' };
  const onPage = knowledge.withPages('en').filter((p) => p.pages!.includes('/wallet/refunds'));

  it('still raises a passage of the member page that the message alone ranks below the first fifty', () => {
    expect(onPage.length).toBeGreaterThan(0);
    const alone = knowledge.match(message, 'en', knowledge.count('en')).hits.map((h) => h.passage.id);
    expect(Math.min(...onPage.map((p) => alone.indexOf(p.id)))).toBeGreaterThanOrEqual(50);
    const answer = understand(knowledge, { message, page });
    expect(onPage.map((p) => p.id)).toContain(answer.passages[0]?.id);
  });

  it('raises the topic-mates of what the conversation just used, wherever they rank alone', () => {
    const source = onPage[0]!;
    const mates = knowledge.ofTopic('en', source.topic).map((p) => p.id);
    const answer = understand(knowledge, { message, earlier: [{ message: 'refunds', sources: [source.id] }] });
    expect(mates).toContain(answer.passages[0]?.id);
  });
});
