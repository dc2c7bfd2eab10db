// The knowledge base written to bytes and read back answers exactly as the one built: the digest
// of every answer to the evaluation's messages (understand() and a search in each language, scores
// included), and understand() on English, Persian and Finglish messages; then again after the same
// edits to both (passages replaced, added and removed, a document gone and one added), and for a
// snapshot taken after searches and edits. The graph writer refuses what it cannot write whole.
import { describe, expect, it } from 'vitest';
import { answerDigest } from '../../bench/knowledge/answer-digest.js';
import { articlePassages, documentPassages } from '../../bench/knowledge/corpus.js';
import {
  DEFAULT_RANKING,
  KnowledgeBase,
  loadOutside,
  loadPassages,
  loadThesaurus,
  type Passage,
} from '../../src/modules/assistant/knowledge.js';
import { knowledgeBytes, knowledgeFromBytes, KNOWLEDGE_KINDS } from '../../src/modules/assistant/knowledge-snapshot.js';
import { writeGraph } from '../../src/modules/assistant/snapshot-graph.js';
import { understand } from '../../src/modules/assistant/understanding.js';
import { documentSource } from '../../src/modules/kb-files/document-index.js';
import { articleSource } from '../../src/modules/kb/knowledge-feed.js';

const MESSAGES = [
  'How long does a refund take?',
  'my paymnt failed',
  'where do I see my tickets',
  'چطور تیکت پشتیبانی ثبت کنم؟',
  'کی پولم برمیگرده',
  'سرمایه گذاری در پروژه چطوره',
  'ramzamo yadam rafte',
  'salam, chetori pool varis konam?',
  'refundam kay miad',
];

const articles = [...loadPassages(), ...articlePassages(60)];
const files = documentPassages(6, 5);

function built(): KnowledgeBase {
  const sourceOf = new Map<Passage, string>();
  for (const file of files) for (const p of file.passages) sourceOf.set(p, documentSource(file.id));
  return new KnowledgeBase(
    [...articles, ...sourceOf.keys()],
    loadThesaurus(),
    DEFAULT_RANKING,
    loadOutside(),
    (p) => sourceOf.get(p) ?? articleSource(p.id, p.lang),
  );
}

/** What understand() makes of each message: language, reading, passages and their scores. */
const understood = (knowledge: KnowledgeBase) =>
  MESSAGES.map((message) => {
    const u = understand(knowledge, { message });
    return [u.language, u.via, u.weakMatch, u.passages.map((p) => p.id), knowledge.match(message, u.language, 5)];
  });

/** The same edits, as the change log and the document index make them. */
function edit(knowledge: KnowledgeBase): void {
  for (const p of articles.slice(-8, -3))
    knowledge.add(articleSource(p.id, p.lang), [
      { ...p, question: `${p.question} edited`, answer: `${p.answer} More.` },
    ]);
  const fa = articles.find((p) => p.lang === 'fa')!;
  knowledge.add(articleSource('added.one', 'fa'), [
    { ...fa, id: 'added.one', question: 'بازگشت وجه سرمایه گذاری لغو شده کی انجام میشود؟' },
  ]);
  knowledge.remove(articleSource(articles.at(-1)!.id, articles.at(-1)!.lang));
  knowledge.remove(documentSource(files[0]!.id));
  const [moved] = documentPassages(1, 3);
  knowledge.add(
    documentSource(999),
    moved!.passages.map((p) => ({ ...p, id: `file-999.${p.id}` })),
  );
}

describe('a knowledge base written and read back', () => {
  it('answers as the one built, and again after the same edits to both', () => {
    const original = built();
    const restored = knowledgeFromBytes(knowledgeBytes(original));
    expect(restored).not.toBe(original);
    expect(answerDigest(restored)).toEqual(answerDigest(original));
    expect(understood(restored)).toEqual(understood(original));
    edit(original);
    edit(restored);
    expect(answerDigest(restored)).toEqual(answerDigest(original));
    expect(understood(restored)).toEqual(understood(original));
    expect(restored.passages.map((p) => `${p.lang}:${p.id}`)).toEqual(
      original.passages.map((p) => `${p.lang}:${p.id}`),
    );
  }, 120_000);

  it('answers alike when written after searches and edits (its caches written or made again)', () => {
    const original = built();
    understood(original);
    edit(original);
    const restored = knowledgeFromBytes(knowledgeBytes(original));
    expect(understood(restored)).toEqual(understood(original));
    // The fields left out while writing are back in the index written (its answers above came after).
    expect(answerDigest(restored)).toEqual(answerDigest(original));
  }, 120_000);

  it('is refused whole when bytes are missing or another kind of graph', () => {
    const bytes = knowledgeBytes(built());
    expect(() => knowledgeFromBytes(bytes.subarray(0, bytes.length >> 1))).toThrow();
    expect(() => knowledgeFromBytes(writeGraph({ a: 1 }, KNOWLEDGE_KINDS))).toThrow(/not a knowledge base/);
    expect(() => knowledgeFromBytes(writeGraph({ a: 1 }, KNOWLEDGE_KINDS.slice(1)))).toThrow(/kinds/);
  });
});

describe('the graph writer', () => {
  it('refuses an instance of a class it was not told of, and a function in a field', () => {
    class Unknown {
      x = 1;
    }
    expect(() => writeGraph({ inner: new Unknown() }, [])).toThrow(/Unknown is not a registered kind/);
    expect(() => writeGraph({ f: () => 1 }, [])).toThrow(/a function/);
  });
});
