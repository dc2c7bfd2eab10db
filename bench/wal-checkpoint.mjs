// SQLite's WAL checkpoint limit and the cost of a chat's writes (issue 11's chat latency):
// `node bench/wal-checkpoint.mjs [chats]` writes what a chat writes (a user message in one
// transaction, then the assistant's message and the conversation's update in another) into a
// fresh file with the service's pragmas, once with SQLite's default wal_autocheckpoint (1,000
// pages) and once with the service's (10,000), alternating twice. It prints the mean cost per
// chat, p50/p99/p99.9 of one chat's writes and how many took over 2 ms. Plain JavaScript, no build.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';

const chats = Number(process.argv[2] ?? 20_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-wal-'));

function run(pages) {
  const file = path.join(dir, `wal-${pages}.sqlite`);
  for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma(`wal_autocheckpoint = ${pages}`);
  db.exec('create table messages (id integer primary key, conversation_id integer, role text, content text, created_at text)');
  db.exec('create index messages_conversation on messages (conversation_id, id)');
  db.exec('create table conversations (id integer primary key, last_message text, updated_at text)');
  const conversations = 2_000;
  const addConversation = db.prepare('insert into conversations (last_message, updated_at) values (?, ?)');
  for (let i = 0; i < conversations; i++) addConversation.run('', '');
  const insert = db.prepare('insert into messages (conversation_id, role, content, created_at) values (?, ?, ?, ?)');
  const touch = db.prepare('update conversations set last_message = ?, updated_at = ? where id = ?');
  const answer = 'An answer of about the length the offline assistant gives. '.repeat(12);
  const times = [];
  const started = performance.now();
  for (let i = 0; i < chats; i++) {
    const t = performance.now();
    const conversation = 1 + (i % conversations);
    db.exec('begin immediate');
    insert.run(conversation, 'user', `question ${i}`, new Date().toISOString());
    db.exec('commit');
    db.exec('begin immediate');
    insert.run(conversation, 'assistant', answer, new Date().toISOString());
    touch.run(answer.slice(0, 100), new Date().toISOString(), conversation);
    db.exec('commit');
    times.push(performance.now() - t);
  }
  const total = performance.now() - started;
  db.close();
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(2);
  const slow = times.filter((t) => t > 2).length;
  return `| ${pages} | ${((total / chats) * 1000).toFixed(0)} | ${at(0.5)} / ${at(0.99)} / ${at(0.999)} | ${slow} (${((100 * slow) / chats).toFixed(2)} %) |`;
}

console.log(`${chats} chats' writes per run, ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log('| wal_autocheckpoint (pages) | mean µs per chat | p50 / p99 / p99.9 ms | over 2 ms |');
console.log('|---|---|---|---|');
for (const pages of [1_000, 10_000, 1_000, 10_000]) console.log(run(pages));
fs.rmSync(dir, { recursive: true, force: true });
