// Splits the evaluation questions once into a tuning half and a held-out half and writes
// eval/assistant/split.json. Run once: npx tsx eval/assistant/split.ts. The split is random with a
// fixed seed and stratified by expected passage (out-of-scope questions are one group), so each
// half holds half of every passage's questions; running it again gives the same split. The
// questions of tuning.<lang>.txt (more out-of-scope ones, written later) are then appended to the
// tuning half: they take no draw of the generator, so the held-out half stays exactly as it was.
import fs from 'node:fs';
import { OUT_OF_SCOPE, readQuestions, SPLIT_FILE, type Lang, type Question, type Split } from './questions.js';

export const SEED = 20261123;

/** mulberry32: a small seeded generator, so the split does not depend on Math.random. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export function split(seed: number): Split {
  const random = generator(seed);
  const sets = {} as Split['sets'];
  for (const lang of ['en', 'fa'] as const satisfies Lang[]) {
    const groups = new Map<string, Question[]>();
    for (const q of readQuestions(lang)) groups.set(q.expected, [...(groups.get(q.expected) ?? []), q]);
    const tuning: Question[] = [];
    const heldout: Question[] = [];
    for (const expected of [...groups.keys()].sort()) {
      const shuffled = shuffle(groups.get(expected)!, random);
      const half = Math.floor(shuffled.length / 2);
      heldout.push(...shuffled.slice(0, half));
      tuning.push(...shuffled.slice(half));
    }
    tuning.push(...readQuestions(lang, 'tuning'));
    sets[lang] = { tuning, heldout };
  }
  return {
    seed,
    method: `stratified by expected passage ("${OUT_OF_SCOPE}" is one group), mulberry32 Fisher-Yates shuffle, first half of each group held out; tuning.<lang>.txt appended to the tuning half`,
    sets,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  fs.writeFileSync(SPLIT_FILE, `${JSON.stringify(split(SEED), null, 1)}\n`);
  process.stdout.write(`wrote ${SPLIT_FILE}\n`);
}
