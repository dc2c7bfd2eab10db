// A digest of every answer an index gives: for each message of the evaluation's files but the
// sealed set (the last field of each line), what understand() makes of it and the best five hits
// of a search in each language, with their scores and the signals of "I don't know". Two versions
// of the index code that print the same digest answer every one of those messages the same way.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { KnowledgeBase } from '../../src/modules/assistant/knowledge.js';
import { understand } from '../../src/modules/assistant/understanding.js';

/** The evaluation's messages, in file order. */
function evaluationMessages(): string[] {
  const dir = path.join(import.meta.dirname, '..', '..', 'eval', 'assistant');
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.txt') && !name.startsWith('sealed.'))
    .sort()
    .flatMap((name) => fs.readFileSync(path.join(dir, name), 'utf8').split('\n'))
    .map((line) => line.trim())
    .filter((line) => line.includes(' | ') && !line.startsWith('#'))
    .map((line) => line.slice(line.lastIndexOf(' | ') + 3));
}

/** How many messages were read, and the first 16 hex digits of the digest of their answers. */
export function answerDigest(knowledge: KnowledgeBase): { messages: number; digest: string } {
  const messages = evaluationMessages();
  const hash = createHash('sha256');
  for (const message of messages) {
    const u = understand(knowledge, { message });
    hash.update(JSON.stringify([u.language, u.weakMatch, u.via, u.passages.map((p) => p.id)]));
    for (const lang of ['en', 'fa'] as const) {
      const m = knowledge.match(message, lang, 5);
      hash.update(
        JSON.stringify([
          m.known,
          m.outside,
          m.closest,
          m.hits.map((h) => [h.passage.id, h.score, h.similarity, h.own]),
        ]),
      );
    }
  }
  return { messages: messages.length, digest: hash.digest('hex').slice(0, 16) };
}
