// Splits the evaluation questions once into a tuning half and a held-out half and writes
// eval/assistant/split.json. Run once: npx tsx eval/assistant/split.ts. The split is random with a
// fixed seed and stratified by expected passage (out-of-scope questions are one group), so each
// half holds half of every passage's questions; running it again gives the same split. The
// questions of tuning.<lang>.txt (more out-of-scope ones, written later) are then appended to the
// tuning half: they take no draw of the generator, so the held-out half stays exactly as it was.
// The later kinds (Finglish, conversations, page, long, near-topic) are split per kind and language
// with generators of their own (splitKind), so adding a kind leaves every other half as it was; the
// kind's tuning-only file (<kind>.tuning.<lang>.txt, finglish.tuning.txt) is appended to its tuning
// half after the draw, as tuning.<lang>.txt is for the questions.
import fs from 'node:fs';
import {
  type Case,
  type Halves,
  KINDS,
  type Kind,
  OUT_OF_SCOPE,
  readCases,
  readQuestions,
  SPLIT_FILE,
  type Lang,
  type Question,
  type Split,
} from './questions.js';
import { seededRandom } from '../../harness/random.js';

export const SEED = 20261123;

/** mulberry32 (harness/random.ts), so the split does not depend on Math.random. */
const generator = seededRandom;

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
  const kinds = {} as Split['kinds'];
  for (const kind of KINDS) {
    kinds[kind] = {};
    for (const lang of ['en', 'fa'] as const) {
      const cases = readCases(kind, lang);
      if (cases.length === 0) continue;
      const halves = splitKind(cases, kindSeed(seed, kind, lang));
      halves.tuning.push(...readCases(kind, lang, 'tuning'));
      kinds[kind][lang] = halves;
    }
  }
  return {
    seed,
    method:
      `stratified by expected passage ("${OUT_OF_SCOPE}" is one group), mulberry32 Fisher-Yates shuffle, ` +
      `first half of each group held out; tuning.<lang>.txt appended to the tuning half`,
    sets,
    kinds,
    kindsMethod:
      `per kind and language, a mulberry32 generator seeded with the seed xor the FNV-1a hash of ` +
      `"<kind>.<lang>"; stratified by expected passages (a conversation's last turn; "${OUT_OF_SCOPE}" is one ` +
      `group); within a group, near-duplicates (character-trigram Jaccard >= ${NEAR_DUPLICATE} after folding ` +
      `spelling variants) form one unit, units are shuffled and each goes to the half with fewer of the group's cases (ties: fewer of the kind's, then held out); ` +
      `<kind>.tuning.<lang>.txt (finglish.tuning.txt) appended to the tuning half`,
  };
}

/**
 * A tuning-only line at least this similar to a held-out case of its kind and language nearly repeats
 * it: such lines were dropped from the tuning-only files before they were first measured.
 */
export const NEAR_COPY = 0.4;

/** Two cases at least this similar (see similarity) are near-duplicates and go to the same half. */
export const NEAR_DUPLICATE = 0.24;

/** FNV-1a, 32 bits: the kind's own seed, so kinds do not share draws. */
function kindSeed(seed: number, kind: Kind, lang: Lang): number {
  let hash = 0x811c9dc5;
  for (const ch of `${kind}.${lang}`) hash = Math.imul(hash ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return (seed ^ hash) >>> 0;
}

/** Character trigrams of the words, with the spellings that vary most in Finglish folded (oo/u, ee/i, aa/a). */
function trigramSet(text: string): Set<string> {
  const folded = text
    .toLowerCase()
    .replace(/oo/g, 'u')
    .replace(/ee/g, 'i')
    .replace(/aa/g, 'a')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  const grams = new Set<string>();
  for (const word of folded) {
    const padded = ` ${word} `;
    for (let i = 0; i + 3 <= padded.length; i += 1) grams.add(padded.slice(i, i + 3));
  }
  return grams;
}

/** Jaccard similarity of two cases' trigram sets. */
export function similarity(a: string, b: string): number {
  const [x, y] = [trigramSet(a), trigramSet(b)];
  let shared = 0;
  for (const g of x) if (y.has(g)) shared += 1;
  return shared / Math.max(1, x.size + y.size - shared);
}

/** The units of a group: near-duplicates joined (transitively), each unit in file order. */
function units(group: Case[]): Case[][] {
  const parent = group.map((_, i) => i);
  const root = (i: number): number => {
    let r = i;
    while (parent[r] !== r) r = parent[r]!;
    return r;
  };
  for (let i = 0; i < group.length; i += 1)
    for (let j = i + 1; j < group.length; j += 1)
      if (similarity(group[i]!.query, group[j]!.query) >= NEAR_DUPLICATE) parent[root(j)] = root(i);
  const byRoot = new Map<number, Case[]>();
  for (const [i, c] of group.entries()) byRoot.set(root(i), [...(byRoot.get(root(i)) ?? []), c]);
  return [...byRoot.values()];
}

export function splitKind(cases: Case[], seed: number): Halves {
  const random = generator(seed);
  const groups = new Map<string, Case[]>();
  for (const c of cases) groups.set(c.expected.join(','), [...(groups.get(c.expected.join(',')) ?? []), c]);
  const tuning: Case[] = [];
  const heldout: Case[] = [];
  for (const key of [...groups.keys()].sort()) {
    const inGroup = { tuning: 0, heldout: 0 };
    for (const unit of shuffle(units(groups.get(key)!), random)) {
      const side =
        inGroup.heldout !== inGroup.tuning
          ? inGroup.heldout < inGroup.tuning
            ? 'heldout'
            : 'tuning'
          : heldout.length <= tuning.length
            ? 'heldout'
            : 'tuning';
      inGroup[side] += unit.length;
      (side === 'heldout' ? heldout : tuning).push(...unit);
    }
  }
  return { tuning, heldout };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  fs.writeFileSync(SPLIT_FILE, `${JSON.stringify(split(SEED), null, 1)}\n`);
  process.stdout.write(`wrote ${SPLIT_FILE}\n`);
}
