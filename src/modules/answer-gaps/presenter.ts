// A group of unanswered questions as the staff API answers it, with the passages its main
// question came closest to.
import type { KnowledgeBase } from '../assistant/knowledge.js';
import { closest, type Gap } from './service.js';

export function gapView(knowledge: KnowledgeBase, gap: Gap) {
  return {
    id: gap.id,
    question: gap.question,
    count: gap.count,
    no_answer_count: gap.noAnswer,
    thumbs_down_count: gap.thumbsDown,
    first_asked_at: gap.firstAskedAt,
    last_asked_at: gap.lastAskedAt,
    lang: gap.lang,
    examples: gap.examples,
    reasons: gap.reasons,
    closest: closest(knowledge, gap),
    state: gap.state,
    article_key: gap.articleKey,
    decided_at: gap.decidedAt,
  };
}
