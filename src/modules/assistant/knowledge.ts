// The knowledge base: question-and-answer passages in Markdown under assets/assistant/knowledge,
// one file per topic and language (payments.en.md, payments.fa.md), each passage with alternate
// questions, indexed once per language with BM25 (MiniSearch) and the character trigrams and word
// pairs of its phrasings (ngrams.ts). Both answer providers retrieve from it.
import MiniSearch from 'minisearch';
import type { Locale } from '../../core/i18n.js';
import { formalPersian } from './colloquial.js';
import { LatinReader } from './finglish-reader.js';
import {
  loadOutside,
  loadPassages,
  loadThesaurus,
  type Outside,
  type Passage,
  type Thesaurus,
} from './knowledge-files.js';
import { PhrasingIndex } from './ngrams.js';
import { DEFAULT_RANKING, type Hit, type Ranking, type SearchMatch } from './ranking.js';
import { indexedStem, queryTerms, searchTerm, SUFFIXES, tokenize } from './terms.js';

export { DEFAULT_RANKING, type Hit, type Ranking, type SearchMatch } from './ranking.js';
export {
  DEFAULT_KNOWLEDGE_DIR,
  DEFAULT_OUTSIDE_DIR,
  DEFAULT_THESAURUS_DIR,
  KnowledgeBaseError,
  loadOutside,
  loadPassages,
  loadThesaurus,
  parseKnowledgeFile,
  type Outside,
  type Passage,
  type Thesaurus,
} from './knowledge-files.js';

type Indexed = Passage & { key: string };
type PhraseEntry = { padded: string; adds: string[]; stands: string[] };
// An answer sentence counts as a phrasing of its passage, discounted: it says how, not how members ask.
const ANSWER_SENTENCE_WEIGHT = 0.5;

export class KnowledgeBase {
  private readonly indexes = new Map<Locale, MiniSearch<Indexed>>();
  private readonly phrasings = new Map<Locale, PhrasingIndex>();
  private readonly byLang = new Map<Locale, Passage[]>();
  private readonly vocabulary = new Map<Locale, Set<string>>();
  /** Per language: every token of the thesaurus's phrases, so a phrase is found with an ending glued on. */
  private readonly phraseTokens = new Map<Locale, Set<string>>();
  /** Per language: the thesaurus's phrases by their first token, each padded with spaces and with the words it stands for. */
  private readonly phrasesByFirstToken = new Map<Locale, Map<string, PhraseEntry[]>>();
  /** Per language: in how many passages (heading, alternates or answer) each word occurs. */
  private readonly passageFrequency = new Map<Locale, Map<string, number>>();
  /** Reads Persian typed in Latin letters as Persian, with the Persian side's words (finglish.ts). */
  private latinReader!: LatinReader;
  /** Passages from sources other than the constructor's (uploaded documents), by source id. */
  private readonly sourcePassages = new Map<string, Passage[]>();
  constructor(
    private readonly ownPassages: Passage[],
    private readonly thesaurus: Thesaurus = { en: [], fa: [] },
    readonly ranking: Record<Locale, Ranking> = DEFAULT_RANKING,
    private readonly outside: Outside = { en: [], fa: [] },
  ) {
    this.reindex();
  }
  /** Every passage: the constructor's, then those of the other sources. */
  get passages(): Passage[] {
    return this.ownPassages.concat(...this.sourcePassages.values());
  }

  /** Puts a source's passages in the index, replacing what that source had (an uploaded document's, by its id). */
  setSourcePassages(sourceId: string, passages: Passage[]): void {
    this.sourcePassages.set(sourceId, passages);
    this.reindex();
  }

  /** Takes a source's passages out of the index (an uploaded document deactivated or deleted). */
  removeSourcePassages(sourceId: string): void {
    if (this.sourcePassages.delete(sourceId)) this.reindex();
  }

  /** Builds every index from this.passages; synchronous, so a search never sees half of it. */
  private reindex(): void {
    const { passages, thesaurus, outside } = this;
    for (const lang of ['en', 'fa'] as const) {
      const own = passages.filter((p) => p.lang === lang);
      this.byLang.set(lang, own);
      this.vocabulary.set(lang, new Set(own.flatMap((p) => queryTerms(`${p.question} ${p.answer}`))));
      const frequency = new Map<string, number>();
      for (const p of own)
        for (const term of queryTerms([p.question, ...p.alternates, p.answer].join('\n')))
          frequency.set(term, (frequency.get(term) ?? 0) + 1);
      this.passageFrequency.set(lang, frequency);
      this.phraseTokens.set(lang, new Set(thesaurus[lang].flatMap(({ phrase }) => phrase.split(' '))));
      // A message is only checked against the phrases that start with one of its tokens.
      const byFirstToken = new Map<string, PhraseEntry[]>();
      for (const { phrase, adds } of thesaurus[lang]) {
        const first = phrase.split(' ')[0]!;
        const entry = { padded: ` ${phrase} `, adds, stands: this.words(phrase, lang) };
        const list = byFirstToken.get(first);
        if (list) list.push(entry);
        else byFirstToken.set(first, [entry]);
      }
      this.phrasesByFirstToken.set(lang, byFirstToken);
      const index = new MiniSearch<Indexed>({
        idField: 'key',
        fields: ['question', 'answer'],
        storeFields: [],
        tokenize,
        processTerm: searchTerm,
      });
      index.addAll(own.map((p) => ({ ...p, key: p.id, question: [p.question, ...p.alternates].join('\n') })));
      this.indexes.set(lang, index);
      // The questions outside the scope share the index as one more owner, after the passages, so
      // their similarities and the passages' are measured with the same trigram weights.
      const phrasings = [
        ...own.flatMap((p, owner) => [
          ...[p.question, ...p.alternates].map((text) => ({ owner, words: this.words(text, lang) })),
          ...p.answer
            .split(/[.!?؟;؛:]\s/)
            .map((text) => ({ owner, words: this.words(text, lang), weight: ANSWER_SENTENCE_WEIGHT })),
        ]),
        ...outside[lang].map((text) => ({ owner: own.length, words: this.words(text, lang) })),
      ];
      this.phrasings.set(lang, new PhrasingIndex(phrasings));
    }
    const persian = this.byLang.get('fa')!;
    this.latinReader = new LatinReader(
      [
        ...persian.flatMap((p) => [p.question, ...p.alternates, p.answer]),
        // The Persian phrases only: the Latin ones are the glossary below.
        ...thesaurus.fa.filter((t) => !/^[a-z0-9' ]+$/.test(t.phrase)).map((t) => t.phrase),
        ...outside.fa,
      ],
      new Map(thesaurus.fa.filter((t) => /^[a-z0-9' ]+$/.test(t.phrase)).map((t) => [t.phrase, t.adds.join(' ')])),
    );
  }

  /** A message of Persian typed in Latin letters, in Persian script as far as the knowledge base's words allow. */
  readLatin(message: string): string {
    return this.latinReader.read(message);
  }

  count(lang: Locale): number {
    return this.byLang.get(lang)!.length;
  }

  passage(lang: Locale, id: string): Passage | undefined {
    return this.byLang.get(lang)!.find((p) => p.id === id);
  }

  /**
   * The words of a text as the index knows them: stop words dropped, spoken Persian in its
   * written form, and a word the passages do not use replaced by its stem without a possessive,
   * object or plural ending when only the stem is used (کارتم → کارت, اعلانا → اعلان).
   */
  words(text: string, lang: Locale): string[] {
    const vocabulary = this.vocabulary.get(lang)!;
    const words: string[] = [];
    for (const token of tokenize(text)) {
      const forms = lang === 'fa' && !vocabulary.has(token) ? formalPersian(token) : [token];
      for (const form of forms) {
        const term = searchTerm(form);
        if (term === null) continue;
        words.push(vocabulary.has(term) ? term : (this.indexedForm(term, lang) ?? term));
      }
    }
    return [...new Set(words)];
  }

  /**
   * The indexed word an unknown word stands for: its stem without a glued ending, or in Persian
   * its written vowel where speech has و for ا before ن (خیابون → خیابان, تهرونم → تهران); null if none.
   */
  private indexedForm(term: string, lang: Locale): string | null {
    const vocabulary = this.vocabulary.get(lang)!;
    const stem = indexedStem(term, SUFFIXES[lang], vocabulary, lang);
    if (stem !== null || lang !== 'fa' || !term.includes('ون')) return stem;
    const written = term.replace(/ون/g, 'ان');
    return vocabulary.has(written) ? written : indexedStem(written, SUFFIXES[lang], vocabulary, lang);
  }

  /**
   * The query's words plus the knowledge-base words of the thesaurus phrases it contains, and
   * which of the query's words those phrases stand for (they count as understood).
   */
  expand(query: string, lang: Locale): { words: string[]; terms: string[]; translated: Map<string, string[]> } {
    const words = this.words(query, lang);
    const terms = new Set(words);
    // Each word a phrase stands for, with the knowledge-base words the phrase adds.
    const translated = new Map<string, string[]>();
    // The message's tokens as typed, and again with any ending glued to a phrase's word taken off (اکانتمو → اکانت).
    const tokens = tokenize(query);
    const phraseTokens = this.phraseTokens.get(lang)!;
    const text = ` ${tokens.join(' ')} `;
    const strip = (t: string): string =>
      phraseTokens.has(t) ? t : (indexedStem(t, SUFFIXES[lang], phraseTokens, lang) ?? t);
    const strippedTokens = tokens.map(strip);
    const stripped = ` ${strippedTokens.join(' ')} `;
    const byFirstToken = this.phrasesByFirstToken.get(lang)!;
    const seen = new Set<string>();
    for (const first of [...tokens, ...strippedTokens]) {
      if (seen.has(first)) continue;
      seen.add(first);
      for (const { padded, adds, stands } of byFirstToken.get(first) ?? []) {
        if (!text.includes(padded) && !stripped.includes(padded)) continue;
        for (const add of adds) terms.add(add);
        for (const word of stands) translated.set(word, [...(translated.get(word) ?? []), ...adds]);
      }
    }
    // A word with an ending glued on is understood when the phrase word under it is (اکانتمو).
    for (const word of words) {
      const under = translated.get(strip(word));
      if (under && !translated.has(word)) translated.set(word, under);
    }
    return { words, terms: [...terms], translated };
  }

  /**
   * The best passages for a query in one language, best first. Each passage's score mixes its
   * word score (BM25 over headings, alternate questions and answers, with prefix and fuzzy
   * matches) and the character-trigram similarity of the query to its closest phrasing.
   */
  search(query: string, lang: Locale, limit = 3): Hit[] {
    return this.match(query, lang, limit).hits;
  }

  /**
   * search(), plus the share of the query's words the knowledge base understands at all: words
   * some passage contains (exactly, by prefix or fuzzily) or that a thesaurus phrase stands for,
   * each word weighted by its rarity among the passages (a word most passages use, such as
   * "where" or چند, says little either way; a word no passage uses counts as the rarest).
   * A question about something else (the weather, a pizza) has most of its weight unknown.
   */
  match(query: string, lang: Locale, limit = 3): SearchMatch {
    const { words, terms, translated } = this.expand(query, lang);
    if (terms.length === 0) return { hits: [], known: 0, outside: 0, closest: 0 };
    const own = this.byLang.get(lang)!;
    const results = this.indexes.get(lang)!.search(terms.join(' '), {
      boost: { question: 2 },
      prefix: (term) => term.length >= 4,
      fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
      combineWith: 'OR',
      // The terms are already processed; the index's processTerm would only stem them twice.
      processTerm: (term) => term,
      tokenize: (text) => text.split(' '),
    });
    const byId = new Map(results.map((r) => [String(r.id), r]));
    const similarity = this.phrasings.get(lang)!.similarities(words, own.length + 1);
    const { wordWeight, halfScore, coverageWeight } = this.ranking[lang];
    const frequency = this.passageFrequency.get(lang)!;
    const weights = words.map((word) => Math.log(1 + own.length / (frequency.get(word) ?? 1)));
    const totalWeight = weights.reduce((a, b) => a + b, 0) || 1;
    const hits = own.map((passage, i) => {
      const result = byId.get(passage.id);
      const bm25 = result?.score ?? 0;
      const coverage = Math.min(1, (result?.queryTerms.length ?? 0) / Math.max(1, words.length));
      const score =
        wordWeight * (bm25 / (bm25 + halfScore)) +
        coverageWeight * coverage +
        (1 - wordWeight - coverageWeight) * similarity[i]!;
      // The share of the message (by rarity) this passage itself holds, a word or what a phrase made of it adds.
      const holds = new Set(result?.queryTerms ?? []);
      const ownShare =
        words.reduce(
          (sum, word, w) =>
            holds.has(word) || translated.get(word)?.some((add) => holds.has(add)) ? sum + weights[w]! : sum,
          0,
        ) / totalWeight;
      return { passage, score, coverage, similarity: similarity[i]!, own: ownShare };
    });
    const matched = new Set(results.flatMap((r) => r.queryTerms));
    const knownWeight = words.reduce(
      (sum, word, w) => (matched.has(word) || translated.has(word) ? sum + weights[w]! : sum),
      0,
    );
    const known = words.length === 0 ? 0 : knownWeight / totalWeight;
    const closest = hits.reduce((max, hit) => Math.max(max, hit.similarity), 0);
    return {
      hits: hits.sort((a, b) => b.score - a.score).slice(0, limit),
      known,
      outside: similarity[own.length]!,
      closest,
    };
  }

  /** Other passages of the same topic, for suggestions. */
  related(passage: Passage, limit: number): Passage[] {
    return this.byLang
      .get(passage.lang)!
      .filter((p) => p.topic === passage.topic && p.id !== passage.id)
      .slice(0, limit);
  }
}

let shared: KnowledgeBase | undefined;

/** The bundled knowledge base, read and indexed once per process. */
export function bundledKnowledgeBase(): KnowledgeBase {
  shared ??= new KnowledgeBase(loadPassages(), loadThesaurus(), DEFAULT_RANKING, loadOutside());
  return shared;
}
