// npm run bench -- assistant [--duration S] [--rounds R] [--warmup S]: chat with the offline
// provider at 16 connections (target p99 < 30 ms on SQLite) and the conversation list of a user
// with 500 conversations (target p99 < 20 ms). The server runs in its own process (bench/lib/server.ts);
// wrk is the client (the chat's question rotates per request in Lua), beside its ceiling.
import { parseArgs } from 'node:util';
import { userWithToken } from '../harness/users.js';
import {
  CASE_ARGS,
  caseOptions,
  ensureWrk,
  measureCase,
  printSummary,
  rotatingBodies,
  startCeiling,
} from './lib/wrk.js';
import { startServerProcess } from './lib/server.js';

const QUESTIONS = [
  'How long does a refund take?',
  'My payment failed, what should I do?',
  'چطور تیکت پشتیبانی ثبت کنم؟',
  'What is the minimum investment amount?',
  'رمز عبورم را فراموش کرده‌ام',
  'How do I select my address?',
];

export default async function run(args: string[]): Promise<void> {
  const options = caseOptions(parseArgs({ args, options: CASE_ARGS }).values);
  ensureWrk();
  const server = await startServerProcess();
  const ceiling = await startCeiling();
  process.stdout.write(`${server.placement}\n`);
  try {
    const { db } = server.database;
    const chatter = await userWithToken(db, { email: 'chatter@bench.local', firstName: 'Bench', lastName: 'Chatter' });
    const reader = await userWithToken(db, { email: 'reader@bench.local', firstName: 'Bench', lastName: 'Reader' });

    const start = Date.now() - 500 * 60_000;
    for (let i = 0; i < 500; i += 50) {
      await db
        .insertInto('assistant_conversations')
        .values(
          Array.from({ length: 50 }, (_, j) => {
            const at = new Date(start + (i + j) * 60_000).toISOString();
            return {
              user_id: reader.id,
              title: `Conversation ${i + j}`,
              agent_type: 'steward',
              status: (i + j) % 10 === 0 ? 'archived' : 'active',
              last_message: 'Refunds arrive within three to seven working days.',
              escalated_ticket_id: null,
              created_at: at,
              updated_at: at,
            };
          }),
        )
        .execute();
    }

    const chatHeaders = { ...chatter.auth, 'content-type': 'application/json' };
    const lua = rotatingBodies(QUESTIONS.map((q) => JSON.stringify({ message: q })));
    const chatRequest = {
      method: 'POST',
      path: '/api/assistant/chat',
      headers: chatHeaders,
      body: JSON.stringify({ message: QUESTIONS[0] }),
      lua,
    };
    const readHeaders = reader.auth;
    const results = [
      await measureCase('POST /api/assistant/chat (offline, 16 connections)', server, ceiling, chatRequest, {
        ...options,
        connections: 16,
      }),
      await measureCase(
        'POST /api/assistant/chat (offline, 1 connection: service time)',
        server,
        ceiling,
        chatRequest,
        { ...options, connections: 1 },
      ),
      await measureCase(
        'GET /api/assistant/conversations (500 conversations, 16 connections)',
        server,
        ceiling,
        { path: '/api/assistant/conversations?per_page=20', headers: readHeaders },
        { ...options, connections: 16 },
      ),
      await measureCase(
        'GET /api/assistant/conversations?page=20 (16 connections)',
        server,
        ceiling,
        { path: '/api/assistant/conversations?per_page=20&page=20', headers: readHeaders },
        { ...options, connections: 16 },
      ),
    ];
    printSummary(
      `assistant (${server.database.dialect})`,
      results,
      'Targets: chat p99 < 30 ms, list p99 < 20 ms. wrk -t1; the ceiling is a bare node:http server replaying the answer.',
    );
    process.stdout.write(`dialect: ${server.database.dialect}; targets: chat p99 < 30 ms, list p99 < 20 ms\n`);
  } finally {
    await ceiling.close();
    await server.close();
  }
}
