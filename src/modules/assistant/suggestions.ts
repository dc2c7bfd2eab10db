// The questions offered under an answer: related questions of the knowledge base, or on a weak
// match the offer to escalate and the agent's own follow-ups.
import { t, type Locale } from '../../core/i18n.js';
import { type AgentId, agentById } from './agents.js';
import type { Hit, KnowledgeBase, Passage } from './knowledge.js';

const MAX_SUGGESTIONS = 3;

/** Related questions of the knowledge base (other hits, then the answer's topic) that the answer does not already hold. */
export function suggestionsFor(
  knowledge: KnowledgeBase,
  { hits, weakMatch, passages }: { hits: Hit[]; weakMatch: boolean; passages: Passage[] },
  agentId: AgentId,
  language: Locale,
): string[] {
  const agent = agentById(agentId);
  if (weakMatch || passages.length === 0)
    return [t(language, 'assistant.suggest.escalate'), ...agent.followUps[language]].slice(0, MAX_SUGGESTIONS);
  const best = passages[0]!;
  const answered = new Set(passages.map((p) => p.id));
  const questions = [...hits.map((h) => h.passage), ...knowledge.related(best, MAX_SUGGESTIONS + passages.length)]
    .filter((p) => !answered.has(p.id))
    .map((p) => p.question);
  return [...new Set(questions)].slice(0, MAX_SUGGESTIONS);
}
