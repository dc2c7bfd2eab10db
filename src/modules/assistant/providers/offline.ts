// The default provider: no network and no keys. It answers from the retrieved passages, in the
// message's language and the agent's voice; a weak match says so and offers a support ticket.
import { t } from '../../../core/i18n.js';
import type { Answer, AnswerProvider, AnswerRequest, StreamOptions } from './types.js';

/** The answer in pieces: its paragraphs, each with the blank line that follows it. */
function pieces(content: string): string[] {
  return content.split(/(?<=\n\n)/);
}

export class OfflineProvider implements AnswerProvider {
  readonly name = 'offline' as const;

  async answer(request: AnswerRequest, stream?: StreamOptions): Promise<Answer> {
    const answer = this.compose(request);
    if (stream) {
      // Written at once, sent paragraph by paragraph (each a turn of the event loop of its own),
      // so a client shows it the way it shows a model's stream.
      for (const piece of pieces(answer.content)) {
        stream.signal.throwIfAborted();
        stream.onDelta(piece);
        await new Promise((resolve) => setImmediate(resolve));
      }
      stream.signal.throwIfAborted();
    }
    return answer;
  }

  private compose(request: AnswerRequest): Answer {
    const { agent, language } = request;
    const voice = agent.voice[language];
    const sources = request.passages;
    if (sources.length === 0) {
      return {
        content: `${t(language, 'assistant.offline.no_match')} ${t(language, 'assistant.offline.offer_escalation')}`,
        sources,
      };
    }
    const [best, ...others] = sources;
    const parts = [voice.opening, best!.answer];
    for (const other of others)
      parts.push(`${t(language, 'assistant.offline.see_also')} ${other.question}\n${other.answer}`);
    parts.push(voice.closing);
    return { content: parts.join('\n\n'), sources };
  }
}
