// One message in, whichever way it came (the webhook or the IMAP fetcher): recorded once by its
// Message-ID, with what became of it. A message is matched to a ticket by our signed reply address,
// then by In-Reply-To/References against the Message-IDs of the ticket's mail, then by the tracking
// code in its subject. The ticket's owner (user or address, the spec's rule) and staff add a
// comment when their From can be believed (authentication.ts); anyone else's message, and a From
// that cannot be believed, is held for staff. No ticket: a new one for the sender. Bounces,
// automatic replies and our own mail change nothing but their record (and the bounced outbox row).
import type { AppDeps } from '../../../core/deps.js';
import { businessRule, msg } from '../../../core/errors.js';
import { isStaffRole, userByEmail, type UserRecord } from '../../users/service.js';
import { owns } from '../access.js';
import type { TicketRow } from '../repository.js';
import type { AttachmentStorage } from '../storage/index.js';
import { trackingCodeOfAddress } from './addresses.js';
import { applyComment, applyNewTicket, recordOnly, type InboundOutcome, type InboxPlace } from './apply.js';
import { senderVerdict } from './authentication.js';
import { classify } from './classify.js';
import { heldNoticeMail } from './outbound.js';
import { localeOfText, parseMessage, quotedMessageIds, type InboundMessage } from './parse.js';
import * as mailRepo from './repository.js';

export type { InboundOutcome, InboxPlace } from './apply.js';

interface Match {
  ticket: TicketRow;
  /** Through our signed reply address (a secret only the ticket's mail carries), or headers/subject. */
  signed: boolean;
}

/** The ticket a message belongs to, by the three rules in order. */
async function matchTicket(deps: AppDeps, mail: InboundMessage): Promise<Match | undefined> {
  for (const address of mail.recipients) {
    const code = trackingCodeOfAddress(deps.config, address);
    const ticket = code ? await mailRepo.ticketByCode(deps.db, code) : undefined;
    if (ticket) return { ticket, signed: true };
  }
  const threadTicket = await mailRepo.ticketIdOfMessageIds(deps.db, mail.answers);
  if (threadTicket !== undefined) {
    const ticket = await mailRepo.ticketById(deps.db, threadTicket);
    if (ticket) return { ticket, signed: false };
  }
  const code = /\bTK-[A-Z0-9]{8}\b/i.exec(mail.subject)?.[0];
  const ticket = code ? await mailRepo.ticketByCode(deps.db, code.toUpperCase()) : undefined;
  return ticket && { ticket, signed: false };
}

/**
 * Whether the claimed sender may be believed: the trusted receiving server vouches for the From,
 * or, without its verdict, the message came to the signed reply address. A From alone (a guessable
 * thread id or a tracking code in the subject) is never enough, nor anything the server calls forged.
 */
function believable(deps: AppDeps, mail: InboundMessage, signed: boolean): boolean {
  const verdict = senderVerdict(deps.config, mail);
  return verdict === 'pass' || (verdict === 'none' && signed);
}

/** Who may write into the ticket by mail: its owner (by user or address) or staff. */
function writerOf(ticket: TicketRow, from: string, user: UserRecord | undefined) {
  // Staff by the same rule as the staff routes: the support and admin roles.
  if (user && isStaffRole(user)) return { staff: true };
  if (user && owns(user, ticket)) return { staff: false };
  if (ticket.email !== null && ticket.email === from) return { staff: false };
  return undefined;
}

export interface ProcessOptions {
  /** Where the message sits in the fetched mailbox: the position moves past it in the same transaction. */
  place?: InboxPlace;
  /** Re-processing a deferred message: its record is updated instead of inserted. */
  recordId?: number;
  /** Staff accepted the held message: it becomes a comment on this ticket, whoever sent it. */
  acceptedBy?: number;
  acceptTicketId?: number;
}

export async function processInbound(
  deps: AppDeps,
  storage: AttachmentStorage,
  raw: Buffer,
  options: ProcessOptions = {},
): Promise<InboundOutcome> {
  const mail = await parseMessage(raw);
  const base = { deps, mail, raw, place: options.place, recordId: options.recordId };
  if (options.recordId === undefined && (await mailRepo.inboundExists(deps.db, mail.messageId))) {
    await recordOnly({ ...base, status: 'duplicate' });
    return { status: 'duplicate' };
  }
  const kind = classify(deps.config, mail);
  if (kind.kind === 'bounce') {
    const quoted = quotedMessageIds(raw).filter((id) => id !== mail.messageId);
    return recordOnly({ ...base, status: 'bounce', bounced: quoted });
  }
  if (kind.kind === 'ignored') return recordOnly({ ...base, status: 'ignored', reason: kind.reason });
  const from = mail.from!;
  const user = await userByEmail(deps.db, from);
  const match: Match | undefined =
    options.acceptTicketId !== undefined
      ? await mailRepo.ticketById(deps.db, options.acceptTicketId).then((ticket) => ticket && { ticket, signed: true })
      : await matchTicket(deps, mail);
  if (options.acceptTicketId !== undefined && !match) throw businessRule(msg('mail.held_ticket_gone'));
  const ticket = match?.ticket;
  const writer = ticket
    ? options.acceptedBy !== undefined
      ? { staff: false }
      : writerOf(ticket, from, user)
    : undefined;
  if (ticket && !writer) return recordOnly({ ...base, status: 'held', reason: 'not_owner', ticketId: ticket.id });
  if (match && options.acceptedBy === undefined && !believable(deps, mail, match.signed)) {
    // The sender is told (at their address, the owner's or staff's own) why nothing was added.
    const notice = heldNoticeMail(deps.config, match.ticket, {
      email: from,
      name: user ? `${user.first_name} ${user.last_name}`.trim() : mail.fromName,
      locale: user?.locale ?? localeOfText(mail.original),
    });
    return recordOnly({ ...base, status: 'held', reason: 'unverified_sender', ticketId: match.ticket.id, notice });
  }
  // Flooding is slowed, not lost: over the hourly limit the message waits, deferred, for a later pass.
  if (!writer?.staff && options.acceptedBy === undefined) {
    const since = new Date(Date.now() - 3_600_000).toISOString();
    const applied = await mailRepo.appliedSince(deps.db, from, since);
    if (applied >= deps.config.MAIL_INBOUND_PER_SENDER_PER_HOUR)
      return recordOnly({ ...base, status: 'deferred', reason: 'rate_limited', ticketId: ticket?.id ?? null });
  }
  if (ticket && writer)
    return applyComment({ ...base, storage, ticket, user, staff: writer.staff, acceptedBy: options.acceptedBy });
  return applyNewTicket({ ...base, storage, user });
}

/** Applies deferred messages whose senders are under their limit again; returns how many were applied. */
export async function releaseDeferred(deps: AppDeps, storage: AttachmentStorage, limit = 50): Promise<number> {
  let applied = 0;
  for (const row of await mailRepo.deferredMessages(deps.db, limit)) {
    if (!row.raw_message) continue;
    const outcome = await processInbound(deps, storage, Buffer.from(row.raw_message, 'base64'), { recordId: row.id });
    if (outcome.status !== 'deferred') applied++;
  }
  return applied;
}
