// npm run bench -- knowledge [--articles N] [--no-servers] [--duration S] [--rounds R] [--warmup S]:
// a knowledge base of N generated articles per language (default 2,000) besides the bundled ones,
// in a scratch database (PostgreSQL when DATABASE_URL is set). In process: how long the index of
// the store takes to build and how much memory it holds, a search's p50/p99, and one article's
// re-index. Then two server processes on that database: time to /health (the index is built
// before the server listens), the chat at 16 connections beside the client's ceiling (target p99
// < 30 ms), and how long an edit on one instance takes to reach the other's search (target < 2 s).
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { Kysely } from 'kysely';
import { scratchDatabase } from '../harness/database.js';
import { userWithToken } from '../harness/users.js';
import { percentile } from '../src/core/percentile.js';
import type { Database } from '../src/db/schema.js';
import { loadPassages } from '../src/modules/assistant/knowledge.js';
import { articleSource, knowledgeFromStore, passageOf, seedWhenEmpty } from '../src/modules/kb/knowledge-feed.js';
import type { ArticleRecord } from '../src/modules/kb/repository.js';
import { writeArticle } from '../src/modules/kb/service.js';
import { startServerProcess } from './lib/server.js';
import { CASE_ARGS, caseOptions, ensureWrk, measureCase, printSummary, startCeiling } from './lib/wrk.js';

const QUESTIONS = [
  'How long does a refund take?',
  'چطور تیکت پشتیبانی ثبت کنم؟',
  'my paymnt failed',
  'ramzamo yadam rafte',
];

/** A deterministic word source: the bundled passages' words in each language. */
function wordsOf(lang: 'en' | 'fa'): string[] {
  const text = loadPassages()
    .filter((p) => p.lang === lang)
    .map((p) => `${p.question} ${p.answer}`)
    .join(' ');
  return [...new Set(text.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 2))];
}

function generator(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  return (words: string[], count: number) =>
    Array.from({ length: count }, () => words[Math.floor(next() * words.length)]).join(' ');
}

async function generate(db: Kysely<Database>, perLanguage: number): Promise<void> {
  const phrase = generator(20261125);
  for (const lang of ['en', 'fa'] as const) {
    const words = wordsOf(lang);
    for (let start = 0; start < perLanguage; start += 500)
      await db.transaction().execute(async (trx) => {
        for (let i = start; i < Math.min(perLanguage, start + 500); i += 1)
          await writeArticle(
            trx,
            null,
            undefined,
            {
              key: `generated-${i % 50}.article-${i}`,
              lang,
              slug: `generated-${i}`,
              title: `${phrase(words, 7)}?`,
              body: `${phrase(words, 40)}. ${phrase(words, 30)}.`,
              questions: [phrase(words, 6), phrase(words, 5)],
              pages: [],
              category: null,
              tags: [],
              status: 'published',
            },
            'create',
          );
      });
  }
}

const ascending = (values: number[]) => [...values].sort((a, b) => a - b);
const ms = (n: number | null) => `${(n ?? Number.NaN).toFixed(2)} ms`;

export default async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { ...CASE_ARGS, articles: { type: 'string' }, 'no-servers': { type: 'boolean' } },
  });
  const perLanguage = Number(values.articles ?? 2000);
  const url = process.env.DATABASE_URL;
  const out = (line: string) => process.stdout.write(`${line}\n`);

  // In process, on a database of its own.
  const store = await scratchDatabase({ dialect: url ? 'postgres' : 'sqlite', url, label: 'bench' });
  try {
    await seedWhenEmpty(store.db);
    let started = performance.now();
    await generate(store.db, perLanguage);
    out(
      `generated ${perLanguage} articles per language in ${((performance.now() - started) / 1000).toFixed(1)} s (${store.handle.dialect})`,
    );
    (globalThis as { gc?: () => void }).gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    started = performance.now();
    const { knowledge } = await knowledgeFromStore(store.db);
    const built = performance.now() - started;
    (globalThis as { gc?: () => void }).gc?.();
    const heap = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
    const gcNote = (globalThis as { gc?: unknown }).gc ? '' : ' (run with node --expose-gc for a settled figure)';
    out(
      `index of ${knowledge.count('en')} + ${knowledge.count('fa')} passages: built in ${ms(built)} ` +
        `(reading the store included), heap +${heap.toFixed(0)} MB${gcNote}`,
    );
    const searches: number[] = [];
    for (let round = 0; round < 50; round += 1)
      for (const q of QUESTIONS) {
        const t = performance.now();
        knowledge.match(q, /[\u0600-\u06FF]/.test(q) ? 'fa' : 'en', 3);
        searches.push(performance.now() - t);
      }
    const bySpeed = ascending(searches);
    out(`search (KnowledgeBase.match): p50 ${ms(percentile(bySpeed, 0.5))}, p99 ${ms(percentile(bySpeed, 0.99))}`);
    const updates: number[] = [];
    const sample = knowledge.passage('en', 'generated-7.article-7');
    for (let i = 0; i < 50 && sample; i += 1) {
      const article = {
        key: sample.id,
        lang: 'en',
        title: `${sample.question} ${i}`,
        questions: sample.alternates,
        body: sample.answer,
        pages: [],
      };
      const t = performance.now();
      knowledge.add(articleSource(sample.id, 'en'), [passageOf(article as unknown as ArticleRecord)]);
      updates.push(performance.now() - t);
    }
    if (updates.length > 0)
      out(`one article re-indexed: p50 ${ms(percentile(ascending(updates), 0.5))}, max ${ms(Math.max(...updates))}`);
  } finally {
    await store.destroy();
  }
  if (values['no-servers']) return;

  // Two instances on one database.
  ensureWrk();
  const options = caseOptions(values, { duration: 5, rounds: 1, warmup: 2 });
  const startedAt = performance.now();
  const first = await startServerProcess({}, { discardStdout: true });
  const firstStart = performance.now() - startedAt;
  const ceiling = await startCeiling();
  try {
    const { db } = first.database;
    await generate(db, perLanguage);
    const secondAt = performance.now();
    const second = await startServerProcess({}, { discardStdout: true, besides: first });
    out(
      `second instance on ${perLanguage} articles per language: /health after ${ms(performance.now() - secondAt)} (first, on the bundled ones: ${ms(firstStart)})`,
    );
    try {
      const admin = await userWithToken(db, { admin: true, email: 'editor@bench.local' });
      const chatter = await userWithToken(db, { email: 'chatter@bench.local' });
      const delays: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const word = `benchword${i}x`;
        const res = await fetch(`${first.url}/api/admin/kb/articles`, {
          method: 'POST',
          headers: { ...admin.auth, 'content-type': 'application/json' },
          body: JSON.stringify({
            key: `bench.live-${i}`,
            lang: 'en',
            slug: `bench-live-${i}`,
            title: `What is ${word}?`,
            body: 'A word.',
            status: 'published',
          }),
        });
        if (res.status !== 201) throw new Error(`create answered ${res.status}`);
        const t = performance.now();
        for (;;) {
          const found = (await (await fetch(`${second.url}/api/kb/articles?lang=en&q=${word}`)).json()) as {
            data: unknown[];
          };
          if (found.data.length > 0) break;
          if (performance.now() - t > 10_000) throw new Error('the second instance never saw the edit');
          await new Promise((r) => setTimeout(r, 20));
        }
        delays.push(performance.now() - t);
      }
      out(
        `edit on one instance seen by the other: max ${ms(Math.max(...delays))} over ${delays.length} (target < 2 s)`,
      );
      const result = await measureCase(
        `POST /api/assistant/chat (${perLanguage} articles per language, 16 connections)`,
        second,
        ceiling,
        {
          method: 'POST',
          path: '/api/assistant/chat',
          headers: { ...chatter.auth, 'content-type': 'application/json' },
          body: JSON.stringify({ message: QUESTIONS[0] }),
        },
        { ...options, connections: 16 },
      );
      printSummary(
        'knowledge',
        [result],
        'Target: chat p99 < 30 ms at 16 connections with 2,000 articles per language.',
      );
    } finally {
      await second.close();
    }
  } finally {
    await ceiling.close();
    await first.close();
  }
}
