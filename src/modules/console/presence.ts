// Who else is on a ticket's page: each open page says "viewing" or "replying" every 15 s (and
// "left" when it closes); a mark not renewed within PRESENCE_TTL_MS is gone. With REDIS_URL the
// marks are a Redis hash per ticket (field: user id, value: state and expiry), else rows of
// ticket_presence: either way every instance sees the same viewers.
import type { AppDeps } from '../../core/deps.js';
import { usersByIds } from '../users/service.js';
import * as repo from './presence-query.js';

export const PRESENCE_TTL_MS = 45_000;
export type PresenceState = 'viewing' | 'replying' | 'left';

interface Mark {
  user_id: number;
  state: string;
}

async function redisMarks(deps: AppDeps, ticketId: number, userId: number, state: PresenceState, now: number) {
  const redis = deps.redis!;
  const key = `${deps.config.REDIS_KEY_PREFIX}presence:ticket:${ticketId}`;
  if (state === 'left') await redis.hdel(key, String(userId));
  else {
    await redis.hset(key, String(userId), JSON.stringify({ state, until: now + PRESENCE_TTL_MS }));
    await redis.pexpire(key, PRESENCE_TTL_MS);
  }
  const all = await redis.hgetall(key);
  const marks: Mark[] = [];
  const stale: string[] = [];
  for (const [field, value] of Object.entries(all)) {
    try {
      const mark = JSON.parse(value) as { state: string; until: number };
      if (mark.until > now) marks.push({ user_id: Number(field), state: mark.state });
      else stale.push(field);
    } catch {
      stale.push(field);
    }
  }
  if (stale.length) await redis.hdel(key, ...stale);
  return marks.sort((a, b) => a.user_id - b.user_id);
}

async function databaseMarks(deps: AppDeps, ticketId: number, userId: number, state: PresenceState, now: number) {
  if (state === 'left') await repo.deletePresence(deps.db, ticketId, userId);
  else await repo.upsertPresence(deps.db, ticketId, userId, state, new Date(now + PRESENCE_TTL_MS).toISOString());
  return repo.presentOn(deps.db, ticketId, new Date(now).toISOString());
}

/** Records the caller's state on the ticket and answers who is there now (the caller included unless they left). */
export async function markPresence(deps: AppDeps, ticketId: number, userId: number, state: PresenceState) {
  const now = Date.now();
  let marks: Mark[] | undefined;
  if (deps.redis) {
    // Redis down: the database keeps presence working on this instance meanwhile.
    marks = await redisMarks(deps, ticketId, userId, state, now).catch(() => undefined);
  }
  marks ??= await databaseMarks(deps, ticketId, userId, state, now);
  const people = await usersByIds(
    deps.db,
    marks.map((m) => m.user_id),
  );
  return marks.flatMap((m) => {
    const who = people.get(m.user_id);
    return who
      ? [{ id: who.id, first_name: who.first_name, last_name: who.last_name, state: m.state as 'viewing' | 'replying' }]
      : [];
  });
}
