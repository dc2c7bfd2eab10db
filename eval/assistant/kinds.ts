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

/**
 * Per kind, language and half: cases, right passage first (both passages for a two-question
 * message), the control's figure, in-scope cases answered "I don't know", and out-of-scope ones
 * answered so; then the kind's sealed batch, when there is one. Misses are listed for the tuning
 * halves only, and only when asked.
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
        for (const half of ['heldout', 'tuning', 'sealed'] as const) {
          if (halves[half].length === 0) continue;
          const language = answerLanguage(kind, lang);
          let inScope = 0;
          let right = 0;
          let controlled = 0;
          let controlRight = 0;
          let noAnswer = 0;
          let outOfScope = 0;
          let saidSo = 0;
          // Two-question messages (long): how many of them are right, to tell which shape misses.
          let pairs = 0;
          let pairsRight = 0;
          for (const c of halves[half]) {
            const { reply, control } = await askCase(client, c);
            const ok = isRight(c.expected, reply, language);
            if (c.expected[0] === OUT_OF_SCOPE) {
              outOfScope += 1;
              if (ok) saidSo += 1;
            } else {
              inScope += 1;
              if (ok) right += 1;
              if (c.expected.length === 2) [pairs, pairsRight] = [pairs + 1, pairsRight + (ok ? 1 : 0)];
              if (reply.sources.length === 0) noAnswer += 1;
              if (control) {
                controlled += 1;
                if (isRight(c.expected, control, language)) controlRight += 1;
              }
            }
            if (!ok && half === 'tuning' && showTuningMisses)
              misses.push(
                `${kind} ${lang} tuning: ${describeCase(c)} expected ${c.expected.join(' + ')}, ` +
                  `answered ${reply.sources.join(' + ') || OUT_OF_SCOPE}${reply.language !== language ? ` in ${reply.language}` : ''}`,
              );
          }
          const count = (part: number, whole: number) =>
            whole === 0 ? '—'.padEnd(16) : `${percent(part, whole)} (${part}/${whole})`.padEnd(16);
          lines.push(
            `${kind.padEnd(13)} ${lang}   ${half.padEnd(8)} ${String(halves[half].length).padStart(5)}  ` +
              `${count(right, inScope)} ${count(controlRight, controlled)} ${String(noAnswer).padStart(5)}      ` +
              `${outOfScope === 0 ? '—' : `${percent(saidSo, outOfScope)} (${saidSo}/${outOfScope})`}`,
          );
          if (pairs > 0)
            lines.push(
              `${''.padEnd(13)}           of them: two questions ${pairsRight}/${pairs}, one question ${right - pairsRight}/${inScope - pairs}`,
            );
        }
      }
    }
  } finally {
    await client.close();
  }
  return { lines, misses };
}
