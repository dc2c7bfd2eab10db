// The knowledge base as bytes and back (snapshot-graph.ts): every class its index is made of, and
// what each one's instances hold that is not written. The closures a build binds (the words of a
// text in a language, the index an IndexWords reads, the term function of a word index) are bound
// again to the instances read; the page vectors of DocumentSentences (a WeakMap, a cache made
// again on first use) start empty. Nothing outside the instances is needed: the token numbers of
// terms.ts are never kept in the index (it keeps terms and numbers of its own), so a process that
// reads a snapshot numbers its tokens afresh and reads the same terms.
import type { Locale } from '../../core/i18n.js';
import SearchableMap from 'minisearch/SearchableMap';
import { DocumentSentences } from './document-sentences.js';
import { LatinReader } from './finglish-reader.js';
import { IndexWords } from './index-words.js';
import { KnowledgeBase } from './knowledge.js';
import { LanguageIndex } from './knowledge-index.js';
import { PhrasingIndex } from './ngrams.js';
import { type Kind, readGraph, writeGraph } from './snapshot-graph.js';
import { searchTerm } from './terms.js';
import { WordIndex } from './word-index.js';

type Fields = Record<string, unknown>;

/** Binds the closures of a knowledge base read (as its constructor does). */
function reviveKnowledge(fields: Fields): void {
  const languages = fields.languages as Map<Locale, LanguageIndex>;
  const readers = fields.readers as Record<Locale, IndexWords>;
  const knowledge = fields as unknown as KnowledgeBase;
  for (const lang of ['en', 'fa'] as const) {
    (readers[lang] as unknown as Fields).index = () => languages.get(lang)!;
    const index = languages.get(lang)! as unknown as Fields;
    const wordsOf = (text: string) => knowledge.words(text, lang);
    index.wordsOf = wordsOf;
    (index.sentences as Fields).wordsOf = wordsOf;
  }
}

/** The classes of the index, with the fields each one's snapshot leaves out. */
export const KNOWLEDGE_KINDS: readonly Kind[] = [
  { name: 'KnowledgeBase', prototype: KnowledgeBase.prototype, revive: reviveKnowledge },
  { name: 'LanguageIndex', prototype: LanguageIndex.prototype, omit: ['wordsOf'] },
  { name: 'IndexWords', prototype: IndexWords.prototype, omit: ['index'] },
  {
    name: 'WordIndex',
    prototype: WordIndex.prototype,
    omit: ['processTerm'],
    revive: (fields) => {
      fields.processTerm = searchTerm;
    },
  },
  { name: 'SearchableMap', prototype: SearchableMap.prototype },
  { name: 'PhrasingIndex', prototype: PhrasingIndex.prototype },
  {
    name: 'DocumentSentences',
    prototype: DocumentSentences.prototype,
    omit: ['wordsOf', 'pages'],
    revive: (fields) => {
      fields.pages = new WeakMap();
    },
  },
  { name: 'LatinReader', prototype: LatinReader.prototype },
];

/** The knowledge base as bytes (synchronous: no change can come between its parts). */
export const knowledgeBytes = (knowledge: KnowledgeBase): Buffer => writeGraph(knowledge, KNOWLEDGE_KINDS);

/** The knowledge base knowledgeBytes wrote; throws on bytes that are not one. */
export function knowledgeFromBytes(bytes: Uint8Array): KnowledgeBase {
  const knowledge = readGraph(bytes, KNOWLEDGE_KINDS);
  if (!(knowledge instanceof KnowledgeBase)) throw new Error('snapshot: not a knowledge base');
  return knowledge;
}
