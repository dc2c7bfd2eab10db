// npm run bench -- sqlite-checkpoint [--chats N] [--rounds R] [--restart P,...]
// A chat's writes on SQLite (two transactions: the conversation and the member's message, then the
// answer and the conversation's last message), N times in a loop on the event loop's thread, with
// 0.3 ms of other work per chat and the loop let go every 20 chats, as a server would. Each round
// runs the loop with SQLite checkpointing in the committing thread (its default, every 1,000 WAL
// pages) and with the worker thread of src/db/checkpointer.ts (every 100 ms; a restarting checkpoint
// past P pages, for each P given), alternated. Prints per setting the time a chat's writes held the
// thread (p50, p99, p99.9, max), the stalls over 2 ms and their sum, and the WAL file's size.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setImmediate as turn } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import { AUTO_CHECKPOINT_PAGES, RESTART_PAGES, startWalCheckpointer } from '../src/db/checkpointer.js';

const ANSWER = 'Refunds arrive within three to seven working days after the request is approved. '.repeat(5);
const STALL_MS = 2;

async function loop(chats: number, restartPages: number | undefined): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-checkpoint-'));
  const file = path.join(dir, 'bench.sqlite');
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.exec(
    'create table conversations (id integer primary key, user_id integer, title text, last_message text, updated_at text);' +
      'create index conversations_user on conversations (user_id, updated_at);' +
      'create table messages (id integer primary key, conversation_id integer, role text, content text, created_at text);' +
      'create index messages_conversation on messages (conversation_id, id);',
  );
  const checkpointer =
    restartPages === undefined
      ? undefined
      : await startWalCheckpointer({ file, pragma: (s) => sqlite.pragma(s), intervalMs: 100, restartPages });
  const conversation = sqlite.prepare(
    'insert into conversations (user_id, title, last_message, updated_at) values (?, ?, ?, ?)',
  );
  const message = sqlite.prepare(
    'insert into messages (conversation_id, role, content, created_at) values (?, ?, ?, ?)',
  );
  const touch = sqlite.prepare('update conversations set last_message = ?, updated_at = ? where id = ?');
  const held: number[] = [];
  const started = performance.now();
  for (let i = 0; i < chats; i += 1) {
    const at = performance.now();
    const now = new Date().toISOString();
    sqlite.exec('begin immediate');
    const { lastInsertRowid: id } = conversation.run(i % 50, `Conversation ${i}`, null, now);
    message.run(id, 'user', 'how long does a refund take', now);
    sqlite.exec('commit');
    sqlite.exec('begin immediate');
    message.run(id, 'assistant', ANSWER, now);
    touch.run(ANSWER, now, id);
    sqlite.exec('commit');
    held.push(performance.now() - at);
    const busyUntil = performance.now() + 0.3;
    while (performance.now() < busyUntil);
    if (i % 20 === 19) await turn();
  }
  const total = performance.now() - started;
  await checkpointer?.stop();
  const wal = fs.statSync(`${file}-wal`).size;
  sqlite.close();
  fs.rmSync(dir, { recursive: true, force: true });
  held.sort((a, b) => a - b);
  const at = (q: number) => held[Math.floor(q * (held.length - 1))]!.toFixed(2);
  const stalls = held.filter((ms) => ms > STALL_MS);
  const name =
    restartPages === undefined ? `in the commit (${AUTO_CHECKPOINT_PAGES} pages)` : `worker, restart ${restartPages}`;
  return (
    `${name.padEnd(28)} ${total.toFixed(0).padStart(6)} ms; writes per chat p50 ${at(0.5)} p99 ${at(0.99)} ` +
    `p99.9 ${at(0.999)} max ${held.at(-1)!.toFixed(2)} ms; ${stalls.length} stalls > ${STALL_MS} ms, ` +
    `${stalls.reduce((sum, ms) => sum + ms, 0).toFixed(0)} ms in all; WAL ${(wal / 1e6).toFixed(1)} MB`
  );
}

export default async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { chats: { type: 'string' }, rounds: { type: 'string' }, restart: { type: 'string' } },
  });
  const chats = Number(values.chats ?? 20_000);
  const rounds = Number(values.rounds ?? 2);
  const restarts = (values.restart ?? String(RESTART_PAGES)).split(',').map(Number);
  if (!Number.isInteger(chats) || chats < 100) throw new Error('--chats must be a whole number of at least 100');
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds must be a whole number of at least 1');
  if (restarts.some((p) => !Number.isInteger(p) || p < 1)) throw new Error('--restart takes whole numbers of pages');
  process.stdout.write(`${chats} chats' writes per loop, ${rounds} rounds, ${os.tmpdir()}\n`);
  for (let round = 1; round <= rounds; round += 1)
    for (const setting of [undefined, ...restarts])
      process.stdout.write(`round ${round}: ${await loop(chats, setting)}\n`);
}
