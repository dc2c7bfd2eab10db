// The later kinds measured through the chat itself: an app on a fresh SQLite database in a
// temporary folder, a member with a token, and POST /api/assistant/chat for every message, so a
// conversation's earlier turns are stored (and their answers' sources with them) before its last
// turn is asked, and a page reaches the chat as the widget sends it ({"page": {module, route}}).
// Each measured message is also asked as its control: a conversation's last turn alone in a new
// conversation, a page question without the page.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { configWith } from '../../src/config.js';
import { createDatabase } from '../../src/db/index.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { messageLanguage } from '../../src/modules/assistant/text.js';
import { insertUser } from '../../src/modules/users/repository.js';
import { createToken } from '../../src/modules/users/tokens.js';
import {
  type Case,
  describeCase,
  KINDS,
  type Kind,
  type Lang,
  OUT_OF_SCOPE,
  readCases,
  type Split,
} from './questions.js';
import { NEAR_COPY, similarity } from './split.js';

interface Reply {
  conversationId: number;
  sources: string[];
  language: Lang;
}

export interface ChatClient {
  ask(message: string, options?: { conversationId?: number; page?: Case['page'] }): Promise<Reply>;
  close(): Promise<void>;
}

/** The app in this process on a fresh SQLite database, and one member's token. */
export async function chatClient(): Promise<ChatClient> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-eval-'));
  const config = configWith({
    DATA_DIR: dataDir,
    DATABASE_URL: undefined,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: 0,
  });
  const database = createDatabase(config);
  await migrateToLatest(database.db);
  const app: FastifyInstance = await buildApp({
    config,
    database,
    logger: false,
    loadGeoData: false,
    startWorkers: false,
  });
  await app.ready();
  const member = await insertUser(database.db, { email: 'member@eval.local', first_name: 'Eval', last_name: 'Member' });
  const token = (await createToken(database.db, member.id, {})).plaintext;
  return {
    async ask(message, options = {}) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/assistant/chat',
        headers: { authorization: `Bearer ${token}` },
        payload: {
          message,
          conversation_id: options.conversationId ?? null,
          context: options.page ? { page: options.page } : null,
        },
      });
      if (response.statusCode !== 200) throw new Error(`chat answered ${response.statusCode}: ${response.body}`);
      const body = response.json() as {
        conversation_id: number;
        message: string;
        sources: Array<{ id: string }>;
      };
      return {
        conversationId: body.conversation_id,
        sources: body.sources.map((s) => s.id),
        language: messageLanguage(body.message),
      };
    },
    async close() {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The language a kind's answers must be in: Finglish is Persian. */
export const answerLanguage = (kind: Kind, lang: Lang): Lang => (kind === 'finglish' ? 'fa' : lang);

/** Right: out of scope said "I don't know"; else every expected passage answered and the first one of them. */
export function isRight(expected: string[], reply: Reply, language: Lang): boolean {
  if (expected[0] === OUT_OF_SCOPE) return reply.sources.length === 0;
  return (
    reply.language === language &&
    expected.includes(reply.sources[0] ?? '') &&
    expected.every((id) => reply.sources.includes(id))
  );
}

/** Asks a case the way it is measured (its conversation first, its page) and as its control, when it has one. */
async function askCase(client: ChatClient, c: Case): Promise<{ reply: Reply; control?: Reply }> {
  if (c.earlier && c.earlier.length > 0) {
    let conversationId: number | undefined;
    for (const turn of c.earlier) conversationId = (await client.ask(turn.query, { conversationId })).conversationId;
    return { reply: await client.ask(c.query, { conversationId }), control: await client.ask(c.query) };
  }
  if (c.page) return { reply: await client.ask(c.query, { page: c.page }), control: await client.ask(c.query) };
  return { reply: await client.ask(c.query) };
}

const percent = (part: number, whole: number): string =>
  whole === 0 ? '     —' : `${((100 * part) / whole).toFixed(1).padStart(5)} %`;

/** What one half's cases came to (see measureKinds). */
interface Tally {
  inScope: number;
  right: number;
  controlled: number;
  controlRight: number;
  noAnswer: number;
  outOfScope: number;
  saidSo: number;
  /** Two-question messages (long), to tell which shape misses. */
  pairs: number;
  pairsRight: number;
}

const emptyTally = (): Tally => ({
  inScope: 0,
  right: 0,
  controlled: 0,
  controlRight: 0,
  noAnswer: 0,
  outOfScope: 0,
  saidSo: 0,
  pairs: 0,
  pairsRight: 0,
});

function record(t: Tally, c: Case, ok: boolean, reply: Reply, controlOk: boolean | undefined): void {
  if (c.expected[0] === OUT_OF_SCOPE) {
    t.outOfScope += 1;
    if (ok) t.saidSo += 1;
    return;
  }
  t.inScope += 1;
  if (ok) t.right += 1;
  if (c.expected.length === 2) [t.pairs, t.pairsRight] = [t.pairs + 1, t.pairsRight + (ok ? 1 : 0)];
  if (reply.sources.length === 0) t.noAnswer += 1;
  if (controlOk !== undefined)
    [t.controlled, t.controlRight] = [t.controlled + 1, t.controlRight + (controlOk ? 1 : 0)];
}

const count = (part: number, whole: number) =>
  whole === 0 ? '—'.padEnd(16) : `${percent(part, whole)} (${part}/${whole})`.padEnd(16);

/** True when a case is within NEAR_COPY of a case of the tuning half (a paraphrase the tuning has seen). */
const nearTuning = (c: Case, tuning: Case[]): boolean => tuning.some((t) => similarity(t.query, c.query) >= NEAR_COPY);

/**
 * Per kind, language and half: cases, right passage first (both passages for a two-question
 * message), the control's figure, in-scope cases answered "I don't know", and out-of-scope ones
 * answered so; then the kind's sealed batch, when there is one, and the same for its cases that
 * are not near a tuning case (another writer with the same packet often writes a close
 * paraphrase). Misses are listed for the tuning halves only, and only when asked.
 */
export async function measureKinds(
  split: Split,
  showTuningMisses: boolean,
): Promise<{ lines: string[]; misses: string[] }> {
  const client = await chatClient();
  const lines = [
    'kind          lang half     cases  right first      control          no answer  out-of-scope said so',
  ];
  const misses: string[] = [];
  try {
    for (const kind of KINDS) {
      for (const lang of ['en', 'fa'] as const) {
        const drawn = split.kinds[kind][lang];
        if (!drawn) continue;
        const halves = { ...drawn, sealed: readCases(kind, lang, 'sealed') };
        const language = answerLanguage(kind, lang);
        for (const half of ['heldout', 'tuning', 'sealed'] as const) {
          if (halves[half].length === 0) continue;
          const tally = emptyTally();
          const far = emptyTally();
          for (const c of halves[half]) {
            const { reply, control } = await askCase(client, c);
            const ok = isRight(c.expected, reply, language);
            const controlOk = control && isRight(c.expected, control, language);
            record(tally, c, ok, reply, controlOk);
            if (half === 'sealed' && !nearTuning(c, halves.tuning)) record(far, c, ok, reply, controlOk);
            if (!ok && half === 'tuning' && showTuningMisses)
              misses.push(
                `${kind} ${lang} tuning: ${describeCase(c)} expected ${c.expected.join(' + ')}, ` +
                  `answered ${reply.sources.join(' + ') || OUT_OF_SCOPE}${reply.language !== language ? ` in ${reply.language}` : ''}`,
              );
          }
          lines.push(row(kind, lang, half, halves[half].length, tally));
          if (tally.pairs > 0)
            lines.push(
              `${''.padEnd(13)}           of them: two questions ${tally.pairsRight}/${tally.pairs}, one question ${tally.right - tally.pairsRight}/${tally.inScope - tally.pairs}`,
            );
          if (half === 'sealed') lines.push(row(kind, lang, ' far', far.inScope + far.outOfScope, far));
        }
      }
    }
  } finally {
    await client.close();
  }
  return { lines, misses };
}

function row(kind: Kind, lang: Lang, half: string, cases: number, t: Tally): string {
  return (
    `${kind.padEnd(13)} ${lang}   ${half.padEnd(8)} ${String(cases).padStart(5)}  ` +
    `${count(t.right, t.inScope)} ${count(t.controlRight, t.controlled)} ${String(t.noAnswer).padStart(5)}      ` +
    `${t.outOfScope === 0 ? '—' : `${percent(t.saidSo, t.outOfScope)} (${t.saidSo}/${t.outOfScope})`}`
  );
}
