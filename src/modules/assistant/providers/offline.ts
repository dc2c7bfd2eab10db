// The default provider: no network and no keys. It answers from the retrieved passages, in the
// message's language and the agent's voice; a weak match says so and offers a support ticket.
import { t } from '../../../http/i18n.js';
import type { Answer, AnswerProvider, AnswerRequest } from './types.js';

// A second passage joins the answer when it scores close to the best one.
const SECOND_PASSAGE_RATIO = 0.8;

export class OfflineProvider implements AnswerProvider {
  readonly name = 'offline' as const;

  async answer({ agent, language, hits, weakMatch }: AnswerRequest): Promise<Answer> {
    const voice = agent.voice[language];
    if (weakMatch || hits.length === 0) {
      return { content: `${t(language, 'assistant.offline.no_match')} ${t(language, 'assistant.offline.offer_escalation')}` };
    }
    const [best, second] = hits;
    const parts = [voice.opening, best!.passage.answer];
    if (second && second.score >= best!.score * SECOND_PASSAGE_RATIO && second.coverage >= best!.coverage) {
      parts.push(`${t(language, 'assistant.offline.see_also')} ${second.passage.question}\n${second.passage.answer}`);
    }
    parts.push(voice.closing);
    return { content: parts.join('\n\n') };
  }
}
