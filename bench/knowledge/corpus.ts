// The generated content of the knowledge benchmark, deterministic (a fixed seed): random phrases
// of the bundled passages' own words in each language, as articles (a title, two alternate
// questions, a body of two sentences) and as the pages of uploaded documents (paragraphs of
// sentences, about 1,000 characters a page, so each page is one passage of the document).
import { loadPassages, type Passage } from '../../src/modules/assistant/knowledge.js';
import { asKnowledgePassage } from '../../src/modules/kb-files/document-index.js';
import { toPassages } from '../../src/modules/kb-files/passages.js';

export type Lang = 'en' | 'fa';

/** The bundled passages' words in one language, in their order of first use. */
export function wordsOf(lang: Lang): string[] {
  const text = loadPassages()
    .filter((p) => p.lang === lang)
    .map((p) => `${p.question} ${p.answer}`)
    .join(' ');
  return [...new Set(text.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 2))];
}

/** A phrase maker on a linear congruential generator: the same seed gives the same phrases. */
export function phrases(seed: number): (words: string[], count: number) => string {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  return (words, count) => Array.from({ length: count }, () => words[Math.floor(next() * words.length)]).join(' ');
}

export const ARTICLE_SEED = 20261125;
export const DOCUMENT_SEED = 20261126;

export interface GeneratedArticle {
  key: string;
  lang: Lang;
  slug: string;
  title: string;
  body: string;
  questions: string[];
}

/** perLanguage articles in each language; the i-th English and Persian articles share their key. */
export function generatedArticles(perLanguage: number): GeneratedArticle[] {
  const phrase = phrases(ARTICLE_SEED);
  const articles: GeneratedArticle[] = [];
  for (const lang of ['en', 'fa'] as const) {
    const words = wordsOf(lang);
    for (let i = 0; i < perLanguage; i += 1)
      articles.push({
        key: `generated-${i % 50}.article-${i}`,
        lang,
        slug: `generated-${i}`,
        title: `${phrase(words, 7)}?`,
        body: `${phrase(words, 40)}. ${phrase(words, 30)}.`,
        questions: [phrase(words, 6), phrase(words, 5)],
      });
  }
  return articles;
}

export interface GeneratedDocument {
  name: string;
  title: string;
  lang: Lang;
  /** One text per page: paragraphs separated by a blank line. */
  pages: string[];
}

/** count documents of `pages` pages, English and Persian in turn. */
export function generatedDocuments(count: number, pages: number): GeneratedDocument[] {
  const phrase = phrases(DOCUMENT_SEED);
  // Persian pages of Persian words only: a Latin word inside a right-to-left line would come back
  // from the PDF reversed, as from any PDF written in visual order.
  const words = { en: wordsOf('en'), fa: wordsOf('fa').filter((w) => /^[\u0600-\u06FF]+$/.test(w)) };
  const sentence = (lang: Lang) => `${phrase(words[lang], 12)}.`;
  const paragraph = (lang: Lang) => Array.from({ length: 4 }, () => sentence(lang)).join(' ');
  return Array.from({ length: count }, (_, d) => {
    const lang: Lang = d % 2 === 0 ? 'en' : 'fa';
    return {
      name: `handbook-${String(d + 1).padStart(2, '0')}.pdf`,
      title: `${lang === 'en' ? 'Handbook' : 'راهنما'} ${d + 1}: ${phrase(words[lang], 3)}`,
      lang,
      pages: Array.from({ length: pages }, () => `${paragraph(lang)}\n\n${paragraph(lang)}`),
    };
  });
}

/** The bundled passages and perLanguage generated articles per language, as the knowledge base takes them. */
export function articlePassages(perLanguage: number): Passage[] {
  return [
    ...loadPassages(),
    ...generatedArticles(perLanguage).map((a) => ({
      id: a.key,
      lang: a.lang,
      topic: a.key.split('.')[0]!,
      question: a.title,
      alternates: a.questions,
      answer: a.body,
    })),
  ];
}

/** The generated documents' passages as an upload gives them (one per page), per file id. */
export function documentPassages(count: number, pages: number): Array<{ id: number; passages: Passage[] }> {
  return generatedDocuments(count, pages).map((doc, i) => {
    const file = { id: i + 1, title: doc.title, lang: doc.lang };
    const sections = doc.pages.map((text, p) => ({ page: p + 1, heading: null, text }));
    return { id: file.id, passages: toPassages(sections).map((p) => asKnowledgePassage(file, p)) };
  });
}

/** The size options of the in-memory benchmarks (--articles N --documents D --pages P). */
export const SIZE_OPTIONS = {
  articles: { type: 'string' },
  documents: { type: 'string' },
  pages: { type: 'string' },
} as const;

/** The size asked for, by default the benchmark's: 2,000 articles per language, 50 documents of 100 pages. */
export function sizeOf(values: { articles?: string; documents?: string; pages?: string }): {
  perLanguage: number;
  documents: number;
  pages: number;
} {
  return {
    perLanguage: Number(values.articles ?? 2000),
    documents: Number(values.documents ?? 50),
    pages: Number(values.pages ?? 100),
  };
}

/** The generated articles' passages and the documents' pages of that size, as one build takes them. */
export function passagesOfSize(size: { perLanguage: number; documents: number; pages: number }): Passage[] {
  return [
    ...articlePassages(size.perLanguage),
    ...documentPassages(size.documents, size.pages).flatMap((file) => file.passages),
  ];
}
