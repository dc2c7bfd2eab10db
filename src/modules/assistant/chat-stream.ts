// The HTTP side of a streamed chat (POST /api/assistant/chat with Accept: text/event-stream).
// Everything that can refuse the chat runs before the first byte (service.ts: begin), so those errors
// keep their JSON answers; from `start` on, the answer is Server-Sent Events: start, deltas, then
// done (the exact body of the non-streamed call) or error. A client that disconnects aborts the
// model call through an AbortSignal; the service saves what was written, marked interrupted.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { t } from '../../core/i18n.js';
import { HttpError, localisedBody } from '../../core/errors.js';
import { eventText, startEventStream } from '../../http/event-stream.js';
import { requestLocale } from '../../http/i18n.js';
import { agentById } from './agents.js';
import { ChatResponse } from './schemas.js';
import { answer, ChatInterrupted, type AssistantDeps, type ChatTurn } from './service.js';

/** True when the client asks for the answer as an event stream. */
export function wantsEventStream(req: FastifyRequest): boolean {
  const accept = req.headers.accept;
  return typeof accept === 'string' && /(^|,)\s*text\/event-stream\s*(;|,|$)/i.test(accept);
}

export async function streamChat(
  assistant: AssistantDeps,
  turn: ChatTurn,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const locale = requestLocale(req);
  const agent = agentById(turn.request.agent.id);
  const serializeDone = reply.compileSerializationSchema(ChatResponse as unknown as Record<string, unknown>) as (
    body: unknown,
  ) => string;
  const res = startEventStream(reply);
  const send = (event: string, data: string) => res.write(eventText(event, data));

  const left = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) left.abort();
  });
  send(
    'start',
    JSON.stringify({
      conversation_id: turn.conversationId,
      request_id: req.id,
      agent: agent.id,
      agent_name: agent.name[locale],
      agent_icon: agent.icon,
    }),
  );
  try {
    const result = await answer(assistant, turn, {
      signal: left.signal,
      onDelta: (text) => send('delta', JSON.stringify({ text })),
    });
    send(
      'done',
      serializeDone({
        success: true,
        ...result,
        agent_name: agent.name[locale],
        agent_icon: agent.icon,
        request_id: req.id,
      }),
    );
  } catch (error) {
    if (error instanceof ChatInterrupted) {
      req.log.info(
        { conversationId: turn.conversationId },
        'streamed chat: the client left; the partial answer is saved as interrupted',
      );
      return;
    }
    // The response is ours (hijacked): every failure ends it here, with an error event.
    if (error instanceof HttpError) {
      send('error', JSON.stringify(localisedBody(error, locale)));
    } else {
      req.log.error({ err: error }, 'streamed chat failed after it started');
      send(
        'error',
        JSON.stringify({ success: false, message: t(locale, 'assistant.error.server_error'), error: 'server_error' }),
      );
    }
  } finally {
    if (!res.writableEnded) res.end();
  }
}
