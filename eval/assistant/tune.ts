// Chooses the ranking weights and the abstention thresholds on the TUNING half only:
// npx tsx eval/assistant/tune.ts. For each set of weights it builds the knowledge base and ranks
// every tuning question once, then tries each threshold setting; a setting scores the mean over
// both languages of (top-1 share of in-scope questions + share of out-of-scope questions answered
// "I don't know"), averaged with the same setting at minScore ± 0.02 and ± 0.04 so that a
// threshold on the edge of a cliff (16 out-of-scope questions per language make a noisy
// objective) loses to one in the middle of a plateau. The held-out half is never read here.
// Prints the best settings, best first.
import { KnowledgeBase, loadPassages, loadThesaurus, type Ranking } from '../../src/modules/assistant/knowledge.js';
import { isWeakMatch, type Thresholds } from '../../src/modules/assistant/retrieval.js';
import { OUT_OF_SCOPE, readSplit } from './questions.js';

const split = readSplit();
// --lang en|fa: choose for one language only (the thresholds can differ per language).
const langFlag = process.argv.indexOf('--lang');
const languages = langFlag === -1 ? (['en', 'fa'] as const) : ([process.argv[langFlag + 1] as 'en' | 'fa'] as const);
const passages = loadPassages();
const thesaurus = loadThesaurus();
const steps = (from: number, to: number, step: number): number[] => Array.from({ length: Math.round((to - from) / step) + 1 }, (_, i) => Math.round((from + i * step) * 1000) / 1000);

const rankings: Ranking[] = [];
for (const wordWeight of [0.3, 0.4, 0.5, 0.6, 0.7]) {
  for (const coverageWeight of [0, 0.1, 0.2, 0.3]) for (const halfScore of [8, 16, 32]) if (wordWeight + coverageWeight < 1) rankings.push({ wordWeight, halfScore, coverageWeight });
}
const thresholds: Thresholds[] = [];
for (const minScore of steps(0.3, 0.7, 0.02)) {
  for (const minMargin of [...steps(0.04, 0.3, 0.02), Infinity]) for (const marginFloor of steps(0.2, 0.5, 0.02)) {
    if (marginFloor < minScore && (minMargin !== Infinity || marginFloor === 0.2)) thresholds.push({ minScore, minMargin, marginFloor, secondRatio: 0.9 });
  }
}

const results: Array<{ objective: number; ranking: Ranking; threshold: Thresholds; detail: string }> = [];
const raw = new Map<string, number>();
const key = (ranking: Ranking, t: Thresholds, minScore: number) => `${JSON.stringify(ranking)} ${minScore.toFixed(2)} ${t.minMargin} ${t.marginFloor}`;
for (const ranking of rankings) {
  const knowledge = new KnowledgeBase(passages, thesaurus, { en: ranking, fa: ranking });
  const ranked = languages.map((lang) =>
    split.sets[lang].tuning.map((q) => ({ inScope: q.expected !== OUT_OF_SCOPE, expected: q.expected, hits: knowledge.search(q.query, lang, 3) })),
  );
  for (const threshold of thresholds) {
    const shares = ranked.map((rows) => {
      const inScope = rows.filter((r) => r.inScope);
      const outOfScope = rows.filter((r) => !r.inScope);
      const top1 = inScope.filter((r) => r.hits[0]?.passage.id === r.expected && !isWeakMatch(r.hits, threshold)).length / inScope.length;
      const saidSo = outOfScope.filter((r) => isWeakMatch(r.hits, threshold)).length / outOfScope.length;
      return { top1, saidSo };
    });
    const objective = shares.reduce((sum, s) => sum + s.top1 + s.saidSo, 0) / shares.length;
    const detail = shares.map((s, i) => `${languages[i]} top-1 ${(100 * s.top1).toFixed(1)} % said so ${(100 * s.saidSo).toFixed(1)} %`).join(', ');
    raw.set(key(ranking, threshold, threshold.minScore), objective);
    results.push({ objective, ranking, threshold, detail });
  }
}
for (const r of results) {
  const around = [-0.04, -0.02, 0, 0.02, 0.04].map((d) => raw.get(key(r.ranking, r.threshold, r.threshold.minScore + d)) ?? 0);
  r.objective = around.reduce((a, b) => a + b, 0) / around.length;
}
results.sort((a, b) => b.objective - a.objective);
for (const r of results.slice(0, Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 15))) {
  const { wordWeight, halfScore, coverageWeight } = r.ranking;
  const { minScore, minMargin, marginFloor } = r.threshold;
  process.stdout.write(`${r.objective.toFixed(3)}  ranking {wordWeight ${wordWeight}, halfScore ${halfScore}, coverageWeight ${coverageWeight}}  thresholds {minScore ${minScore}, minMargin ${minMargin}, marginFloor ${marginFloor}}  (${r.detail})\n`);
}
