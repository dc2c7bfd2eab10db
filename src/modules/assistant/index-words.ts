// The words of a text as one language's index knows them (KnowledgeBase.words): stop words
// dropped, spoken Persian in its written form, and a word the passages do not use replaced by its
// stem without a possessive, object or plural ending when only the stem is used. What a token
// becomes depends only on which words the index's vocabulary holds, so it is remembered until a
// word enters or leaves the vocabulary: indexing thousands of passages reads each word once.
import type { Locale } from '../../core/i18n.js';
import { formalPersian } from './colloquial.js';
import { indexedStem, searchTerm, SUFFIXES, tokenize } from './terms.js';

/** How many tokens' words are remembered (the index's words and what members type). */
const REMEMBERED = 50_000;

export interface Vocabulary {
  readonly vocabulary: ReadonlyMap<string, number>;
  /** Persian words the passages write with a ZWNJ, by the token they make glued: their parts. */
  readonly joins?: ReadonlyMap<string, { parts: string[] }>;
  /** Changes whenever a word enters or leaves the vocabulary. */
  readonly vocabularyVersion: number;
}

export class IndexWords {
  private version = -1;
  private readonly known = new Map<string, string[]>();

  constructor(
    private readonly lang: Locale,
    private readonly index: () => Vocabulary,
  ) {}

  words(text: string): string[] {
    const { vocabularyVersion } = this.index();
    if (vocabularyVersion !== this.version) {
      this.known.clear();
      this.version = vocabularyVersion;
    }
    const words: string[] = [];
    for (const token of tokenize(text)) {
      let found = this.known.get(token);
      if (found === undefined) {
        found = this.wordsOfToken(token);
        if (this.known.size < REMEMBERED) this.known.set(token, found);
      }
      for (const word of found) words.push(word);
    }
    return [...new Set(words)];
  }

  /** words() of one token, read with the vocabulary as it is now (a glued Persian word as its parts). */
  private wordsOfToken(token: string): string[] {
    const parts = this.index().joins?.get(token)?.parts;
    return parts ? parts.flatMap((part) => this.wordsOfPart(part)) : this.wordsOfPart(token);
  }

  private wordsOfPart(token: string): string[] {
    const { vocabulary } = this.index();
    const words: string[] = [];
    const forms = this.lang === 'fa' && !vocabulary.has(token) ? formalPersian(token) : [token];
    for (const form of forms) {
      const term = searchTerm(form);
      if (term === null) continue;
      words.push(vocabulary.has(term) ? term : (this.indexedForm(term) ?? term));
    }
    return words;
  }

  /**
   * The indexed word an unknown word stands for: its stem without a glued ending, or in Persian
   * its written vowel where speech has و for ا before ن (خیابون → خیابان, تهرونم → تهران); null if none.
   */
  private indexedForm(term: string): string | null {
    const { vocabulary } = this.index();
    const stem = indexedStem(term, SUFFIXES[this.lang], vocabulary, this.lang);
    if (stem !== null || this.lang !== 'fa' || !term.includes('ون')) return stem;
    const written = term.replace(/ون/g, 'ان');
    return vocabulary.has(written) ? written : indexedStem(written, SUFFIXES[this.lang], vocabulary, this.lang);
  }
}
