// Reading the evaluation questions and their split (see split.ts and docs/performance.md,
// "Assistant quality"). questions.<lang>.txt is split into a tuning and a held-out half;
// fresh.<lang>.txt is a later set written before the next round of changes and never tuned on;
// unseen.<lang>.txt is a third such set, written before the third session's changes;
// tuning.<lang>.txt holds more questions that split.ts adds to the tuning half only;
// sealed.<lang>.txt is a fourth measured set, written in the fourth session by writers who saw only
// the passages' headings and answers (not the alternates, the thesaurus or any other question).
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
