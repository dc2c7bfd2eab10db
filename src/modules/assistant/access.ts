// Who may use a conversation: the account that started it. An absent conversation is 404 and
// another account's is 403, as the spec answers them; an escalation by a signed-in caller follows
// the same rule; a caller without a token is not an account, and the rule does not apply to them.
import { forbidden, msg, notFound } from '../../core/errors.js';
import { digitsId } from '../../core/ids.js';

interface Owned {
  user_id: number;
}

/** The rule itself: may this caller use the conversation? */
export function mayUse(caller: { id: number }, conversation: Owned): boolean {
  return conversation.user_id === caller.id;
}

/** The conversation when the caller may use it: 404 when absent, 403 when another account's. */
export function ownConversation<C extends Owned>(caller: { id: number }, conversation: C | undefined): C {
  if (!conversation) throw notFound(msg('assistant.conversation.not_found'));
  if (!mayUse(caller, conversation)) throw forbidden(msg('assistant.conversation.forbidden'));
  return conversation;
}

/** 403 when a signed-in caller names another account's conversation (escalation). */
export function checkEscalation(caller: { id: number } | null, conversation: Owned): void {
  if (caller && !mayUse(caller, conversation)) throw forbidden(msg('assistant.conversation.forbidden'));
}

/** A path id: digits only and within range, else the conversation 404. */
export function conversationId(id: string): number {
  const value = digitsId(id);
  if (value === undefined) throw notFound(msg('assistant.conversation.not_found'));
  return value;
}
