// npm run eval -- documents: how well the assistant finds the page of an uploaded document that
// answers a member's question. The bundled passages are laid out as the pages of one uploaded
// handbook per language (one passage per page, as a PDF reads: a page's text, cited by the file's
// title and page number, no heading and no alternate questions) and every evaluation question with
// an expected passage (the questions, fresh, unseen and sealed sets: none was written or tuned for
// documents) is asked of a knowledge base holding only those pages. Right first: the expected
// passage's page is the first source.
// Two layouts of a page: "faq" (the page shows the passage's heading above its answer, as a FAQ
// exported to PDF does) and "prose" (the answer alone). Two indexings, each row beside its control:
// "as documents" (how the service indexes uploads: a page's sentences found by their words only) and
// "as articles" (the same pages indexed as articles are, each sentence also a trigram phrasing).
// Out-of-scope questions of the same sets: the share answered "I don't know".
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
import '../src/modules/kb-files/messages.js';
import { type Lang, OUT_OF_SCOPE, type Question, readQuestions } from './assistant/questions.js';

const LANGS: Lang[] = ['en', 'fa'];
const TITLE: Record<Lang, string> = { en: 'Member handbook', fa: 'راهنمای اعضا' };
type Layout = 'faq' | 'prose';

/** The bundled passages of a language as the pages of one document; the page of each passage id. */
function handbook(lang: Lang, layout: Layout, asDocument: boolean): { pages: Passage[]; pageOf: Map<string, string> } {
  const pageOf = new Map<string, string>();
  const pages = loadPassages()
    .filter((p) => p.lang === lang)
    .map((p, i): Passage => {
      const id = `file-1.${i + 1}`;
      pageOf.set(p.id, id);
      return {
        id,
        lang,
        topic: 'file-1',
        question: t(lang, 'kb_files.cite.page', { title: TITLE[lang], page: i + 1 }),
        alternates: [],
        answer: layout === 'faq' ? `${p.question}\n\n${p.answer}` : p.answer,
        ...(asDocument ? { document: true } : {}),
      };
    });
  return { pages, pageOf };
}

const share = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1).padStart(5)} % (${part}/${whole})`;

export default async function run(): Promise<number> {
  const thesaurus = loadThesaurus();
  const outside = loadOutside();
  const lines = ['lang layout indexed as   ranked first         answered, right first   out-of-scope said so'];
  for (const lang of LANGS) {
    const questions: Question[] = (['questions', 'fresh', 'unseen', 'sealed'] as const).flatMap((file) =>
      readQuestions(lang, file),
    );
    for (const layout of ['faq', 'prose'] as const)
      for (const asDocument of [true, false]) {
        const { pages, pageOf } = handbook(lang, layout, asDocument);
        const knowledge = new KnowledgeBase(pages, thesaurus, DEFAULT_RANKING, outside);
        let right = 0;
        let ranked = 0;
        let answerable = 0;
        let refused = 0;
        let outOfScope = 0;
        for (const q of questions) {
          const understood = understand(knowledge, { message: q.query });
          const first = understood.language === lang ? understood.passages[0]?.id : undefined;
          if (q.expected === OUT_OF_SCOPE) {
            outOfScope += 1;
            if (first === undefined) refused += 1;
          } else {
            answerable += 1;
            if (first !== undefined && first === pageOf.get(q.expected)) right += 1;
            if (knowledge.match(q.query, lang, 1).hits[0]?.passage.id === pageOf.get(q.expected)) ranked += 1;
          }
        }
        lines.push(
          `${lang}   ${layout.padEnd(6)} ${(asDocument ? 'documents' : 'articles').padEnd(10)} ${share(ranked, answerable).padEnd(20)} ${share(right, answerable).padEnd(23)} ${share(refused, outOfScope)}`,
        );
      }
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
