// Chooses the ranking weights and the abstention threshold on the TUNING half only:
// npx tsx eval/assistant/tune.ts. For each weight pair it builds the knowledge base, ranks every
// tuning question, then tries each threshold; a setting scores the mean over both languages of
// (top-1 share of in-scope questions + share of out-of-scope questions answered "I don't know").
// The held-out half is never read here.
import { KnowledgeBase, loadPassages, loadThesaurus, type Ranking } from '../../src/modules/assistant/knowledge.js';
import { OUT_OF_SCOPE, readSplit } from './questions.js';

const split = readSplit();
const passages = loadPassages();
const thesaurus = loadThesaurus();
const results: Array<{ ranking: Ranking; minScore: number; minCoverage: number; objective: number; detail: string }> = [];

for (const wordWeight of [0.3, 0.4, 0.5, 0.6, 0.7, 0.8]) for (const coverageWeight of [0, 0.1, 0.2, 0.3]) {
  if (wordWeight + coverageWeight >= 1) continue;
  for (const halfScore of [4, 8, 16, 32]) {
    const ranking = { wordWeight, halfScore, coverageWeight };
    const knowledge = new KnowledgeBase(passages, thesaurus, ranking);
    const ranked = (['en', 'fa'] as const).map((lang) =>
      split.sets[lang].tuning.map((q) => {
        const best = knowledge.search(q.query, lang, 1)[0];
        return { inScope: q.expected !== OUT_OF_SCOPE, right: best?.passage.id === q.expected, score: best?.score ?? 0, coverage: best?.coverage ?? 0 };
      }),
    );
    for (const minCoverage of [0]) for (let minScore = 0.1; minScore <= 0.7; minScore += 0.01) {
      const answers = (r: { score: number; coverage: number }) => r.score >= minScore && r.coverage >= minCoverage;
      const shares = ranked.map((rows) => {
        const inScope = rows.filter((r) => r.inScope);
        const outOfScope = rows.filter((r) => !r.inScope);
        const top1 = inScope.filter((r) => r.right && answers(r)).length / inScope.length;
        const saidSo = outOfScope.filter((r) => !answers(r)).length / outOfScope.length;
        return { top1, saidSo };
      });
      const objective = shares.reduce((sum, s) => sum + s.top1 + s.saidSo, 0) / shares.length;
      const ranks = ranked.map((rows) => rows.filter((r) => r.inScope && r.right).length / rows.filter((r) => r.inScope).length);
      const detail = `ranking alone ${ranks.map((x) => (100 * x).toFixed(1)).join('/')}; ` + shares.map((s, i) => `${i === 0 ? 'en' : 'fa'} top-1 ${(100 * s.top1).toFixed(1)} % said so ${(100 * s.saidSo).toFixed(1)} %`).join(', ');
      results.push({ ranking, minScore: Math.round(minScore * 100) / 100, minCoverage, objective, detail });
    }
  }
}
results.sort((a, b) => b.objective - a.objective);
for (const r of results.slice(0, 12)) {
  process.stdout.write(`${r.objective.toFixed(3)}  wordWeight ${r.ranking.wordWeight}  halfScore ${r.ranking.halfScore}  coverageWeight ${r.ranking.coverageWeight}  minScore ${r.minScore.toFixed(2)}  minCoverage ${r.minCoverage}  (${r.detail})\n`);
}
