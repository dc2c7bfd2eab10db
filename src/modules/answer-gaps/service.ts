// Feedback on single answers and the questions the assistant could not answer. A member rates an
// answer of their own (a second rating replaces the first); staff read the unanswered questions of
// members grouped by what they ask (grouping.ts) and close a group as dismissed or answered by an
// article. A decision covers the questions asked until it was taken: the same thing asked again
// afterwards opens the group again.
import { msg, notFound, ValidationError } from '../../core/errors.js';
import { fieldMessage } from '../../core/fields.js';
import type { AppDeps } from '../../core/deps.js';
import type { Locale } from '../../core/i18n.js';
import { nowIso } from '../../db/index.js';
import type { KnowledgeBase } from '../assistant/knowledge.js';
import { messageLanguage } from '../assistant/text.js';
import { isStaffRole, usersByIds, type UserRecord } from '../users/service.js';
import { groupQuestions, type GapGroup, type Unanswered } from './grouping.js';
import * as repo from './repository.js';
import { ratableAnswer } from './access.js';

/** The newest unanswered questions read for the gaps; older ones wait for a narrower window. */
const SCANNED = 5_000;

/** What the gap functions take: the database and the knowledge base the questions are grouped against. */
export type GapDeps = Pick<AppDeps, 'db'> & { knowledge: KnowledgeBase };

export type GapState = 'open' | 'dismissed' | 'answered';

export interface Gap extends GapGroup {
  state: GapState;
  articleKey: string | null;
  decidedAt: string | null;
}

/** Rates one of the user's assistant answers; another user's message, a user message or none at all is a 404. */
export async function rate(
  gapDeps: GapDeps,
  user: UserRecord,
  messageId: number,
  input: { rating: 'up' | 'down'; reason?: string | null },
) {
  ratableAnswer(user, await repo.answerWithOwner(gapDeps.db, messageId));
  const reason = input.reason?.trim() || null;
  return repo.saveFeedback(gapDeps.db, {
    message_id: messageId,
    user_id: user.id,
    rating: input.rating,
    reason,
    now: nowIso(),
  });
}

/** The groups of the last `days` days, in the state asked for (open by default), most asked first. */
export async function gaps(
  gapDeps: GapDeps,
  query: { days: number; lang?: Locale; state?: GapState | 'all' },
): Promise<Gap[]> {
  const since = new Date(Date.now() - query.days * 86_400_000).toISOString();
  const rows = await repo.unanswered(gapDeps.db, since, SCANNED);
  const askers = await usersByIds(
    gapDeps.db,
    rows.map((r) => r.user_id),
  );
  const questions: Unanswered[] = [];
  for (const row of rows) {
    // Staff trying the assistant are not members missing an answer.
    const asker = askers.get(row.user_id);
    if (!row.question || !asker || isStaffRole(asker)) continue;
    const lang = messageLanguage(row.question);
    if (query.lang && lang !== query.lang) continue;
    questions.push({
      question: row.question,
      lang,
      askedAt: String(row.asked_at),
      why: row.sources === '[]' ? 'no_answer' : 'thumbs_down',
      reason: row.rating === 'down' ? row.reason : null,
    });
  }
  const decisions = await repo.decisions(gapDeps.db);
  const groups = groupQuestions(gapDeps.knowledge, questions).map((group): Gap => {
    const decision = decisions
      .filter(
        (d) => (d.group_key === group.id || group.memberIds.has(d.group_key)) && d.decided_at >= group.lastAskedAt,
      )
      .sort((a, b) => b.decided_at.localeCompare(a.decided_at))[0];
    return {
      ...group,
      state: (decision?.state as GapState | undefined) ?? 'open',
      articleKey: decision?.article_key ?? null,
      decidedAt: decision?.decided_at ?? null,
    };
  });
  const state = query.state ?? 'open';
  return state === 'all' ? groups : groups.filter((g) => g.state === state);
}

/** The passages a group's main question came closest to, best first. */
export function closest(knowledge: KnowledgeBase, gap: Gap, limit = 3) {
  return knowledge.search(gap.question, gap.lang, limit).map((hit) => ({
    id: hit.passage.id,
    title: hit.passage.question,
    score: Math.round(hit.score * 1000) / 1000,
  }));
}

/** Closes a group (of the last `days` days) as dismissed, or answered by an article of the knowledge base. */
export async function decide(
  gapDeps: GapDeps,
  user: UserRecord,
  id: string,
  input: { state: 'dismissed' | 'answered'; article_key?: string | null },
  days: number,
): Promise<Gap> {
  const articleKey = input.state === 'answered' ? (input.article_key ?? null) : null;
  if (input.state === 'answered') {
    if (!articleKey) throw new ValidationError({ article_key: [fieldMessage('required', 'article_key')] });
    if (!gapDeps.knowledge.passage('en', articleKey) && !gapDeps.knowledge.passage('fa', articleKey))
      throw new ValidationError({ article_key: [fieldMessage('in', 'article_key')] });
  }
  const gap = (await gaps(gapDeps, { days, state: 'all' })).find((g) => g.id === id || g.memberIds.has(id));
  if (!gap) throw notFound(msg('assistant.gap.not_found'));
  const decidedAt = nowIso();
  await repo.saveDecision(gapDeps.db, {
    group_key: gap.id,
    state: input.state,
    article_key: articleKey,
    decided_by: user.id,
    decided_at: decidedAt,
  });
  return { ...gap, state: input.state, articleKey, decidedAt };
}
