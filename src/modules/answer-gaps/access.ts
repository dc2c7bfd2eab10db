// Who may rate an answer: the member whose conversation it is. Another member's message, a
// member's own message (not an answer) and an unknown id all answer the same 404, so an id says
// nothing about whose it is.
import { msg, notFound } from '../../core/errors.js';

interface RatedMessage {
  user_id: number;
  role: string;
}

/** The rule itself: may this caller rate the message? */
export function mayRate(caller: { id: number }, message: RatedMessage): boolean {
  return message.user_id === caller.id && message.role === 'assistant';
}

/** The message when the caller may rate it, else the assistant's 404. */
export function ratableAnswer<M extends RatedMessage>(caller: { id: number }, message: M | undefined): M {
  if (!message || !mayRate(caller, message)) throw notFound(msg('assistant.message.not_found'));
  return message;
}
