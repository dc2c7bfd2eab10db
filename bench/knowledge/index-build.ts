// The index build at the benchmark's size, in memory, without a database or a server:
//   npx tsx bench/knowledge/index-build.ts [--articles N] [--documents D] [--pages P] [--answers]
//                                          [--kept]
// Builds the knowledge base as a start does (the bundled passages and N generated articles per
// language in one build, then each of D generated documents of P pages added as its own source,
// as the uploaded documents are), and prints how long each step took and the heap it added. With
// --answers it also prints a digest of every answer the index gives to the evaluation's questions
// (hits, scores and the signals of "I don't know"), before and after an edit of a few articles: two
// versions of the index code that print the same digests answer every question the same way.
// --kept: the index is then written to bytes and read back, as a start keeps it between starts
// (src/modules/assistant/knowledge-snapshot.ts), with the time and size of each; with --answers the
// digests printed are of the index read back, the edits made to it (the same digests: it answers
// as the one built).
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import {
  type Passage,
  DEFAULT_RANKING,
  KnowledgeBase,
  loadOutside,
  loadThesaurus,
} from '../../src/modules/assistant/knowledge.js';
import { knowledgeBytes, knowledgeFromBytes } from '../../src/modules/assistant/knowledge-snapshot.js';
import { documentSource } from '../../src/modules/kb-files/document-index.js';
import { articleSource } from '../../src/modules/kb/knowledge-feed.js';
import { answerDigest } from './answer-digest.js';
import { articlePassages, documentPassages } from './corpus.js';

const { values } = parseArgs({
  options: {
    articles: { type: 'string' },
    documents: { type: 'string' },
    pages: { type: 'string' },
    answers: { type: 'boolean' },
    kept: { type: 'boolean' },
  },
});
const perLanguage = Number(values.articles ?? 2000);
const documents = Number(values.documents ?? 50);
const pages = Number(values.pages ?? 100);
const out = (line: string) => process.stdout.write(`${line}\n`);
const gc = (globalThis as { gc?: () => void }).gc;

const articles: Passage[] = articlePassages(perLanguage);
const files = documentPassages(documents, pages);

gc?.();
const heapBefore = process.memoryUsage().heapUsed;
let started = performance.now();
const cpuBefore = process.cpuUsage();
let knowledge = new KnowledgeBase(articles, loadThesaurus(), DEFAULT_RANKING, loadOutside(), (p) =>
  articleSource(p.id, p.lang),
);
const articlesMs = performance.now() - started;
started = performance.now();
for (const file of files) knowledge.add(documentSource(file.id), file.passages);
const documentsMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
gc?.();
const heap = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
const documentCount = files.reduce((n, f) => n + f.passages.length, 0);
out(
  `${articles.length} article passages in ${articlesMs.toFixed(0)} ms; ${documentCount} passages of ${documents} documents added in ${documentsMs.toFixed(0)} ms; ` +
    `CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms in all; heap +${heap.toFixed(0)} MB${gc ? '' : ' (node --expose-gc for a settled figure)'}`,
);

if (values.kept) {
  let at = performance.now();
  const bytes = knowledgeBytes(knowledge);
  const writeMs = performance.now() - at;
  at = performance.now();
  knowledge = knowledgeFromBytes(bytes);
  out(
    `kept: written in ${writeMs.toFixed(0)} ms (${(bytes.length / 2 ** 20).toFixed(0)} MB), read back in ${(performance.now() - at).toFixed(0)} ms`,
  );
}

if (values.answers) {
  const digest = (label: string) => {
    const { messages, digest } = answerDigest(knowledge);
    out(`answers ${label}: ${messages} messages, digest ${digest}`);
  };
  digest('after the build');
  // An edit of a few articles and a document, as the change log applies them.
  for (const passage of articles.slice(0, 5))
    knowledge.add(articleSource(passage.id, passage.lang), [{ ...passage, question: `${passage.question} edited` }]);
  knowledge.remove(articleSource(articles[10]!.id, articles[10]!.lang));
  if (files[0]) knowledge.remove(documentSource(files[0].id));
  digest('after edits');
}
