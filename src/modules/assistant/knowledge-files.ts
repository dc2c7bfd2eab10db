// The knowledge base's files: question-and-answer passages in Markdown under
// assets/assistant/knowledge (one file per topic and language, each passage with an id line and
// alternate questions), the thesauri under assets/assistant/thesaurus and the questions outside the
// knowledge base's scope under assets/assistant/outside, read and checked at start.
import fs from 'node:fs';
import path from 'node:path';
import type { Locale } from '../../core/i18n.js';
import { assetsDir } from '../../paths.js';
import { queryTerms, tokenize } from './terms.js';

export interface Passage {
  /** Shared by the English and Persian versions of one passage: topic.slug. */
  id: string;
  lang: Locale;
  topic: string;
  question: string;
  /** Other ways members ask the same question: the passage's "<!-- also: ... -->" lines. */
  alternates: string[];
  answer: string;
  /**
   * The pages of the app the passage is about (its "<!-- pages: ... -->" line): module names
   * (wallet), route paths with :param placeholders (/investments/:id) or route names
   * (projects.show). A vague message asked on one of them leans to the passage (page-context.ts).
   */
  pages?: string[];
  /**
   * A page or section of an uploaded document: its body is prose, not an answer written for the
   * assistant, so its sentences are found by their words only and only its citation and heading
   * count as ways of asking it (knowledge-index.ts).
   */
  document?: boolean;
  /**
   * What a member usually asks after reading this passage (its "<!-- next: ... -->" line): the ids
   * of the passages of the next step, in any topic (after a cancellation, the time a refund takes).
   * A follow-up leans to them (vague-turns.ts).
   */
  next?: string[];
}

export class KnowledgeBaseError extends Error {
  override name = 'KnowledgeBaseError';
}

export const DEFAULT_KNOWLEDGE_DIR = path.join(assetsDir, 'assistant', 'knowledge');
export const DEFAULT_THESAURUS_DIR = path.join(assetsDir, 'assistant', 'thesaurus');
export const DEFAULT_OUTSIDE_DIR = path.join(assetsDir, 'assistant', 'outside');

/** Per language: questions no passage answers, asked the way members ask them (negative examples). */
export type Outside = Record<Locale, string[]>;

/** Per language: phrases members use (normalised tokens joined by one space) -> knowledge-base terms. */
export type Thesaurus = Record<Locale, Array<{ phrase: string; adds: string[] }>>;

const FILE_NAME = /^([a-z0-9-]+)\.(en|fa)\.md$/;
const ID_LINE = /^<!--\s*id:\s*([a-z0-9.-]+)\s*-->$/;
const ALSO_LINE = /^<!--\s*also:\s*(.+?)\s*-->$/;
const PAGES_LINE = /^<!--\s*pages:\s*(.+?)\s*-->$/;
const NEXT_LINE = /^<!--\s*next:\s*(.+?)\s*-->$/;

const commaList = (value: string): string[] =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/**
 * Passages of one Markdown file: each "## question" heading, an id comment, any number of
 * "<!-- also: another phrasing -->" comments, at most one "<!-- pages: wallet, /wallet/refunds -->"
 * and at most one "<!-- next: payments.refund-time -->" comment (hidden when the Markdown is
 * rendered), then the answer.
 */
export function parseKnowledgeFile(text: string, topic: string, lang: Locale, file: string): Passage[] {
  const passages: Passage[] = [];
  const sections = text.split(/^## /m).slice(1);
  for (const section of sections) {
    const [heading = '', ...rest] = section.split('\n');
    const question = heading.trim();
    const idLine = rest.findIndex((line) => line.trim() !== '');
    const match = idLine === -1 ? null : ID_LINE.exec(rest[idLine]!.trim());
    if (!match)
      throw new KnowledgeBaseError(
        `${file}: the passage "${question}" needs an id line such as <!-- id: ${topic}.some-slug --> under its heading`,
      );
    const alternates: string[] = [];
    let pages: string[] | undefined;
    let next: string[] | undefined;
    let body = idLine + 1;
    for (; body < rest.length; body += 1) {
      const line = rest[body]!.trim();
      const also = ALSO_LINE.exec(line);
      const pagesLine = PAGES_LINE.exec(line);
      const nextLine = NEXT_LINE.exec(line);
      if (also) alternates.push(also[1]!);
      else if (nextLine) {
        if (next)
          throw new KnowledgeBaseError(`${file}: the passage "${question}" has two next lines; list every step on one`);
        next = commaList(nextLine[1]!);
      } else if (pagesLine) {
        if (pages)
          throw new KnowledgeBaseError(
            `${file}: the passage "${question}" has two pages lines; list every page on one`,
          );
        pages = commaList(pagesLine[1]!);
      } else if (line !== '') break;
    }
    const answer = rest
      .slice(body)
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
    if (!answer) throw new KnowledgeBaseError(`${file}: the passage "${question}" has no answer text`);
    passages.push({
      id: match[1]!,
      lang,
      topic,
      question,
      alternates,
      answer,
      ...(pages ? { pages } : {}),
      ...(next ? { next } : {}),
    });
  }
  return passages;
}

export function loadPassages(dir: string = DEFAULT_KNOWLEDGE_DIR): Passage[] {
  if (!fs.existsSync(dir)) throw new KnowledgeBaseError(`the assistant's knowledge base folder ${dir} does not exist`);
  const passages: Passage[] = [];
  const seen = new Set<string>();
  for (const file of fs.readdirSync(dir).sort()) {
    const name = FILE_NAME.exec(file);
    if (!name) continue;
    const [, topic, lang] = name;
    for (const passage of parseKnowledgeFile(
      fs.readFileSync(path.join(dir, file), 'utf8'),
      topic!,
      lang as Locale,
      file,
    )) {
      const key = `${passage.lang}:${passage.id}`;
      if (seen.has(key)) throw new KnowledgeBaseError(`${file}: the id ${passage.id} is used twice`);
      seen.add(key);
      passages.push(passage);
    }
  }
  return passages;
}

/** The lines of <dir>/<lang>.txt per language, trimmed, without blank lines and # comments, with their line numbers; a missing file has none. */
function languageLines(dir: string): Array<{ lang: Locale; file: string; number: number; line: string }> {
  return (['en', 'fa'] as const).flatMap((lang) => {
    const file = path.join(dir, `${lang}.txt`);
    if (!fs.existsSync(file)) return [];
    return fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .map((raw, index) => ({ lang, file, number: index + 1, line: raw.trim() }))
      .filter(({ line }) => line !== '' && !line.startsWith('#'));
  });
}

/** Reads thesaurus/<lang>.txt: "kb words: variant, variant phrase" per line, # for comments. */
export function loadThesaurus(dir: string = DEFAULT_THESAURUS_DIR): Thesaurus {
  const thesaurus: Thesaurus = { en: [], fa: [] };
  for (const { lang, file, number, line } of languageLines(dir)) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new KnowledgeBaseError(`${file}:${number}: expected "words: variant, variant"`);
    const adds = queryTerms(line.slice(0, colon));
    for (const variant of line.slice(colon + 1).split(/[,،]/)) {
      const phrase = tokenize(variant).join(' ');
      if (phrase) thesaurus[lang].push({ phrase, adds });
    }
  }
  return thesaurus;
}

/**
 * Reads outside/<lang>.txt: one question a line that no passage answers (other companies'
 * services, tax, legal or personal financial advice, small talk...), # for comments. A message
 * closer to one of them than to any passage's phrasings is not answered with a passage.
 */
export function loadOutside(dir: string = DEFAULT_OUTSIDE_DIR): Outside {
  const outside: Outside = { en: [], fa: [] };
  for (const { lang, line } of languageLines(dir)) outside[lang].push(line);
  return outside;
}
