// Chooses how the page, the conversation and the parts of a long message weigh (Reading in
// src/modules/assistant/understanding.ts) on the TUNING halves of the later kinds only:
//   npx tsx eval/assistant/tune-kinds.ts [--misses] [--grid]
// GRID='{"sameShare":[1,0.7]}' with --grid tries that grid instead of the one below.
// Each case goes through understand() as the chat does: a conversation's earlier turns first, each
// answer's sources kept for the next turn; a page question with its page. The older sets' tuning
// halves are measured too, so a setting that costs them shows, and asked after an exchange on
// another topic or on another topic's page (switch-*). The held-out halves are never read.
// Without --grid it prints the current defaults' figures (and with --misses the tuning misses);
// with --grid it tries each setting of the grid below and prints the best ones, best first.
import { bundledKnowledgeBase, type SearchMatch } from '../../src/modules/assistant/knowledge.js';
import { DEFAULT_READING, type Exchange, type Reading, understand } from '../../src/modules/assistant/understanding.js';
import { type Case, describeCase, KINDS, type Lang, OUT_OF_SCOPE, readSplit } from './questions.js';

const split = readSplit();
const knowledge = bundledKnowledgeBase();
// The searches do not depend on the Reading: each text is searched once.
const searched = new Map<string, SearchMatch>();
const search = knowledge.match.bind(knowledge);
knowledge.match = (query, lang, limit) => {
  const key = `${lang}|${limit}|${query}`;
  let found = searched.get(key);
  if (!found) {
    found = search(query, lang, limit);
    searched.set(key, found);
  }
  return found;
};

interface Tally {
  right: number;
  total: number;
}

/** The case's answer as the chat gives it, and whether it is right. */
function answer(c: Case, lang: Lang, reading: Reading): { right: boolean; sources: string[]; language: string } {
  const earlier: Exchange[] = [];
  for (const turn of c.earlier ?? []) {
    const previous = understand(knowledge, { message: turn.query, earlier: [...earlier] }, { reading });
    earlier.unshift({ message: turn.query, sources: previous.passages.map((p) => p.id) });
  }
  const understood = understand(knowledge, { message: c.query, earlier, page: c.page }, { reading });
  const sources = understood.passages.map((p) => p.id);
  const right =
    c.expected[0] === OUT_OF_SCOPE
      ? sources.length === 0
      : understood.language === lang &&
        c.expected.includes(sources[0] ?? '') &&
        c.expected.every((id) => sources.includes(id));
  return { right, sources, language: understood.language };
}

type Row = { name: string; cases: Array<{ c: Case; lang: Lang }> };
// --only <kind,kind>: measure those kinds only (questions: the older sets' tuning halves).
const onlyFlag = process.argv.indexOf('--only');
const only = onlyFlag === -1 ? undefined : new Set(process.argv[onlyFlag + 1]!.split(','));
const rows: Row[] = [];
for (const kind of KINDS)
  for (const lang of ['en', 'fa'] as const) {
    const tuning = split.kinds[kind][lang]?.tuning;
    if (tuning) rows.push({ name: `${kind}.${lang}`, cases: tuning.map((c) => ({ c, lang })) });
  }
// Guards: each near-topic tuning question asked on the page of the passage nearest to it, and as a
// follow-up of a turn that passage answered; the right answer stays "I don't know".
for (const lang of ['en', 'fa'] as const) {
  const nearTopic = split.kinds.neartopic[lang]?.tuning ?? [];
  const nearest = nearTopic.map((c) => ({ c, passage: knowledge.match(c.query, lang, 1).hits[0]?.passage }));
  rows.push({
    name: `guard-page.${lang}`,
    cases: nearest.map(({ c, passage }) => {
      const route = passage?.pages?.find((p) => p.startsWith('/'));
      return { c: { ...c, page: route ? { module: route.split('/')[1]!, route } : undefined }, lang };
    }),
  });
  rows.push({
    name: `guard-follow.${lang}`,
    cases: nearest.map(({ c, passage }) => ({
      c: { ...c, earlier: passage ? [{ expected: passage.id, query: passage.question }] : [] },
      lang,
    })),
  });
}
// Switches: each tuning question asked after an exchange on another topic, and on the page of a
// passage of another topic; a clear question keeps its own passage (out-of-scope ones stay unanswered).
for (const lang of ['en', 'fa'] as const) {
  const passages = [...new Map(knowledge.withPages(lang).map((p) => [p.id, p])).values()];
  const follow: Row['cases'] = [];
  const page: Row['cases'] = [];
  split.sets[lang].tuning.forEach((q, i) => {
    const topic = knowledge.passage(lang, q.expected)?.topic;
    const others = passages.filter((p) => p.topic !== topic);
    const other = others[i % others.length]!;
    const routes = others.flatMap((p) => p.pages?.filter((r) => r.startsWith('/')).slice(0, 1) ?? []);
    const route = routes[i % routes.length]!;
    const c = { expected: [q.expected], query: q.query };
    follow.push({ c: { ...c, earlier: [{ expected: other.id, query: other.question }] }, lang });
    page.push({ c: { ...c, page: { module: route.split('/')[1]!, route } }, lang });
  });
  rows.push({ name: `switch-follow.${lang}`, cases: follow }, { name: `switch-page.${lang}`, cases: page });
}
for (const lang of ['en', 'fa'] as const)
  rows.push({
    name: `questions.${lang}`,
    cases: split.sets[lang].tuning.map((q) => ({ c: { expected: [q.expected], query: q.query }, lang })),
  });

function measure(reading: Reading, misses?: string[]): Map<string, Tally> {
  const tallies = new Map<string, Tally>();
  for (const row of rows) {
    if (only && !only.has(row.name.split('.')[0]!)) continue;
    const tally = { right: 0, total: 0 };
    for (const { c, lang } of row.cases) {
      const { right, sources, language } = answer(c, lang, reading);
      tally.total += 1;
      if (right) tally.right += 1;
      else
        misses?.push(
          `${row.name}: ${describeCase(c)} expected ${c.expected.join(' + ')}, ` +
            `answered ${sources.join(' + ') || OUT_OF_SCOPE}${language !== lang ? ` in ${language}` : ''}`,
        );
    }
    tallies.set(row.name, tally);
  }
  return tallies;
}

/** The mean share right over every row, each row counting the same. */
const objective = (tallies: Map<string, Tally>): number =>
  [...tallies.values()].reduce((sum, t) => sum + t.right / t.total, 0) / tallies.size;

const describe = (tallies: Map<string, Tally>): string =>
  [...tallies].map(([name, t]) => `${name} ${t.right}/${t.total}`).join(', ');

if (process.argv.includes('--grid')) {
  const results: Array<{ score: number; reading: Reading; detail: string }> = [];
  // Each setting of the grid: every combination of these values (the others as in DEFAULT_READING).
  const grid: Partial<Record<keyof Reading, number[]>> = process.env.GRID
    ? JSON.parse(process.env.GRID)
    : {
        clear: [0.8, 0.85],
        pageBoost: [0.4, 0.6, 0.8],
        pageCredit: [0.25, 0.5],
        followBoost: [0.5, 0.6, 0.7],
        topicShare: [0.7, 0.8, 0.9],
        followCredit: [0.3, 0.4, 0.5],
        decay: [0.6, 0.8, 1],
        shortWords: [4, 5, 6],
      };
  let settings: Reading[] = [DEFAULT_READING];
  for (const [name, values] of Object.entries(grid) as Array<[keyof Reading, number[]]>)
    settings = settings.flatMap((s) => values.map((value) => ({ ...s, [name]: value })));
  for (const reading of settings) {
    const tallies = measure(reading);
    results.push({ score: objective(tallies), reading, detail: describe(tallies) });
  }
  results.sort((a, b) => b.score - a.score);
  for (const r of results.slice(0, Number(process.env.TOP ?? 15)))
    process.stdout.write(`${r.score.toFixed(4)} ${JSON.stringify(r.reading)}\n  ${r.detail}\n`);
} else {
  const misses: string[] = [];
  const tallies = measure(DEFAULT_READING, misses);
  process.stdout.write(`defaults: ${objective(tallies).toFixed(4)}\n  ${describe(tallies)}\n`);
  if (process.argv.includes('--misses')) process.stdout.write(`\n${misses.join('\n')}\n`);
}
