// The pages of uploaded documents: found by their words, their sentences compared with the question
// only for the best pages by words, with vectors that follow an edit of the page.
import { describe, expect, it } from 'vitest';
import {
  ANSWER_SENTENCE_WEIGHT,
  COMPARED_PAGES,
  PAGE_SENTENCE_WEIGHT,
} from '../../src/modules/assistant/document-sentences.js';
import { KnowledgeBase, loadPassages, type Passage } from '../../src/modules/assistant/knowledge.js';
import { understand } from '../../src/modules/assistant/understanding.js';

const page = (position: number, answer: string, document = true): Passage => ({
  id: `file-7.${position}`,
  lang: 'en',
  topic: 'file-7',
  question: `Solar handbook, page ${position}`,
  alternates: [],
  answer,
  ...(document ? { document: true } : {}),
});

const WARRANTY = 'The solar inverter warranty lasts twelve years. Panels are covered for twenty-five years.';
const FILLER = 'Installers visit the site before mounting. The roof survey takes one afternoon.';
const bundled = () => loadPassages().filter((p) => p.lang === 'en');

describe('a document page', () => {
  it('is compared by its sentences once its words find it, as the same page indexed as an article but weighed as a page', () => {
    const question = 'How long is the solar inverter warranty?';
    const asDocument = new KnowledgeBase([...bundled(), page(1, FILLER), page(2, WARRANTY)]);
    const hit = asDocument.match(question, 'en', 3).hits[0]!;
    expect(hit.passage.id).toBe('file-7.2');
    expect(hit.similarity).toBeGreaterThan(0.2);
    // The control: the same pages with every sentence a phrasing in the trigram index.
    const asArticle = new KnowledgeBase([...bundled(), page(1, FILLER, false), page(2, WARRANTY, false)]);
    const control = asArticle.match(question, 'en', 3).hits[0]!;
    expect(control.passage.id).toBe('file-7.2');
    expect(hit.similarity).toBeCloseTo((control.similarity * PAGE_SENTENCE_WEIGHT) / ANSWER_SENTENCE_WEIGHT, 1);
    // It answers the question beside the bundled articles.
    expect(understand(asDocument, { message: question }).passages.map((p) => p.id)).toEqual(['file-7.2']);
  });

  it('follows an edit: the replaced page is compared with its new sentences', () => {
    const knowledge = new KnowledgeBase(
      [...bundled(), page(1, FILLER), page(2, WARRANTY)],
      undefined,
      undefined,
      undefined,
      (p) => p.topic,
    );
    const question = 'How long does the roof survey take?';
    expect(knowledge.match(question, 'en', 1).hits[0]!.passage.id).toBe('file-7.1');
    knowledge.add('file-7', [page(1, WARRANTY), page(2, FILLER)]);
    const hit = knowledge.match(question, 'en', 1).hits[0]!;
    expect(hit.passage.id).toBe('file-7.2');
    expect(hit.similarity).toBeGreaterThan(0.2);
  });

  it('is compared only among the best pages by words', () => {
    const pages = Array.from({ length: COMPARED_PAGES + 5 }, (_, i) =>
      page(i + 1, `${'solar '.repeat(i + 1)}inverter. The warranty of part ${i + 1} is on the label.`),
    );
    const knowledge = new KnowledgeBase([...bundled(), ...pages]);
    const hits = knowledge.match('solar inverter warranty label', 'en', 50).hits.filter((h) => h.passage.document);
    expect(hits).toHaveLength(pages.length);
    // A page's own heading ("Solar handbook, page N") shares trigrams with the question, so every
    // page has some similarity; the compared ones have their closest sentence's, well above it.
    const raised = hits.filter((h) => h.similarity > 0.2);
    expect(raised.length).toBe(COMPARED_PAGES);
  });
});
