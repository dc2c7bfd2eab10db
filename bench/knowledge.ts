// npm run bench -- knowledge [--articles N] [--documents D] [--pages P] [--no-servers] [--rotate]
//                            [--duration S] [--rounds R] [--warmup S]
// The knowledge base at size: N generated articles per language (default 2,000) besides the
// bundled ones, and D uploaded documents (default 50) of P pages (default 100), PDFs written by
// harness/pdf.ts, uploaded through POST /api/admin/kb/files and read by the server's own
// extraction worker until every one is ready (bench/knowledge/store.ts), on a scratch database
// (PostgreSQL when DATABASE_URL is set). Then, on that store:
// - in this process: how long the index of the whole store takes to build (reading included) and
//   the heap it holds, a search's p50/p99 and one article's re-index;
// - a second server process on the same database: the time from its start until /health (the
//   index of everything is built before the server listens; target < 2 s) and its resident memory
//   beside an instance's on the bundled articles only (target < 200 MB more), at /health and again
//   after both have been idle for SETTLE_MS;
// - an edit on the first instance answered by the second's search (target < 2 s);
// - the chat on the second at 16 connections beside the client's ceiling (target p99 < 30 ms).
// --no-servers keeps to the in-process figures on the articles alone (no server reads documents).
// The chat asks QUESTIONS[0] every time; --rotate asks the four QUESTIONS in turn (English, Persian,
// a typo, Finglish, which searches both languages), as members' messages vary.
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { Kysely } from 'kysely';
import { scratchDatabase } from '../harness/database.js';
import { userWithToken } from '../harness/users.js';
import { percentile } from '../src/core/percentile.js';
import type { Database } from '../src/db/schema.js';
import { documentSources } from '../src/modules/kb-files/document-index.js';
import { articleSource, knowledgeFromStore, passageOf, seedWhenEmpty } from '../src/modules/kb/knowledge-feed.js';
import type { ArticleRecord } from '../src/modules/kb/repository.js';
import { generatedDocuments } from './knowledge/corpus.js';
import { uploadDocuments, writeGeneratedArticles } from './knowledge/store.js';
import { fullCollection, processCpuMicros, rssMiB } from './lib/proc.js';
import { startServerProcess } from './lib/server.js';
import { CASE_ARGS, caseOptions, ensureWrk, measureCase, printSummary, startCeiling } from './lib/wrk.js';
import { rotatingBodies } from './lib/wrk.js';

const QUESTIONS = [
  'How long does a refund take?',
  'چطور تیکت پشتیبانی ثبت کنم؟',
  'my paymnt failed',
  'ramzamo yadam rafte',
];

/** How long an instance is left idle before its memory is read again (V8 gives back what it no longer uses). */
const SETTLE_MS = 15_000;

async function settledRss(pid: number): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  return rssMiB(pid);
}

const ascending = (values: number[]) => [...values].sort((a, b) => a - b);
const ms = (n: number | null) => `${(n ?? Number.NaN).toFixed(2)} ms`;
const out = (line: string) => process.stdout.write(`${line}\n`);

/** The index of the whole store built in this process, and what it costs. */
async function inProcess(db: Kysely<Database>): Promise<void> {
  fullCollection();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  const documents = await documentSources(db);
  const { knowledge } = await knowledgeFromStore(db, documents.sources);
  const built = performance.now() - started;
  fullCollection();
  const heap = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
  out(
    `index of ${knowledge.count('en')} + ${knowledge.count('fa')} passages (${documents.sources.length} documents among them): ` +
      `built in ${ms(built)} (reading the store included), heap +${heap.toFixed(0)} MB`,
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
    const article = { key: sample.id, lang: 'en', title: `${sample.question} ${i}`, questions: sample.alternates };
    const passage = passageOf({ ...article, body: sample.answer, pages: [], next: [] } as unknown as ArticleRecord);
    const t = performance.now();
    knowledge.add(articleSource(sample.id, 'en'), [passage]);
    updates.push(performance.now() - t);
  }
  if (updates.length > 0)
    out(`one article re-indexed: p50 ${ms(percentile(ascending(updates), 0.5))}, max ${ms(Math.max(...updates))}`);
}

/** Creates articles on one instance and waits for each to be found by the other's help-centre search. */
async function editDelays(first: string, second: string, auth: Record<string, string>): Promise<number[]> {
  const delays: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    const word = `benchword${i}x`;
    const res = await fetch(`${first}/api/admin/kb/articles`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
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
      const found = (await (await fetch(`${second}/api/kb/articles?lang=en&q=${word}`)).json()) as { data: unknown[] };
      if (found.data.length > 0) break;
      if (performance.now() - t > 10_000) throw new Error('the second instance never saw the edit');
      await new Promise((r) => setTimeout(r, 20));
    }
    delays.push(performance.now() - t);
  }
  return delays;
}

export default async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      ...CASE_ARGS,
      articles: { type: 'string' },
      documents: { type: 'string' },
      pages: { type: 'string' },
      'no-servers': { type: 'boolean' },
      rotate: { type: 'boolean' },
    },
  });
  const perLanguage = Number(values.articles ?? 2000);
  const documentCount = Number(values.documents ?? 50);
  const pages = Number(values.pages ?? 100);
  const url = process.env.DATABASE_URL;

  if (values['no-servers']) {
    const store = await scratchDatabase({ dialect: url ? 'postgres' : 'sqlite', url, label: 'bench' });
    try {
      await seedWhenEmpty(store.db);
      await writeGeneratedArticles(store.db, perLanguage);
      await inProcess(store.db);
    } finally {
      await store.destroy();
    }
    return;
  }

  ensureWrk();
  const options = caseOptions(values, { duration: 5, rounds: 1, warmup: 2 });
  const first = await startServerProcess({}, { discardStdout: true });
  const firstStart = first.readyMs;
  // The memory of an instance on the bundled articles only, started as the second one will be (the
  // first imported the bundled Markdown on its start, which leaves garbage behind).
  const baseline = await startServerProcess({}, { discardStdout: true, besides: first });
  const bundledRss = rssMiB(baseline.pid);
  const bundledSettled = await settledRss(baseline.pid);
  await baseline.close();
  const ceiling = await startCeiling();
  try {
    const { db } = first.database;
    const admin = await userWithToken(db, { admin: true, email: 'editor@bench.local' });
    const chatter = await userWithToken(db, { email: 'chatter@bench.local' });
    const startedAt = performance.now();
    await writeGeneratedArticles(db, perLanguage);
    out(
      `generated ${perLanguage} articles per language in ${((performance.now() - startedAt) / 1000).toFixed(1)} s (${first.database.dialect})`,
    );
    const uploaded = await uploadDocuments(first.url, admin.auth, generatedDocuments(documentCount, pages));
    out(
      `${documentCount} PDFs (${uploaded.pages} pages, ${(uploaded.bytes / 2 ** 20).toFixed(1)} MB) uploaded and read by the first instance: ` +
        `all ready after ${(uploaded.ms / 1000).toFixed(1)} s`,
    );
    await inProcess(db);

    // The first instance shares the second's core: what CPU it spends meanwhile slows the start.
    const firstCpu = processCpuMicros(first.pid);
    const second = await startServerProcess({}, { discardStdout: true, besides: first });
    // From the spawn to /health (the launcher's check that dist/ is built comes before the spawn).
    const secondStart = second.readyMs;
    const firstBusy = (processCpuMicros(first.pid) - firstCpu) / 1000;
    const fullRss = rssMiB(second.pid);
    const fullSettled = await settledRss(second.pid);
    out(
      `second instance, on ${perLanguage} articles per language and ${documentCount} documents: /health ${ms(secondStart)} after its start (target < 2 s; ` +
        `the first, on the bundled articles only: ${ms(firstStart)}); the first instance, on the same core, spent ${firstBusy.toFixed(0)} ms of CPU meanwhile`,
    );
    out(
      `resident memory at /health: ${fullRss} MiB on that store, ${bundledRss} MiB for an instance on the bundled articles only: +${(fullRss - bundledRss).toFixed(0)} MiB (target < 200 MB)`,
    );
    out(
      `resident memory ${SETTLE_MS / 1000} s after /health, idle: ${fullSettled} MiB on that store, ${bundledSettled} MiB on the bundled articles only: +${(fullSettled - bundledSettled).toFixed(0)} MiB (target < 200 MB)`,
    );
    try {
      const delays = await editDelays(first.url, second.url, admin.auth);
      out(
        `edit on one instance seen by the other: max ${ms(Math.max(...delays))} over ${delays.length} (target < 2 s)`,
      );
      const result = await measureCase(
        `POST /api/assistant/chat (${perLanguage} articles per language, ${documentCount} × ${pages}-page documents, 16 connections${values.rotate ? ', four questions in turn' : ''})`,
        second,
        ceiling,
        {
          method: 'POST',
          path: '/api/assistant/chat',
          headers: { ...chatter.auth, 'content-type': 'application/json' },
          body: JSON.stringify({ message: QUESTIONS[0] }),
          lua: values.rotate ? rotatingBodies(QUESTIONS.map((q) => JSON.stringify({ message: q }))) : undefined,
        },
        { ...options, connections: 16 },
      );
      out(`second instance's resident memory after the chat runs: ${rssMiB(second.pid)} MiB`);
      printSummary(
        'knowledge',
        [result],
        'Target: chat p99 < 30 ms at 16 connections with 2,000 articles per language and 50 documents of 100 pages.',
      );
    } finally {
      await second.close();
    }
  } finally {
    await ceiling.close();
    await first.close();
  }
}
