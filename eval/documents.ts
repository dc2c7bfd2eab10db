// npm run eval -- documents: how well the assistant answers from the pages of uploaded documents.
// The bundled passages are laid out as the pages of one uploaded handbook per language, one passage
// per page as a PDF reads: a page's text, cited by the file's title and page number, without
// alternate questions. Three layouts: "faq" (the page shows the passage's heading above its answer),
// "prose" (the answer alone), "mixed" (every other passage stays an article, the rest are FAQ pages).
// Every evaluation question is asked of a knowledge base holding only those passages. Rows
// "documents" index the pages as the service indexes uploads (document-sentences.ts); rows
// "articles" are the control, the same pages indexed as articles are (every sentence a phrasing).
// Rows "pdf headed" and "pdf plain" write the FAQ and mixed layouts as a PDF, read it with the
// service's own extraction (pdf.js, headings by type size) and index its passages as uploads are:
// each page's heading set larger than the body, or in the body's type (their control). Rows
// "docx styled" and "docx plain" write the same layouts as a Word document (no pages: each
// passage's heading a paragraph before its answer), read by the service's DOCX extraction: the
// heading in Word's "heading 1" style, or in the body's style, which leaves the headings to be
// guessed from the lines (their control).
// Columns: the right passage ranked first by the search; answered with it first (not "I don't
// know"); out-of-scope questions refused; in the mixed layout, answered right for the questions a
// page answers and for those an article answers. "chosen on" rows: the older question set, on which
// the weight of a page's sentences was chosen; "held out": the fresh, unseen and sealed sets.
import { t } from '../src/core/i18n.js';
import {
  DEFAULT_RANKING,
  KnowledgeBase,
  loadOutside,
  loadPassages,
  loadThesaurus,
  type Passage,
} from '../src/modules/assistant/knowledge.js';
import { understand } from '../src/modules/assistant/understanding.js';
import { asKnowledgePassage, passageId } from '../src/modules/kb-files/document-index.js';
import { cleanText, extract } from '../src/modules/kb-files/extract.js';
import '../src/modules/kb-files/messages.js';
import { toPassages } from '../src/modules/kb-files/passages.js';
import { docx } from '../harness/docx.js';
import { pdfOfPages } from '../harness/pdf.js';
import { type Lang, OUT_OF_SCOPE, type Question, type QuestionFile, readQuestions } from './assistant/questions.js';

const LANGS: Lang[] = ['en', 'fa'];
const TITLE: Record<Lang, string> = { en: 'Member handbook', fa: 'راهنمای اعضا' };
type Layout = 'faq' | 'prose' | 'mixed';
/** Where a question's answer is: the ids of the passages that hold it. */
type AnswerOf = Map<string, string[]>;
// The older questions, on which the weighing of a page's sentences was chosen, and the later sets,
// held out from that choice.
const GROUPS: Array<[string, QuestionFile[]]> = [
  ['chosen on', ['questions']],
  ['held out', ['fresh', 'unseen', 'sealed']],
];

/**
 * The bundled passages of a language as the pages of one document ("mixed": every other passage
 * stays an article, the rest become pages), and where each passage id's answer now is.
 */
function handbook(lang: Lang, layout: Layout, asDocument: boolean): { passages: Passage[]; answerOf: AnswerOf } {
  const answerOf: AnswerOf = new Map();
  const passages = loadPassages()
    .filter((p) => p.lang === lang)
    .map((p, i): Passage => {
      if (layout === 'mixed' && i % 2 === 0) {
        answerOf.set(p.id, [p.id]);
        return p;
      }
      const id = `file-1.${i + 1}`;
      answerOf.set(p.id, [id]);
      return {
        id,
        lang,
        topic: 'file-1',
        question: t(lang, 'kb_files.cite.page', { title: TITLE[lang], page: i + 1 }),
        alternates: [],
        answer: layout === 'prose' ? p.answer : `${p.question}\n\n${p.answer}`,
        ...(asDocument ? { document: true } : {}),
      };
    });
  return { passages, answerOf };
}

/**
 * The handbook of a language split for an uploaded file: "faq" puts every passage in the file,
 * "mixed" keeps every other passage an article (answered by itself) and puts the rest in the file.
 */
function fileEntries(
  lang: Lang,
  layout: 'faq' | 'mixed',
): { articles: Passage[]; entries: Passage[]; answerOf: AnswerOf } {
  const answerOf: AnswerOf = new Map();
  const articles: Passage[] = [];
  const entries: Passage[] = [];
  loadPassages()
    .filter((p) => p.lang === lang)
    .forEach((p, i) => {
      if (layout === 'mixed' && i % 2 === 0) {
        answerOf.set(p.id, [p.id]);
        articles.push(p);
      } else entries.push(p);
    });
  return { articles, entries, answerOf };
}

/** The file's bytes read by the service's extraction and cut into passages, as an upload is. */
async function readAsUpload(lang: Lang, kind: 'pdf' | 'docx', bytes: Buffer) {
  const file = { id: 1, title: TITLE[lang], lang };
  const read = toPassages((await extract(kind, new Uint8Array(bytes))).sections);
  return {
    read,
    indexed: read.map((p) => asKnowledgePassage(file, p)),
    idOf: (position: number) => passageId(file.id, position),
  };
}

/**
 * The same handbook as a PDF read by the service's own extraction (pdf.js, pdf-headings.ts,
 * passages.ts) and indexed as uploads are: each page shows the passage's heading above its answer,
 * set larger than the body ("headed") or in the body's type (the control).
 */
export async function pdfHandbook(
  lang: Lang,
  layout: 'faq' | 'mixed',
  headed: boolean,
): Promise<{ passages: Passage[]; answerOf: AnswerOf }> {
  const { articles, entries, answerOf } = fileEntries(lang, layout);
  const pages = entries.map((p) => `${headed ? '# ' : ''}${p.question}\n\n${p.answer}`);
  const { read, indexed, idOf } = await readAsUpload(lang, 'pdf', pdfOfPages(pages));
  entries.forEach((entry, i) => {
    answerOf.set(
      entry.id,
      read.filter((p) => p.page === i + 1).map((p) => idOf(p.position)),
    );
  });
  return { passages: [...articles, ...indexed], answerOf };
}

/**
 * The same handbook as a Word document read by the service's DOCX extraction (docx-sections.ts) and
 * indexed as uploads are: each passage's heading a paragraph in Word's "heading 1" style ("styled")
 * or in the body's (the control), then its answer's paragraphs. A Word document has no pages, so a
 * question's answer is every passage read from its entry (a passage is cut from one section, so it
 * holds one entry's text): found by its heading, or by its text in the entry's answer.
 */
export async function docxHandbook(
  lang: Lang,
  layout: 'faq' | 'mixed',
  styled: boolean,
): Promise<{ passages: Passage[]; answerOf: AnswerOf }> {
  const { articles, entries, answerOf } = fileEntries(lang, layout);
  const paragraphs = entries.flatMap((p) => [
    { text: p.question, style: styled ? 'Heading1' : 'Normal' },
    ...p.answer.split(/\n\s*\n/).map((text) => ({ text, style: 'Normal' })),
  ]);
  const { read, indexed, idOf } = await readAsUpload(lang, 'docx', docx(paragraphs));
  const flat = (text: string) => cleanText(text).replace(/\s+/g, ' ');
  for (const entry of entries) {
    const answer = flat(entry.answer);
    const heading = flat(entry.question);
    answerOf.set(
      entry.id,
      read
        .filter((p) => p.heading === heading || (flat(p.body) !== heading && answer.includes(flat(p.body))))
        .map((p) => idOf(p.position)),
    );
  }
  return { passages: [...articles, ...indexed], answerOf };
}

const share = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1).padStart(5)} % (${part}/${whole})`;

/** Per kind of question, how many there are and how many went each way. */
interface Tally {
  answerable: number;
  ranked: number;
  right: number;
  pageQuestions: number;
  pageRight: number;
  outOfScope: number;
  refused: number;
}

function measure(knowledge: KnowledgeBase, lang: Lang, questions: Question[], answerOf: AnswerOf): Tally {
  const tally: Tally = {
    answerable: 0,
    ranked: 0,
    right: 0,
    pageQuestions: 0,
    pageRight: 0,
    outOfScope: 0,
    refused: 0,
  };
  for (const q of questions) {
    const understood = understand(knowledge, { message: q.query });
    const first = understood.language === lang ? understood.passages[0]?.id : undefined;
    if (q.expected === OUT_OF_SCOPE) {
      tally.outOfScope += 1;
      if (first === undefined) tally.refused += 1;
      continue;
    }
    const answers = answerOf.get(q.expected)!;
    const onPage = answers.some((id) => id.startsWith('file-'));
    tally.answerable += 1;
    if (onPage) tally.pageQuestions += 1;
    if (first !== undefined && answers.includes(first)) {
      tally.right += 1;
      if (onPage) tally.pageRight += 1;
    }
    const ranked = knowledge.match(q.query, lang, 1).hits[0]?.passage.id;
    if (ranked !== undefined && answers.includes(ranked)) tally.ranked += 1;
  }
  return tally;
}

export default async function run(): Promise<number> {
  const thesaurus = loadThesaurus();
  const outside = loadOutside();
  const lines = [
    'lang group     layout indexed as    ranked first         answered, right first   out-of-scope said so  mixed: answered right, questions of a page / of an article',
  ];
  for (const lang of LANGS)
    for (const [group, files] of GROUPS) {
      const questions: Question[] = files.flatMap((file) => readQuestions(lang, file));
      const variants: Array<[Layout, string, () => Promise<{ passages: Passage[]; answerOf: AnswerOf }>]> = [];
      for (const layout of ['faq', 'prose', 'mixed'] as const)
        for (const asDocument of [true, false])
          variants.push([
            layout,
            asDocument ? 'documents' : 'articles',
            async () => handbook(lang, layout, asDocument),
          ]);
      for (const layout of ['faq', 'mixed'] as const)
        for (const headed of [true, false])
          variants.push([layout, headed ? 'pdf headed' : 'pdf plain', () => pdfHandbook(lang, layout, headed)]);
      for (const layout of ['faq', 'mixed'] as const)
        for (const styled of [true, false])
          variants.push([layout, styled ? 'docx styled' : 'docx plain', () => docxHandbook(lang, layout, styled)]);
      for (const [layout, label, build] of variants) {
        const { passages, answerOf } = await build();
        const t = measure(new KnowledgeBase(passages, thesaurus, DEFAULT_RANKING, outside), lang, questions, answerOf);
        const mixed =
          layout === 'mixed'
            ? `${share(t.pageRight, t.pageQuestions)} / ${share(t.right - t.pageRight, t.answerable - t.pageQuestions)}`
            : '';
        lines.push(
          `${lang}   ${group.padEnd(9)} ${layout.padEnd(6)} ${label.padEnd(11)} ` +
            `${share(t.ranked, t.answerable).padEnd(20)} ${share(t.right, t.answerable).padEnd(23)} ${share(t.refused, t.outOfScope).padEnd(21)} ${mixed}`,
        );
      }
    }
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
