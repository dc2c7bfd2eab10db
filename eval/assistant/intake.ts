// Copies the writers' files of the later kinds (Finglish, conversations, page context, long
// messages, near-topic questions) into eval/assistant/ with a header naming where they came from,
// and drops, by rule and never by hand, a measured line that repeats a line of the assets (a
// heading, alternate or answer line of the knowledge base, a thesaurus line, a question outside the
// scope): such a line would be answered by the copy, not by retrieval. Run once per batch:
//   npx tsx eval/assistant/intake.ts <folder of the writers' files>
//     the first batch (2026-11-25), split once by split.ts into tuning and held-out halves;
//   npx tsx eval/assistant/intake.ts --sealed <folder>
//     the sealed batch (2026-11-26): <kind>.sealed.<lang>.txt and finglish.sealed.txt, never split
//     and never tuned on; a line that also repeats a line of the other batch's files is dropped.
// It prints what it dropped; docs/performance.md records it.
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_THESAURUS_DIR, loadOutside, loadPassages } from '../../src/modules/assistant/knowledge.js';
import { here, KINDS, type Lang, readCases, words } from './questions.js';

type Batch = 'split' | 'sealed';

const WRITTEN: Record<Batch, string> = { split: '2026-11-25', sealed: '2026-11-26' };
const WHO: Record<Batch, string> = {
  split:
    "written by independent writers who saw only the passages' headings and answers, the page list (pages.md) and " +
    "the writers' rules, never the knowledge base's alternate questions, the thesaurus, the questions outside the scope, another question file or any code",
  sealed:
    "written by three other independent writers (English; Persian; Finglish) who saw only the passages' headings and " +
    'answers, the page list (pages.md) and a page of rules, never the alternate questions, the thesaurus, the questions ' +
    'outside the scope, another question file, the misses of any round or any code',
};
const AFTER: Record<Batch, string> = {
  split: 'Never edited by hand; split once (split.ts).',
  sealed: 'Never edited by hand, never split, never tuned on: measured as a set of its own, its misses never printed.',
};

interface Target {
  raw: string;
  out: string;
  /** The assets a line must not repeat: the language's, or both for Finglish (English words inside). */
  langs: Lang[];
  header: string[];
}

/** The writers' files of a batch and where each goes. */
function targets(batch: Batch): Target[] {
  const sealed = batch === 'sealed';
  const out = (kind: string, lang: Lang) => (sealed ? `${kind}.sealed.${lang}.txt` : `${kind}.${lang}.txt`);
  return [
    ...(sealed ? [''] : (['a', 'b'] as const)).map((writer) => ({
      raw: sealed ? 'finglish.txt' : `finglish-${writer}.txt`,
      out: sealed ? 'finglish.sealed.txt' : `finglish.${writer}.txt`,
      langs: ['fa', 'en'] as Lang[],
      header: [
        `Persian typed in Latin letters ("Finglish")${sealed ? '' : `, writer ${writer} of two`}, measured as Persian.`,
        '"<expected passage id> | <question>"; "none": no passage answers it (small talk and near-topic questions).',
      ],
    })),
    ...(['en', 'fa'] as const).flatMap((lang) => [
      {
        raw: `conversations.${lang}.txt`,
        out: out('conversations', lang),
        langs: [lang],
        header: [
          `Conversations (${lang}) of two or three turns whose last turn only makes sense with the earlier ones.`,
          'Each starts with a line "---"; one "<passage id> | <message>" line per user turn; only the last turn is measured.',
        ],
      },
      {
        raw: `page.${lang}.txt`,
        out: out('page', lang),
        langs: [lang],
        header: [
          `Questions (${lang}) asked on a page of the app, vague without it (the pages: pages.md).`,
          '"<passage id> | <module> | <route> | <question>"; the chat gets {"page": {"module", "route"}} as its context.',
        ],
      },
      {
        raw: `long.${lang}.txt`,
        out: out('long', lang),
        langs: [lang],
        header: [
          `Long messages (${lang}): a greeting, a story and the question somewhere inside, or two questions.`,
          '"<passage id>[,<second passage id>] | <message>"; with two ids both passages must be in the answer.',
        ],
      },
      {
        raw: `neartopic.${lang}.txt`,
        out: out('neartopic', lang),
        langs: [lang],
        header: [
          `Near-topic questions (${lang}) in the platform's own words that no passage answers.`,
          '"none | <question>": the right answer is "I don\'t know" with the offer of a ticket.',
        ],
      },
    ]),
  ];
}

/** Every asset line of a language, as words one space apart (each heading, alternate and answer line on its own). */
function assetLines(lang: Lang): string[] {
  const knowledge = loadPassages()
    .filter((p) => p.lang === lang)
    .flatMap((p) => [p.question, ...p.alternates, ...p.answer.split('\n')]);
  const thesaurus = fs.readFileSync(path.join(DEFAULT_THESAURUS_DIR, `${lang}.txt`), 'utf8').split('\n');
  return [...knowledge, ...thesaurus, ...loadOutside()[lang]].map(words);
}

/** The measured text of a raw line: the part after the last " | ". */
const measuredText = (line: string): string => line.slice(line.lastIndexOf(' | ') + 3);

/** Every turn of the first batch's cases (split and tuning-only) in a language, as words. */
function firstBatchLines(lang: Lang): string[] {
  return KINDS.flatMap((kind) => [...readCases(kind, lang), ...readCases(kind, lang, 'tuning')])
    .flatMap((c) => [c.query, ...(c.earlier ?? []).map((turn) => turn.query)])
    .map(words);
}

function intake(rawDir: string, batch: Batch): void {
  const assets = { en: assetLines('en'), fa: assetLines('fa') };
  if (batch === 'sealed') for (const lang of ['en', 'fa'] as const) assets[lang].push(...firstBatchLines(lang));
  const repeats = (text: string, langs: Lang[]): boolean =>
    langs.some((lang) => assets[lang].some((line) => line.includes(words(text))));
  for (const target of targets(batch)) {
    // A writer's own comment lines are not carried over: the header says what the file is.
    const lines = fs
      .readFileSync(path.join(rawDir, target.raw), 'utf8')
      .split('\n')
      .filter((l) => !l.trim().startsWith('#'));
    const kept: string[] = [];
    const dropped: string[] = [];
    if (target.raw.startsWith('conversations.')) {
      // A conversation is kept or dropped whole, by its measured (last) turn.
      const blocks = lines.join('\n').split(/^---$/m).slice(1);
      for (const block of blocks) {
        const turns = block.split('\n').filter((l) => l.trim() !== '');
        if (repeats(measuredText(turns.at(-1)!), target.langs)) dropped.push(turns.join(' / '));
        else kept.push('---', ...turns);
      }
    } else {
      for (const line of lines.filter((l) => l.trim() !== '')) {
        if (repeats(measuredText(line), target.langs)) dropped.push(line);
        else kept.push(line);
      }
    }
    const header = [
      ...target.header,
      `Copied from the writers' ${target.raw} (${WRITTEN[batch]}; ${WHO[batch]}) by eval/assistant/intake.ts,`,
      `which dropped ${dropped.length} line(s) repeating an asset line${batch === 'sealed' ? " or a line of the first batch's files" : ''}. ${AFTER[batch]}`,
    ].map((l) => `# ${l}`);
    fs.writeFileSync(path.join(here, target.out), `${[...header, ...kept].join('\n')}\n`);
    process.stdout.write(
      `${target.out}: ${kept.filter((l) => l !== '---').length} lines kept, ${dropped.length} dropped\n`,
    );
    for (const line of dropped) process.stdout.write(`  dropped: ${line}\n`);
  }
  if (batch === 'sealed') return; // its writers had the same page list
  const pages = fs.readFileSync(path.join(rawDir, 'pages.md'), 'utf8');
  const note =
    `<!-- The page list the writers were given (${WRITTEN.split}), copied by eval/assistant/intake.ts; the ` +
    `knowledge base's pages lines come from it and from the passages. -->`;
  fs.writeFileSync(path.join(here, 'pages.md'), `${note}\n${pages}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sealed = process.argv[2] === '--sealed';
  const rawDir = process.argv[sealed ? 3 : 2];
  if (!rawDir) throw new Error("usage: npx tsx eval/assistant/intake.ts [--sealed] <folder of the writers' files>");
  intake(rawDir, sealed ? 'sealed' : 'split');
}
