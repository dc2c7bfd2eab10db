// Reading the evaluation questions and their split (see split.ts and docs/performance.md,
// "Assistant quality"). questions.<lang>.txt is split into a tuning and a held-out half;
// fresh.<lang>.txt is a later set written before the next round of changes and never tuned on;
// unseen.<lang>.txt is a third such set, written before the third session's changes;
// tuning.<lang>.txt holds more questions that split.ts adds to the tuning half only;
// sealed.<lang>.txt is a fourth measured set, written in the fourth session by writers who saw only
// the passages' headings and answers (not the alternates, the thesaurus or any other question).
// The later kinds (readCases): Finglish, conversations, page-context questions, long messages and
// near-topic questions, each split once into its own tuning and held-out halves (split.ts), and a
// sealed batch per kind written later by other writers, measured on its own and never split.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { normalizeText } from '../../src/modules/assistant/text.js';

export type Lang = 'en' | 'fa';
/** A question and the passage id that answers it; "none" when no passage does. */
export interface Question {
  expected: string;
  query: string;
}
export interface Split {
  seed: number;
  method: string;
  sets: Record<Lang, { tuning: Question[]; heldout: Question[] }>;
  /** The later kinds, per language (Finglish is Persian only). */
  kinds: Record<Kind, Partial<Record<Lang, Halves>>>;
  kindsMethod: string;
}

/**
 * The kinds of message members write, each its own set: Persian in Latin letters, the last turn of
 * a conversation, a question asked on a page, a long or two-question message, a near-topic question
 * no passage answers.
 */
export const KINDS = ['finglish', 'conversations', 'page', 'long', 'neartopic'] as const;
export type Kind = (typeof KINDS)[number];

/** One measured message of a later kind. */
export interface Case {
  /** The passages the message needs (two for a two-question message), or ["none"]. */
  expected: string[];
  /** The measured message (a conversation's last turn). */
  query: string;
  /** A conversation's earlier user turns, oldest first, each with the passage it asks for. */
  earlier?: Array<{ expected: string; query: string }>;
  /** The page the message is asked on (the chat's context.page). */
  page?: { module: string; route: string };
}
export interface Halves {
  tuning: Case[];
  heldout: Case[];
}

export const OUT_OF_SCOPE = 'none';
export const here = path.dirname(fileURLToPath(import.meta.url));
export const SPLIT_FILE = path.join(here, 'split.json');

export type QuestionFile = 'questions' | 'fresh' | 'unseen' | 'sealed' | 'tuning';

export function readQuestions(lang: Lang, file: QuestionFile = 'questions'): Question[] {
  const text = fs.readFileSync(path.join(here, `${file}.${lang}.txt`), 'utf8');
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const bar = line.indexOf(' | ');
      if (bar <= 0) throw new Error(`${file}.${lang}.txt: expected "<passage id> | <question>", got: ${line}`);
      return { expected: line.slice(0, bar).trim(), query: line.slice(bar + 3).trim() };
    });
}

export function readSplit(): Split {
  return JSON.parse(fs.readFileSync(SPLIT_FILE, 'utf8')) as Split;
}

/** Words only, one space apart and padded: punctuation, case, ZWNJ and Arabic letters cannot hide a copy. */
export const words = (text: string): string =>
  ` ${normalizeText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .join(' ')} `;

/** The files of a kind in a language: Finglish has two writers' files and no English. */
export function kindFiles(kind: Kind, lang: Lang): string[] {
  if (kind === 'finglish') return lang === 'fa' ? ['finglish.a.txt', 'finglish.b.txt'] : [];
  return [`${kind}.${lang}.txt`];
}

const dataLines = (file: string): string[] =>
  fs
    .readFileSync(path.join(here, file), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));

/** Splits "<a> | <b> | …" into exactly `parts` fields (the last one keeps any further bars). */
function fields(line: string, parts: number, file: string): string[] {
  const out: string[] = [];
  let rest = line;
  for (let i = 1; i < parts; i += 1) {
    const bar = rest.indexOf(' | ');
    if (bar <= 0) throw new Error(`${file}: expected ${parts} fields separated by " | ", got: ${line}`);
    out.push(rest.slice(0, bar).trim());
    rest = rest.slice(bar + 3);
  }
  return [...out, rest.trim()];
}

/**
 * The kind's tuning-only file in a language (written after the split, appended to the tuning half by
 * split.ts and never split): `<kind>.tuning.<lang>.txt`, `finglish.tuning.txt` for Finglish.
 */
export function kindTuningFiles(kind: Kind, lang: Lang): string[] {
  const file = kind === 'finglish' ? (lang === 'fa' ? 'finglish.tuning.txt' : undefined) : `${kind}.tuning.${lang}.txt`;
  return file && fs.existsSync(path.join(here, file)) ? [file] : [];
}

/**
 * The kind's sealed file in a language (a later batch by other writers, never split and never tuned
 * on: measured as a set of its own, its misses never printed): `<kind>.sealed.<lang>.txt`,
 * `finglish.sealed.txt` for Finglish.
 */
export function kindSealedFiles(kind: Kind, lang: Lang): string[] {
  const file = kind === 'finglish' ? (lang === 'fa' ? 'finglish.sealed.txt' : undefined) : `${kind}.sealed.${lang}.txt`;
  return file && fs.existsSync(path.join(here, file)) ? [file] : [];
}

/**
 * The cases of a kind in a language, in file order: the split ones, with 'tuning' the tuning-only
 * ones, with 'sealed' the sealed batch's.
 */
export function readCases(kind: Kind, lang: Lang, part: 'split' | 'tuning' | 'sealed' = 'split'): Case[] {
  const files = { split: kindFiles, tuning: kindTuningFiles, sealed: kindSealedFiles }[part](kind, lang);
  return files.flatMap((file) => parseCases(kind, dataLines(file), file));
}

/** The cases of a kind's data lines (trimmed, comments out), in order; `file` names them in errors. */
export function parseCases(kind: Kind, lines: string[], file: string): Case[] {
  if (kind === 'conversations') {
    const cases: Case[] = [];
    let turns: Array<{ expected: string; query: string }> = [];
    const close = () => {
      if (turns.length === 0) return;
      const last = turns.at(-1)!;
      cases.push({ expected: [last.expected], query: last.query, earlier: turns.slice(0, -1) });
      turns = [];
    };
    for (const line of lines) {
      if (line === '---') close();
      else {
        const [expected, query] = fields(line, 2, file);
        turns.push({ expected: expected!, query: query! });
      }
    }
    close();
    return cases;
  }
  if (kind === 'page')
    return lines.map((line) => {
      const [expected, module, route, query] = fields(line, 4, file);
      return { expected: [expected!], query: query!, page: { module: module!, route: route! } };
    });
  return lines.map((line) => {
    const [expected, query] = fields(line, 2, file);
    return { expected: expected!.split(',').map((id) => id.trim()), query: query! };
  });
}

/** A case as a miss report names it: the question, its page and the questions before it. */
export function describeCase(c: Case): string {
  const page = c.page ? ` on ${c.page.route}` : '';
  const earlier = c.earlier ? ` after ${c.earlier.map((t) => `"${t.query}"`).join(', ')}` : '';
  return `"${c.query}"${page}${earlier}`;
}
