// The look-ups a follow-up makes at the benchmark's size, in memory, without a database or a server:
//   npx tsx bench/knowledge/follow-ups.ts [--articles N] [--documents D] [--pages P] [--passages K]
// Builds the knowledge base as bench/knowledge/search.ts does, then for each of the first K
// articles' passages (default 400) asks what a follow-up to an answer that used it may be about
// (pointedAt) and its next steps (nextSteps), three times over; prints the wall and CPU time of one
// pair in the last round, and how many passages the pairs named (the same count for the same answers).
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { DEFAULT_RANKING, KnowledgeBase, loadOutside, loadThesaurus } from '../../src/modules/assistant/knowledge.js';
import { nextSteps, pointedAt } from '../../src/modules/assistant/vague-turns.js';
import { passagesOfSize, SIZE_OPTIONS, sizeOf } from './corpus.js';

const { values } = parseArgs({ options: { ...SIZE_OPTIONS, passages: { type: 'string' } } });
const passages = passagesOfSize(sizeOf(values));
const knowledge = new KnowledgeBase(passages, loadThesaurus(), DEFAULT_RANKING, loadOutside());
const asked = knowledge.passages.filter((p) => !p.document).slice(0, Number(values.passages ?? 400));
let named = 0;
for (let round = 0; round < 3; round += 1) {
  named = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (const p of asked) named += pointedAt(knowledge, p.lang, p.id).length + nextSteps(knowledge, p.lang, p.id).length;
  const wall = ((performance.now() - started) * 1000) / asked.length;
  const used = process.cpuUsage(cpu);
  if (round === 2)
    process.stdout.write(
      `${asked.length} passages: pointedAt + nextSteps ${wall.toFixed(1)} µs wall, ` +
        `${((used.user + used.system) / asked.length).toFixed(1)} µs CPU per pair; ${named} passages named\n`,
    );
}
