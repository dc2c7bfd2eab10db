// Escalation of a conversation to a support ticket, through the tickets service (the assistant
// never writes ticket rows). One ticket per conversation; without a conversation, a new ticket
// each time.
import { msg, ValidationError } from '../../core/errors.js';
import type { AppDeps } from '../../core/deps.js';
import { createTicket } from '../tickets/service.js';
import { findUser, type UserRecord } from '../users/service.js';
import { checkEscalation } from './access.js';
import { agentById, AGENT_IDS, type AgentId } from './agents.js';
import * as repo from './repository.js';
import { conversationTitle } from './text.js';

export const TRANSCRIPT_MESSAGES = 20;

export interface EscalationResult {
  ticketId: number;
  /** false when the conversation had been escalated before and its ticket is returned. */
  created: boolean;
}

function transcript(messages: repo.MessageRow[]): string {
  return messages
    .map((m) => {
      const who =
        m.role === 'user'
          ? 'User'
          : `Assistant (${AGENT_IDS.includes(m.agent as AgentId) ? agentById(m.agent as AgentId).name.en : 'assistant'})`;
      return `[${m.created_at}] ${who}: ${m.content}`;
    })
    .join('\n\n');
}

/** What the escalation functions take: the app's dependencies and the escalations running here. */
export interface EscalationDeps {
  deps: AppDeps;
  // Escalations of one conversation run one after another in this process, so a double click
  // makes one ticket; across instances the row lock in escalateConversation does the same.
  inFlight: Map<number, Promise<EscalationResult>>;
}

/** The escalation state of one app. */
export function escalationDeps(deps: AppDeps): EscalationDeps {
  return { deps, inFlight: new Map() };
}

export async function escalate(
  escalation: EscalationDeps,
  caller: UserRecord | null,
  input: { conversation_id?: number; reason?: string },
): Promise<EscalationResult> {
  const reason = input.reason?.trim() || undefined;
  if (input.conversation_id === undefined) return withoutConversation(escalation, caller, reason);

  const conversation = await repo.findConversation(escalation.deps.db, input.conversation_id);
  if (!conversation) throw new ValidationError({ conversation_id: [msg('assistant.validation.conversation_unknown')] });
  // A signed-in caller may escalate only their own conversation: the transcript goes into the ticket.
  checkEscalation(caller, conversation);
  if (conversation.escalated_ticket_id !== null) return { ticketId: conversation.escalated_ticket_id, created: false };

  const running = escalation.inFlight.get(conversation.id);
  if (running !== undefined) return { ticketId: (await running).ticketId, created: false };
  const work = escalateConversation(escalation, caller, conversation, reason);
  escalation.inFlight.set(conversation.id, work);
  try {
    return await work;
  } finally {
    escalation.inFlight.delete(conversation.id);
  }
}

async function escalateConversation(
  escalation: EscalationDeps,
  caller: UserRecord | null,
  conversation: repo.ConversationRow,
  reason: string | undefined,
): Promise<EscalationResult> {
  const owner = caller ?? (await findUser(escalation.deps.db, conversation.user_id)) ?? null;
  const messages = await repo.recentMessages(escalation.deps.db, conversation.id, TRANSCRIPT_MESSAGES);
  const message = [
    `Escalated from assistant conversation #${conversation.id}.`,
    `Reason: ${reason ?? 'not given'}`,
    messages.length > 0
      ? `Transcript (last ${TRANSCRIPT_MESSAGES} messages):\n\n${transcript(messages)}`
      : 'The conversation has no messages.',
  ].join('\n\n');
  // The conversation row stays locked while its ticket is written: another instance escalating
  // it at the same moment waits, then finds the ticket (no second ticket, no second mail).
  return escalation.deps.db.transaction().execute(async (trx) => {
    const current = await repo.lockConversation(trx, conversation.id, escalation.deps.dialect);
    if (current && current.escalated_ticket_id !== null)
      return { ticketId: current.escalated_ticket_id, created: false };
    const ticket = await createTicket(
      escalation.deps,
      { owner: owner && ownerOf(owner), subject: conversation.title, message, source: 'assistant' },
      trx,
    );
    await repo.setEscalatedTicket(trx, conversation.id, ticket.id);
    return { ticketId: ticket.id, created: true };
  });
}

async function withoutConversation(
  escalation: EscalationDeps,
  caller: UserRecord | null,
  reason: string | undefined,
): Promise<EscalationResult> {
  const subject = reason ? conversationTitle(reason) : 'Escalation from the assistant';
  const message = ['Escalated from the assistant without a conversation.', `Reason: ${reason ?? 'not given'}`].join(
    '\n\n',
  );
  const ticket = await createTicket(escalation.deps, {
    owner: caller && ownerOf(caller),
    subject,
    message,
    source: 'assistant',
  });
  return { ticketId: ticket.id, created: true };
}

function ownerOf(user: UserRecord) {
  return {
    id: user.id,
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    locale: user.locale,
  };
}
