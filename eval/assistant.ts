// npm run eval -- assistant [--misses tuning,older|none] [--only sets|kinds]: how well the offline
// assistant picks passages, per language and per question set (docs/performance.md, "Assistant
// quality"), then per kind of message members write (eval/assistant/kinds.ts: Finglish,
// conversations, page context, long messages, near-topic questions, each through the chat itself).
// The held-out halves and the "fresh", "unseen" and "sealed" sets are measured but their misses are
// never printed, whatever --misses says, so nobody tunes on them.
// The knowledge base is read from the database as the service reads it (eval/assistant/store.ts).
// Each question goes through the chat's own understanding of a message (understand(): its language,
// retrieval and answer choice); an answer in the other language counts as a miss.
//   top-1      the answer's first passage is the expected one
//   anywhere   the expected passage is among the passages the answer uses
//   said so    an out-of-scope question got "I don't have an answer" (no passage)
//   no answer  an in-scope question got "I don't have an answer" (counted as a miss in top-1)
import type { KnowledgeBase } from '../src/modules/assistant/knowledge.js';
import { understand } from '../src/modules/assistant/understanding.js';
import { PARAPHRASES } from './assistant/paraphrases.js';
import { storeKnowledgeBase } from './assistant/store.js';
import { measureKinds } from './assistant/kinds.js';
import { OUT_OF_SCOPE, readQuestions, readSplit, type Lang, type Question } from './assistant/questions.js';

const SET_NAMES = ['heldout', 'tuning', 'older', 'fresh', 'unseen', 'sealed'] as const;
type SetName = (typeof SET_NAMES)[number];
const NEVER_SHOWN: ReadonlySet<SetName> = new Set(['heldout', 'fresh', 'unseen', 'sealed']);

interface Outcome {
  question: Question;
  sources: string[];
}

const percent = (part: number, whole: number): string =>
  whole === 0 ? '   —' : `${((100 * part) / whole).toFixed(1).padStart(5)} %`;

function evaluate(knowledge: KnowledgeBase, lang: Lang, questions: Question[]): Outcome[] {
  return questions.map((question) => {
    const understood = understand(knowledge, { message: question.query });
    // An answer in the other language is no answer to the member.
    const sources = understood.language === lang ? understood.passages.map((p) => p.id) : [`(${understood.language})`];
    return { question, sources };
  });
}

function checkSplit(lang: Lang, sets: { tuning: Question[]; heldout: Question[] }): void {
  const key = (q: Question) => `${q.expected} | ${q.query}`;
  const inSplit = [...sets.tuning, ...sets.heldout].map(key).sort();
  const inFile = [...readQuestions(lang), ...readQuestions(lang, 'tuning')].map(key).sort();
  if (JSON.stringify(inSplit) !== JSON.stringify(inFile)) {
    throw new Error(
      `eval/assistant/split.json no longer matches questions.${lang}.txt and tuning.${lang}.txt: the split is made once; questions are not edited after it`,
    );
  }
}

export default async function run(args: string[]): Promise<number> {
  const missesFlag = args.indexOf('--misses');
  const showMisses = new Set(missesFlag === -1 ? ['tuning', 'older'] : (args[missesFlag + 1] ?? '').split(','));
  const onlyFlag = args.indexOf('--only');
  const only = onlyFlag === -1 ? undefined : args[onlyFlag + 1];
  const split = readSplit();
  const started = performance.now();
  const lines = ['lang set      questions  top-1     anywhere   no answer  out-of-scope said so'];
  const missLines: string[] = [];
  // The articles of the database, as the service reads them (eval/assistant/store.ts).
  const knowledge = await storeKnowledgeBase();
  for (const lang of only === 'kinds' ? [] : (['en', 'fa'] as const)) {
    checkSplit(lang, split.sets[lang]);
    const sets: Record<SetName, Question[]> = {
      heldout: split.sets[lang].heldout,
      tuning: split.sets[lang].tuning,
      older: PARAPHRASES.filter((p) => p.lang === lang),
      fresh: readQuestions(lang, 'fresh'),
      unseen: readQuestions(lang, 'unseen'),
      sealed: readQuestions(lang, 'sealed'),
    };
    for (const name of SET_NAMES) {
      const outcomes = evaluate(knowledge, lang, sets[name]);
      const inScope = outcomes.filter((o) => o.question.expected !== OUT_OF_SCOPE);
      const outOfScope = outcomes.filter((o) => o.question.expected === OUT_OF_SCOPE);
      const top1 = inScope.filter((o) => o.sources[0] === o.question.expected).length;
      const anywhere = inScope.filter((o) => o.sources.includes(o.question.expected)).length;
      const saidSo = outOfScope.filter((o) => o.sources.length === 0).length;
      const noAnswer = inScope.filter((o) => o.sources.length === 0).length;
      lines.push(
        `${lang}   ${name.padEnd(8)} ${String(outcomes.length).padStart(5)}     ${percent(top1, inScope.length)}   ${percent(anywhere, inScope.length)}   ${String(noAnswer).padStart(5)}      ${outOfScope.length === 0 ? '   —' : `${percent(saidSo, outOfScope.length)} (${saidSo}/${outOfScope.length})`}`,
      );
      if (!showMisses.has(name) || NEVER_SHOWN.has(name)) continue;
      for (const o of outcomes) {
        const right =
          o.question.expected === OUT_OF_SCOPE ? o.sources.length === 0 : o.sources[0] === o.question.expected;
        if (!right)
          missLines.push(
            `${lang} ${name}: "${o.question.query}" expected ${o.question.expected}, answered ${o.sources.join(' + ') || OUT_OF_SCOPE}`,
          );
      }
    }
  }
  if (only !== 'sets') {
    const kinds = await measureKinds(split, showMisses.has('tuning'));
    lines.push('', ...kinds.lines);
    missLines.push(...kinds.misses);
  }
  process.stdout.write(`${lines.join('\n')}\n(seed ${split.seed}; ${Math.round(performance.now() - started)} ms)\n`);
  if (missLines.length > 0) process.stdout.write(`\nmisses:\n${missLines.join('\n')}\n`);
  return 0;
}
