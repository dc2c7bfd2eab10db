// Chooses the ranking weights and the abstention thresholds on the TUNING half only:
// npx tsx eval/assistant/tune.ts. For each set of weights it builds the knowledge base and ranks
// every tuning question once, then tries each threshold setting; a setting scores the mean over
// both languages of (top-1 share of in-scope questions + share of out-of-scope questions answered
// "I don't know"), averaged with the same setting at minConfidence ± 0.01 and ± 0.02 so that a
// threshold on the edge of a cliff (16 out-of-scope questions per language make a noisy
// objective) loses to one in the middle of a plateau, and takes the best setting that keeps top-1
// (the floor below). The tuning half includes eval/assistant/tuning.<lang>.txt (split.ts). The held-out
// half is never read here. Prints the best setting without the floor, the current defaults'
// objective, then the best settings under the floor, best first: the first is the one chosen.
// The tuning halves of the single-message later kinds count too (--kinds): near-topic questions
// (out of scope) and Finglish (read as Persian first); the objective is then the mean over every
// set and language of its share right (top-1 in scope, "I don't know" out of scope).
// --fixed-ranking keeps the ranking weights as they are and searches the rule only.
import {
  DEFAULT_RANKING,
  KnowledgeBase,
  loadOutside,
  loadPassages,
  loadThesaurus,
  type Ranking,
} from '../../src/modules/assistant/knowledge.js';
import {
  confidence,
  DEFAULT_THRESHOLDS,
  isWeakMatch,
  type Match,
  type Thresholds,
} from '../../src/modules/assistant/retrieval.js';
import { isFinglish } from '../../src/modules/assistant/finglish-words.js';
import { OUT_OF_SCOPE, readSplit } from './questions.js';

const split = readSplit();
// --lang en|fa: choose for one language only (the thresholds can differ per language).
const langFlag = process.argv.indexOf('--lang');
const languages = langFlag === -1 ? (['en', 'fa'] as const) : ([process.argv[langFlag + 1] as 'en' | 'fa'] as const);
const passages = loadPassages();
const thesaurus = loadThesaurus();
const outside = loadOutside();
const steps = (from: number, to: number, step: number): number[] =>
  Array.from({ length: Math.round((to - from) / step) + 1 }, (_, i) => Math.round((from + i * step) * 1000) / 1000);

const withKinds = process.argv.includes('--kinds');
const rankings: Ranking[] = [];
if (process.argv.includes('--fixed-ranking')) rankings.push(DEFAULT_RANKING.en);
else
  for (const wordWeight of [0.3, 0.4, 0.5, 0.6, 0.7]) {
    for (const coverageWeight of [0, 0.2])
      for (const halfScore of [8, 16, 32, 64])
        if (wordWeight + coverageWeight < 1) rankings.push({ wordWeight, halfScore, coverageWeight });
  }
const thresholds: Thresholds[] = [];
for (const marginWeight of [0, 0.25, 0.5]) {
  for (const knownWeight of steps(0, 1.2, 0.4)) {
    for (const outsideWeight of [0, 2, 4, 8, 16]) {
      for (const missingWeight of withKinds ? [0, 0.1, 0.2, 0.3, 0.4] : [0])
        for (const minConfidence of steps(0.2, 0.9, 0.01))
          thresholds.push({ marginWeight, knownWeight, outsideWeight, missingWeight, minConfidence, secondRatio: 0.9 });
    }
  }
}

// "Improve the abstention and keep top-1": a setting may not answer fewer tuning questions right
// first than the code did when the fourth session started (0eb0fb4, on this tuning half: en
// 161/203, fa 177/203 in scope).
// With --kinds the floor is where the code stood before the later kinds' changes (dd7f875, on this
// tuning half: en 190/203, fa 189/203 in scope), less one question: their gains may not cost the older sets.
const TOP1_FLOOR: Record<'en' | 'fa', number> = withKinds
  ? { en: 189 / 203, fa: 188 / 203 }
  : { en: 161 / 203, fa: 177 / 203 };
// With --kinds, nor may they cost the older sets' out-of-scope questions (dd7f875: en 95/102, fa 96/99), less one.
const SAID_SO_FLOOR: Record<'en' | 'fa', number> = withKinds ? { en: 94 / 102, fa: 95 / 99 } : { en: 0, fa: 0 };
const results: Array<{ objective: number; ranking: Ranking; threshold: Thresholds; detail: string; kept: boolean }> =
  [];
const raw = new Map<string, number>();
const gaps = new Map<string, number>();
const key = (ranking: Ranking, t: Thresholds, minConfidence: number) =>
  `${JSON.stringify(ranking)} ${t.marginWeight} ${t.knownWeight} ${t.outsideWeight} ${t.missingWeight} ${minConfidence.toFixed(2)}`;
type Ranked = { inScope: boolean; expected: string; match: Match };
for (const ranking of rankings) {
  const knowledge = new KnowledgeBase(passages, thesaurus, { en: ranking, fa: ranking }, outside);
  const rank = (query: string, expected: string, lang: 'en' | 'fa'): Ranked => ({
    inScope: expected !== OUT_OF_SCOPE,
    expected,
    match: knowledge.match(isFinglish(query) ? knowledge.readLatin(query) : query, lang, 3),
  });
  const ranked = languages.map((lang) => split.sets[lang].tuning.map((q) => rank(q.query, q.expected, lang)));
  // The later single-message kinds' tuning halves, each a set of its own.
  const extra: Ranked[][] = !withKinds
    ? []
    : languages.flatMap((lang) =>
        (['neartopic', 'finglish'] as const)
          .map((kind) => (split.kinds[kind][lang]?.tuning ?? []).map((c) => rank(c.query, c.expected[0]!, lang)))
          .filter((rows) => rows.length > 0),
      );
  for (const threshold of thresholds) {
    const shareOf = (rows: Ranked[]) => {
      const inScope = rows.filter((r) => r.inScope);
      const outOfScope = rows.filter((r) => !r.inScope);
      const top1 =
        inScope.filter((r) => r.match.hits[0]?.passage.id === r.expected && !isWeakMatch(r.match, threshold)).length /
        Math.max(1, inScope.length);
      const saidSo = outOfScope.filter((r) => isWeakMatch(r.match, threshold)).length / Math.max(1, outOfScope.length);
      return { top1, saidSo, inScope: inScope.length, outOfScope: outOfScope.length };
    };
    const shares = ranked.map(shareOf);
    const parts = [...shares, ...extra.map(shareOf)].flatMap((s) => [
      ...(s.inScope > 0 ? [s.top1] : []),
      ...(s.outOfScope > 0 ? [s.saidSo] : []),
    ]);
    // Without the later kinds: the mean over languages of top-1 + said so, as before; with them, twice the mean share.
    const objective = withKinds
      ? (2 * parts.reduce((a, b) => a + b, 0)) / parts.length
      : shares.reduce((sum, s) => sum + s.top1 + s.saidSo, 0) / shares.length;
    // How far the rightly decided questions sit from the threshold (capped at 0.05 each, minus for
    // the wrongly decided ones): among settings that decide the same questions right, the one with
    // the threshold in the middle of the gap wins.
    const distance = [...ranked, ...extra]
      .flat()
      .filter((r) => !r.inScope || r.match.hits[0]?.passage.id === r.expected);
    const gap =
      distance.reduce((sum, r) => {
        const signed = (confidence(r.match, threshold) - threshold.minConfidence) * (r.inScope ? 1 : -1);
        return sum + Math.max(-0.05, Math.min(0.05, signed));
      }, 0) / distance.length;
    gaps.set(key(ranking, threshold, threshold.minConfidence), gap);
    const detail = [
      ...shares.map(
        (s, i) => `${languages[i]} top-1 ${(100 * s.top1).toFixed(1)} % said so ${(100 * s.saidSo).toFixed(1)} %`,
      ),
      ...extra
        .map(shareOf)
        .map((s) =>
          s.inScope > 0
            ? `kind top-1 ${(100 * s.top1).toFixed(1)} % said so ${(100 * s.saidSo).toFixed(1)} %`
            : `kind said so ${(100 * s.saidSo).toFixed(1)} %`,
        ),
    ].join(', ');
    raw.set(key(ranking, threshold, threshold.minConfidence), objective);
    const kept = shares.every(
      (s, i) => s.top1 >= TOP1_FLOOR[languages[i]!] - 1e-9 && s.saidSo >= SAID_SO_FLOOR[languages[i]!] - 1e-9,
    );
    results.push({ objective, ranking, threshold, detail, kept });
  }
}
for (const r of results) {
  const around = [-0.02, -0.01, 0, 0.01, 0.02].map(
    (d) => raw.get(key(r.ranking, r.threshold, r.threshold.minConfidence + d)) ?? 0,
  );
  // The gap term is at most 0.005: it only orders settings whose smoothed accuracy is equal.
  r.objective =
    around.reduce((a, b) => a + b, 0) / around.length +
    0.1 * gaps.get(key(r.ranking, r.threshold, r.threshold.minConfidence))!;
}
results.sort((a, b) => b.objective - a.objective);
// Sessions 2 and 3 then leaned to the highest threshold within half a question of the best, since
// 16 and then 56 mostly far-off out-of-scope questions per language could not tell thresholds
// apart. With about 100 per language, mostly near-topic (fourth session), the data can: the best
// setting is taken as it is.
process.stdout.write(`best without the top-1 floor: ${results[0]!.objective.toFixed(3)} (${results[0]!.detail})\n`);
const chosen = results.find((r) => r.kept) ?? results[0]!;
// The code's current defaults, scored the same way, so a step can be compared with the one before.
const defaults = DEFAULT_THRESHOLDS.en;
const current = results.find(
  ({ ranking, threshold: t }) =>
    JSON.stringify(ranking) === JSON.stringify(DEFAULT_RANKING.en) &&
    t.marginWeight === defaults.marginWeight &&
    t.knownWeight === defaults.knownWeight &&
    t.outsideWeight === defaults.outsideWeight &&
    t.missingWeight === defaults.missingWeight &&
    t.minConfidence === defaults.minConfidence,
);
process.stdout.write(
  current
    ? `current defaults: ${current.objective.toFixed(3)} (${current.detail})\n`
    : 'current defaults: not in the grid\n',
);
process.stdout.write(`chosen: the first setting below (${chosen.detail})\n`);
for (const r of results.filter((r) => r.kept).slice(0, Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 15))) {
  const { wordWeight, halfScore, coverageWeight } = r.ranking;
  const { marginWeight, knownWeight, outsideWeight, missingWeight, minConfidence } = r.threshold;
  const gap = gaps.get(key(r.ranking, r.threshold, r.threshold.minConfidence))!;
  process.stdout.write(
    `${r.objective.toFixed(3)} (gap ${gap.toFixed(4)})  ranking {wordWeight ${wordWeight}, halfScore ` +
      `${halfScore}, coverageWeight ${coverageWeight}}  thresholds {marginWeight ${marginWeight}, knownWeight ` +
      `${knownWeight}, outsideWeight ${outsideWeight}, missingWeight ${missingWeight}, minConfidence ${minConfidence}}  (${r.detail})\n`,
  );
}
