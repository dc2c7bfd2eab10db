// The knowledge base: question-and-answer passages in Markdown under assets/assistant/knowledge,
// one file per topic and language (payments.en.md, payments.fa.md), each passage with alternate
// questions, indexed once per language with BM25 (word-index.ts) and the character trigrams and word
// pairs of its phrasings (ngrams.ts). Both answer providers retrieve from it.
import type { Locale } from '../../core/i18n.js';
import { LatinReader } from './finglish-reader.js';
import { IndexWords } from './index-words.js';
import {
  loadOutside,
  loadPassages,
  loadThesaurus,
  type Outside,
  type Passage,
  type Thesaurus,
} from './knowledge-files.js';
import { LanguageIndex, ownSource, type PassageSource, persianTexts } from './knowledge-index.js';
import {
  DEFAULT_RANKING,
  describe,
  type Hit,
  type MatchOptions,
  type Ranked,
  type Ranking,
  rankPassages,
  type SearchMatch,
  topSlots,
} from './ranking.js';
import { gluedTerms, indexedStem, SUFFIXES, tokenize } from './terms.js';
import { type TwinTables, twinScores, twinSlots } from './twin-slots.js';

export { DEFAULT_RANKING, type Hit, type MatchOptions, type Ranking, type SearchMatch } from './ranking.js';
export type { PassageSource } from './knowledge-index.js';
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

export class KnowledgeBase implements PassageSource {
  private readonly languages = new Map<Locale, LanguageIndex>();
  /** Per source: the passages it holds, as "<lang>:<id>". */
  private readonly sources = new Map<string, string[]>();
  /** Per language: every token of the thesaurus's phrases, so a phrase is found with an ending glued on. */
  private readonly phraseTokens = new Map<Locale, Set<string>>();
  /** Per language: the thesaurus's phrases by their first token, each padded with spaces and with the words it stands for. */
  private readonly phrasesByFirstToken = new Map<
    Locale,
    Map<string, Array<{ padded: string; adds: string[]; stands: string[] }>>
  >();
  /** Per language: words() (index-words.ts). */
  private readonly readers: Record<Locale, IndexWords> = {
    en: new IndexWords('en', () => this.languages.get('en')!),
    fa: new IndexWords('fa', () => this.languages.get('fa')!),
  };
  /** Per pair of languages: which slot of one index holds the passage of a slot of the other. */
  private readonly twins: TwinTables = new Map();
  /** Reads Persian typed in Latin letters as Persian, with the Persian side's words (finglish.ts). */
  private readonly latinReader: LatinReader;

  constructor(
    passages: Passage[],
    thesaurus: Thesaurus = { en: [], fa: [] },
    readonly ranking: Record<Locale, Ranking> = DEFAULT_RANKING,
    outside: Outside = { en: [], fa: [] },
    /** The source of each passage (see PassageSource); by default each passage is its own. */
    sourceOf: (passage: Passage) => string = ownSource,
  ) {
    for (const p of passages) {
      // Appended in place: copying the list per passage made a source of many passages (a document's pages) quadratic.
      const source = sourceOf(p);
      const held = this.sources.get(source);
      if (held) held.push(`${p.lang}:${p.id}`);
      else this.sources.set(source, [`${p.lang}:${p.id}`]);
    }
    for (const lang of ['en', 'fa'] as const) {
      const index = new LanguageIndex(
        lang,
        passages.filter((p) => p.lang === lang),
        outside[lang],
        (text) => this.words(text, lang),
      );
      this.languages.set(lang, index);
      this.phraseTokens.set(lang, new Set(thesaurus[lang].flatMap(({ phrase }) => phrase.split(' '))));
      // A message is only checked against the phrases that start with one of its tokens.
      const byFirstToken = new Map<string, Array<{ padded: string; adds: string[]; stands: string[] }>>();
      for (const { phrase, adds } of thesaurus[lang]) {
        const first = phrase.split(' ')[0]!;
        const entry = { padded: ` ${phrase} `, adds, stands: this.words(phrase, lang) };
        const list = byFirstToken.get(first);
        if (list) list.push(entry);
        else byFirstToken.set(first, [entry]);
      }
      this.phrasesByFirstToken.set(lang, byFirstToken);
      index.indexPhrasings();
    }
    this.latinReader = new LatinReader(
      [
        ...passages.filter((p) => p.lang === 'fa').flatMap(persianTexts),
        // The Persian phrases only: the Latin ones are the glossary below.
        ...thesaurus.fa.filter((t) => !/^[a-z0-9' ]+$/.test(t.phrase)).map((t) => t.phrase),
        ...outside.fa,
      ],
      new Map(thesaurus.fa.filter((t) => /^[a-z0-9' ]+$/.test(t.phrase)).map((t) => [t.phrase, t.adds.join(' ')])),
    );
  }

  /** Every passage, English first. */
  get passages(): Passage[] {
    return [...this.languages.values()].flatMap((index) => [...index.passages.values()]);
  }

  /** Adds (or replaces) the passages of a source: the source's earlier passages leave the index first. */
  add(source: string, passages: Passage[]): void {
    // What the Finglish reader learns is changed once per call: out with the old texts, in with the new.
    const gone: string[] = [];
    this.remove(source, gone);
    const came: string[] = [];
    for (const passage of passages) {
      const index = this.languages.get(passage.lang)!;
      const earlier = index.passages.get(passage.id);
      if (earlier) this.forget(earlier, gone);
      index.add(passage);
      if (passage.lang === 'fa') came.push(...persianTexts(passage));
    }
    if (gone.length > 0) this.latinReader.change(gone, -1);
    if (came.length > 0) this.latinReader.change(came, 1);
    if (passages.length > 0)
      this.sources.set(
        source,
        passages.map((p) => `${p.lang}:${p.id}`),
      );
  }

  /** Removes every passage of a source (nothing when it holds none). */
  remove(source: string, gone?: string[]): void {
    const texts = gone ?? [];
    for (const entry of this.sources.get(source) ?? []) {
      const [lang, id] = [entry.slice(0, 2) as Locale, entry.slice(3)];
      const passage = this.languages.get(lang)!.passages.get(id);
      if (passage) this.forget(passage, texts);
    }
    this.sources.delete(source);
    if (!gone && texts.length > 0) this.latinReader.change(texts, -1);
  }

  /** Takes a passage out of the index; its Persian texts join `gone` for the Finglish reader. */
  private forget(passage: Passage, gone: string[]): void {
    this.languages.get(passage.lang)!.remove(passage.id);
    if (passage.lang === 'fa') gone.push(...persianTexts(passage));
  }

  /** A message of Persian typed in Latin letters, in Persian script as far as the knowledge base's words allow. */
  readLatin(message: string): string {
    return this.latinReader.read(message);
  }

  count(lang: Locale): number {
    return this.languages.get(lang)!.passages.size;
  }

  passage(lang: Locale, id: string): Passage | undefined {
    return this.languages.get(lang)!.passages.get(id);
  }

  /**
   * The words of a text as the index knows them: stop words dropped, spoken Persian in its
   * written form, and a word the passages do not use replaced by its stem without a possessive,
   * object or plural ending when only the stem is used (کارتم → کارت, اعلانا → اعلان).
   */
  words(text: string, lang: Locale): string[] {
    return this.readers[lang].words(text);
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
    if (lang === 'fa') for (const glued of gluedTerms(tokens, this.languages.get(lang)!.vocabulary)) terms.add(glued);
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
  match(query: string, lang: Locale, limit = 3, options: MatchOptions = {}): SearchMatch {
    const ranked = this.rank(query, lang, options.bonus);
    if (!ranked) return { hits: [], known: 0, outside: 0, closest: 0 };
    // Every passage is scored in one pass over numbers; only the best `limit` (and those asked for
    // in `also`) become hits. Ties keep the slot order (the order passages were first indexed).
    const { bySlot, slots } = ranked.index;
    const best = topSlots(bySlot, ranked.scores, limit);
    for (const id of options.also ?? []) {
      const slot = slots.get(id);
      if (slot !== undefined && !best.some((b) => b.slot === slot)) best.push({ slot, score: ranked.scoreOf(slot) });
    }
    best.sort((a, b) => b.score - a.score || a.slot - b.slot);
    return describe(ranked, best);
  }

  /**
   * Every passage's score for the query searched in `from` (match's score), read by the slot of the
   * passage with the same id in `to`'s index (0 where `from` holds no such passage), by slot of
   * `to`'s index: a bonus for a search in `to` (an array kept for the pair, valid until its next call).
   */
  scorer(query: string, from: Locale, to: Locale): Float64Array {
    const ranked = this.rank(query, from);
    if (!ranked) return new Float64Array(0);
    const twins = twinSlots(this.twins, `${from}>${to}`, this.languages.get(from)!, this.languages.get(to)!);
    return twinScores(twins, ranked.scores);
  }

  /** One search's numbers: every slot's score and what the hits are described with (ranking.ts). */
  private rank(query: string, lang: Locale, bonus?: MatchOptions['bonus']): Ranked | undefined {
    const expanded = this.expand(query, lang);
    if (expanded.terms.length === 0) return undefined;
    return rankPassages(this.languages.get(lang)!, expanded, this.ranking[lang], bonus);
  }

  /** The passages of a language that list the pages they belong to. */
  withPages(lang: Locale): Passage[] {
    return [...this.languages.get(lang)!.passages.values()].filter((p) => p.pages && p.pages.length > 0);
  }

  /** The passages of a topic in a language, in the order they were added. */
  ofTopic(lang: Locale, topic: string): Passage[] {
    return [...(this.languages.get(lang)!.byTopic.get(topic)?.values() ?? [])];
  }

  /** Other passages of the same topic, for suggestions. */
  related(passage: Passage, limit: number): Passage[] {
    const related: Passage[] = [];
    for (const p of this.languages.get(passage.lang)!.byTopic.get(passage.topic)?.values() ?? []) {
      if (related.length >= limit) break;
      if (p.id !== passage.id) related.push(p);
    }
    return related;
  }
}

let shared: KnowledgeBase | undefined;

/** The bundled knowledge base, read and indexed once per process. */
export function bundledKnowledgeBase(): KnowledgeBase {
  shared ??= new KnowledgeBase(loadPassages(), loadThesaurus(), DEFAULT_RANKING, loadOutside());
  return shared;
}
