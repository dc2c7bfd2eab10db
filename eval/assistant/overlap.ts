// How near the questions outside the scope written in the kinds' round (the third group of
// assets/assistant/outside/<lang>.txt) come to the measured near-topic questions, as counts only:
//   npx tsx eval/assistant/overlap.ts
// For each held-out near-topic question (and held-out Finglish one out of scope, read as Persian),
// the closest outside line by character-trigram Jaccard (split.ts's similarity): how many have
// their closest line in the third group, and how many come within 0.3 of a third-group line.
// No question is printed.
import fs from 'node:fs';
import path from 'node:path';
import { bundledKnowledgeBase, DEFAULT_OUTSIDE_DIR } from '../../src/modules/assistant/knowledge.js';
import { OUT_OF_SCOPE, readSplit } from './questions.js';
import { similarity } from './split.js';

const knowledge = bundledKnowledgeBase();
const split = readSplit();
for (const lang of ['en', 'fa'] as const) {
  const lines = fs
    .readFileSync(path.join(DEFAULT_OUTSIDE_DIR, `${lang}.txt`), 'utf8')
    .split('\n')
    .map((l) => l.trim());
  const third = lines.findIndex((l) => l.startsWith('# Third group') || l.startsWith('# گروه سوم'));
  const older = lines.slice(0, third).filter((l) => l && !l.startsWith('#'));
  const added = lines.slice(third).filter((l) => l && !l.startsWith('#'));
  const measured = [
    ...(split.kinds.neartopic[lang]?.heldout ?? []).map((c) => ({ kind: 'near-topic', text: c.query })),
    ...(lang === 'fa' ? (split.kinds.finglish.fa?.heldout ?? []) : [])
      .filter((c) => c.expected[0] === OUT_OF_SCOPE)
      .map((c) => ({ kind: 'Finglish', text: knowledge.readLatin(c.query) })),
  ];
  for (const kind of ['near-topic', 'Finglish']) {
    const questions = measured.filter((m) => m.kind === kind);
    if (questions.length === 0) continue;
    let closestAdded = 0;
    let near = 0;
    for (const { text } of questions) {
      const bestAdded = Math.max(...added.map((l) => similarity(text, l)));
      const bestOlder = Math.max(...older.map((l) => similarity(text, l)));
      if (bestAdded > bestOlder) closestAdded += 1;
      if (bestAdded >= 0.3) near += 1;
    }
    process.stdout.write(
      `${lang} ${kind} held-out (${questions.length}): closest outside line among the ${added.length} added ones for ${closestAdded}; within 0.3 of one for ${near}\n`,
    );
  }
}
