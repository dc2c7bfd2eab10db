// npm run bench -- assistant: chat with the offline provider at 16 connections (target p99 < 30 ms
// on SQLite) and the conversation list of a user with 500 conversations (target p99 < 20 ms).
import { insertUser } from '../src/modules/users/repository.js';
import { createToken } from '../src/modules/users/tokens.js';
import { load, report, startBenchServer } from './lib.js';

const QUESTIONS = [
  'How long does a refund take?',
  'My payment failed, what should I do?',
  'چطور تیکت پشتیبانی ثبت کنم؟',
  'What is the minimum investment amount?',
  'رمز عبورم را فراموش کرده‌ام',
  'How do I select my address?',
];

export default async function run(args: string[]): Promise<void> {
  const duration = Number(args[0] ?? 10);
  const server = await startBenchServer();
  try {
    const { db } = server.database;
    const chatter = await insertUser(db, { email: 'chatter@bench.local', first_name: 'Bench', last_name: 'Chatter' });
    const reader = await insertUser(db, { email: 'reader@bench.local', first_name: 'Bench', last_name: 'Reader' });
    const chatToken = (await createToken(db, chatter.id, {})).plaintext;
    const readToken = (await createToken(db, reader.id, {})).plaintext;

    const start = Date.now() - 500 * 60_000;
    for (let i = 0; i < 500; i += 50) {
      await db
        .insertInto('assistant_conversations')
        .values(
          Array.from({ length: 50 }, (_, j) => {
            const at = new Date(start + (i + j) * 60_000).toISOString();
            return { user_id: reader.id, title: `Conversation ${i + j}`, agent_type: 'steward', status: (i + j) % 10 === 0 ? 'archived' : 'active', last_message: 'Refunds arrive within three to seven working days.', escalated_ticket_id: null, created_at: at, updated_at: at };
          }),
        )
        .execute();
    }

    let turn = 0;
    const chat = await load('POST /api/assistant/chat (offline, 16 connections)', {
      url: `${server.url}/api/assistant/chat`,
      connections: 16,
      duration,
      method: 'POST',
      headers: { authorization: `Bearer ${chatToken}`, 'content-type': 'application/json' },
      setupClient: (client) => {
        client.setBody(JSON.stringify({ message: QUESTIONS[turn++ % QUESTIONS.length] }));
      },
    });
    const chatAlone = await load('POST /api/assistant/chat (offline, 1 connection: service time)', {
      url: `${server.url}/api/assistant/chat`,
      connections: 1,
      duration: Math.max(3, Math.round(duration / 2)),
      method: 'POST',
      headers: { authorization: `Bearer ${chatToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: QUESTIONS[0] }),
    });
    const list = await load('GET /api/assistant/conversations (500 conversations, 16 connections)', {
      url: `${server.url}/api/assistant/conversations?per_page=20`,
      connections: 16,
      duration,
      headers: { authorization: `Bearer ${readToken}` },
    });
    const listPage = await load('GET /api/assistant/conversations?page=20 (16 connections)', {
      url: `${server.url}/api/assistant/conversations?per_page=20&page=20`,
      connections: 16,
      duration,
      headers: { authorization: `Bearer ${readToken}` },
    });
    report([chat, chatAlone, list, listPage]);
    process.stdout.write(`dialect: ${server.database.dialect}; targets: chat p99 < 30 ms, list p99 < 20 ms\n`);
  } finally {
    await server.close();
  }
}
