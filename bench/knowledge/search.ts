// The knowledge base at the benchmark's size in memory, without a database or a server, as a start
// builds it (articles and documents in one build), then the chat's understanding of members'
// messages on it:
//   npx tsx bench/knowledge/search.ts [--articles N] [--documents D] [--pages P] [--messages M]
//                                     [--each]
// Prints the build's wall and CPU time and the heap it holds after a full collection, then the
// p50/p99 wall time and the mean CPU time of understand() over M messages (default 2,000), taken in
// turn from a fixed list of English, Persian and Finglish questions. No client is involved, so there
// is no ceiling; CPU time per message is the figure that depends least on what else the machine runs.
// --each: then, per message of the list, its mean CPU time over M / 8 runs of it alone.
// --answers: first the digest of every answer the one build gives (answer-digest.ts), before any
// message is timed: two versions of the index code with the same digest answer alike.
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { DEFAULT_RANKING, KnowledgeBase, loadOutside, loadThesaurus } from '../../src/modules/assistant/knowledge.js';
import { understand } from '../../src/modules/assistant/understanding.js';
import { percentile } from '../../src/core/percentile.js';
import { fullCollection } from '../lib/proc.js';
import { answerDigest } from './answer-digest.js';
import { passagesOfSize, SIZE_OPTIONS, sizeOf } from './corpus.js';

const MESSAGES = [
  'How long does a refund take?',
  'چطور تیکت پشتیبانی ثبت کنم؟',
  'my paymnt failed',
  'ramzamo yadam rafte',
  'where do I see my tickets',
  'can I change my email address',
  'کی پولم برمیگرده',
  'salam, chetori pool varis konam?',
];

const { values } = parseArgs({
  options: { ...SIZE_OPTIONS, messages: { type: 'string' }, each: { type: 'boolean' }, answers: { type: 'boolean' } },
});
const { perLanguage, documents, pages } = sizeOf(values);
const messages = Number(values.messages ?? 2000);
const out = (line: string) => process.stdout.write(`${line}\n`);

const passages = passagesOfSize({ perLanguage, documents, pages });
const thesaurus = loadThesaurus();
const outside = loadOutside();

fullCollection();
const heapBefore = process.memoryUsage().heapUsed;
const cpuBefore = process.cpuUsage();
const started = performance.now();
const knowledge = new KnowledgeBase(passages, thesaurus, DEFAULT_RANKING, outside);
const wall = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
fullCollection();
out(
  `${passages.length} passages (${perLanguage} articles per language, ${documents} documents of ${pages} pages) in one build: ` +
    `${wall.toFixed(0)} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU; ` +
    `heap held +${((process.memoryUsage().heapUsed - heapBefore) / 2 ** 20).toFixed(0)} MB after a full collection`,
);

if (values.answers) {
  const { messages: count, digest } = answerDigest(knowledge);
  out(`answers of the one build: ${count} messages, digest ${digest}`);
}

// A first round unmeasured: the first search weighs what the build left to weigh, and the code warms.
for (const message of MESSAGES) understand(knowledge, { message });
const times: number[] = [];
const cpuSearch = process.cpuUsage();
for (let i = 0; i < messages; i += 1) {
  const at = performance.now();
  understand(knowledge, { message: MESSAGES[i % MESSAGES.length]! });
  times.push(performance.now() - at);
}
const used = process.cpuUsage(cpuSearch);
times.sort((a, b) => a - b);
out(
  `understand() over ${messages} messages: p50 ${percentile(times, 0.5)!.toFixed(2)} ms, p99 ${percentile(times, 0.99)!.toFixed(2)} ms; ` +
    `CPU ${((used.user + used.system) / 1000 / messages).toFixed(2)} ms per message`,
);

if (values.each) {
  const runs = Math.max(1, Math.round(messages / MESSAGES.length));
  for (const message of MESSAGES) {
    const cpu = process.cpuUsage();
    for (let i = 0; i < runs; i += 1) understand(knowledge, { message });
    const spent = process.cpuUsage(cpu);
    out(`  ${(((spent.user + spent.system) / runs) | 0).toString().padStart(6)} µs CPU  ${message}`);
  }
}
