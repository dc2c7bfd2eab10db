// What one search costs on the chat path: npx tsx eval/assistant/cost.ts [rounds]. Loads and
// indexes the bundled knowledge base (timed, with the heap it adds), then runs retrieve() over
// every evaluation question of both languages (questions and fresh sets) for a number of rounds
// after one warm-up round, and prints the mean and the 50th/99th percentile per search.
import { bundledKnowledgeBase } from '../../src/modules/assistant/knowledge.js';
import { retrieve } from '../../src/modules/assistant/retrieval.js';
import { readQuestions, type Lang } from './questions.js';

const rounds = Number(process.argv[2] ?? 20);
const heapBefore = process.memoryUsage().heapUsed;
const loadStarted = performance.now();
const knowledge = bundledKnowledgeBase();
const loadMs = performance.now() - loadStarted;
const heapAfter = process.memoryUsage().heapUsed;

const queries = (['en', 'fa'] as const satisfies Lang[]).flatMap((lang) =>
  [...readQuestions(lang), ...readQuestions(lang, 'fresh')].map((q) => ({ lang, text: q.query })),
);
for (const q of queries) retrieve(knowledge, q.text, q.lang);
const times: number[] = [];
for (let round = 0; round < rounds; round += 1) {
  for (const q of queries) {
    const started = performance.now();
    retrieve(knowledge, q.text, q.lang);
    times.push(performance.now() - started);
  }
}
times.sort((a, b) => a - b);
const at = (share: number): number => times[Math.min(times.length - 1, Math.floor(share * times.length))]! * 1000;
const mean = (times.reduce((a, b) => a + b, 0) / times.length) * 1000;
process.stdout.write(
  `${times.length} searches (${queries.length} questions × ${rounds}): mean ${mean.toFixed(0)} µs, p50 ${at(0.5).toFixed(0)} µs, p99 ${at(0.99).toFixed(0)} µs; ` +
    `load and index ${loadMs.toFixed(0)} ms, heap +${((heapAfter - heapBefore) / 1048576).toFixed(1)} MB\n`,
);
