// What understanding one message costs on the chat path: npx tsx eval/assistant/cost.ts [rounds].
// Loads and indexes the bundled knowledge base (timed, with the heap it adds), then runs
// understand() (src/modules/assistant/understanding.ts) over every question of the questions and
// fresh sets in both languages, and separately over the later kinds' messages (Finglish, long
// messages, page questions with their page, conversations' last turns with their earlier
// exchanges), for a number of rounds after one warm-up round, and prints the mean and the
// 50th/99th percentile per message of each group.
import { percentile } from '../../src/core/percentile.js';
import { bundledKnowledgeBase } from '../../src/modules/assistant/knowledge.js';
import { type Turn, understand } from '../../src/modules/assistant/understanding.js';
import { KINDS, type Lang, readCases, readQuestions } from './questions.js';

const rounds = Number(process.argv[2] ?? 20);
const heapBefore = process.memoryUsage().heapUsed;
const loadStarted = performance.now();
const knowledge = bundledKnowledgeBase();
const loadMs = performance.now() - loadStarted;
const heapAfter = process.memoryUsage().heapUsed;

const plain: Turn[] = (['en', 'fa'] as const satisfies Lang[]).flatMap((lang) =>
  [...readQuestions(lang), ...readQuestions(lang, 'fresh')].map((q) => ({ message: q.query })),
);
// A conversation's earlier exchanges carry the sources their own answers had.
const later: Turn[] = KINDS.flatMap((kind) =>
  (['en', 'fa'] as const).flatMap((lang) =>
    readCases(kind, lang).map((c): Turn => {
      const earlier: NonNullable<Turn['earlier']> = [];
      for (const turn of c.earlier ?? []) {
        const sources = understand(knowledge, { message: turn.query, earlier: [...earlier] }).passages.map((p) => p.id);
        earlier.unshift({ message: turn.query, sources });
      }
      return { message: c.query, earlier, page: c.page };
    }),
  ),
);

function time(turns: Turn[]): string {
  for (const turn of turns) understand(knowledge, turn);
  const times: number[] = [];
  for (let round = 0; round < rounds; round += 1)
    for (const turn of turns) {
      const started = performance.now();
      understand(knowledge, turn);
      times.push(performance.now() - started);
    }
  times.sort((a, b) => a - b);
  const at = (share: number): number => (percentile(times, share) ?? Number.NaN) * 1000;
  const mean = (times.reduce((a, b) => a + b, 0) / times.length) * 1000;
  return `${times.length} (${turns.length} × ${rounds}): mean ${mean.toFixed(0)} µs, p50 ${at(0.5).toFixed(0)} µs, p99 ${at(0.99).toFixed(0)} µs`;
}

process.stdout.write(
  `questions and fresh sets: ${time(plain)}\nlater kinds: ${time(later)}\n` +
    `load and index ${loadMs.toFixed(0)} ms, heap +${((heapAfter - heapBefore) / 1048576).toFixed(1)} MB\n`,
);
