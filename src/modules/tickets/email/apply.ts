// The writes of an inbound message. Each outcome is one transaction: the message's record (its
// Message-ID unique, so it is applied at most once), what it changes (a comment, a ticket, a
// bounced outbox row), and, for fetched mail, the mailbox position past it. A process that dies
// before the commit leaves nothing and the message is fetched again; after the commit, the record
// and the position say it was done.
import { t } from '../../../core/i18n.js';
import type { AppDeps } from '../../../core/deps.js';
import { nowIso } from '../../../db/index.js';
import { enqueueMail, type NewMail } from '../../../mail/outbox.js';
import type { InboundStatus } from '../../../mail/tables.js';
import type { UserRecord } from '../../users/service.js';
import { addMemberComment, addStaffReply, type CommentAuthor } from '../changes.js';
import type { Db, TicketRow } from '../repository.js';
import { createFullTicket } from '../service.js';
import type { AttachmentStorage } from '../storage/index.js';
import { keepAttachments, removeKept } from './attachments.js';
import { localeOfText, type InboundMessage } from './parse.js';
import * as mailRepo from './repository.js';

/** What became of an inbound message. */
export interface InboundOutcome {
  status: InboundStatus | 'duplicate';
  reason?: string;
  inbound_id?: number;
  ticket_id?: number;
  comment_id?: number;
}

/** Where a fetched message sits: the mailbox, its UIDVALIDITY and the message's UID. */
export interface InboxPlace {
  mailbox: string;
  uidValidity: string;
  uid: number;
}

interface Base {
  deps: AppDeps;
  mail: InboundMessage;
  raw: Buffer;
  place?: InboxPlace;
  recordId?: number;
}

class AlreadyRecorded extends Error {}

const MAX_COMMENT_CHARS = 10_000;
const MAX_ORIGINAL_CHARS = 1_000_000;
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what PostgreSQL text refuses
const clean = (text: string) => text.replace(/\u0000/g, '');

/** Runs the writes with the record and the mailbox position in one transaction; a repeat is a duplicate. */
async function once(
  base: Base,
  status: InboundStatus,
  fields: Partial<mailRepo.NewInboundRow>,
  keepRaw: boolean,
  writes: (trx: Db, recordId: number) => Promise<Partial<mailRepo.NewInboundRow>>,
): Promise<InboundOutcome> {
  const { deps, mail, place } = base;
  const now = nowIso();
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const row: mailRepo.NewInboundRow = {
        message_id: mail.messageId,
        from_address: mail.from?.slice(0, 255) ?? null,
        subject: clean(mail.subject).slice(0, 255),
        status,
        reason: null,
        ticket_id: null,
        comment_id: null,
        outbox_id: null,
        original_text: clean(mail.original).slice(0, MAX_ORIGINAL_CHARS),
        raw_message: keepRaw ? base.raw.toString('base64') : null,
        created_at: now,
        ...fields,
      };
      let id = base.recordId;
      if (id === undefined) id = await mailRepo.insertInbound(trx, row);
      // A held or deferred message is applied by whoever moves it out of that state first.
      else if (!(await mailRepo.claimWaiting(trx, id, status))) id = undefined;
      if (id === undefined) throw new AlreadyRecorded();
      const more = await writes(trx, id);
      const { message_id: _m, created_at: _c, ...update } = { ...row, ...more };
      await mailRepo.updateInbound(trx, id, update);
      if (place) await mailRepo.advanceInbox(trx, place.mailbox, place.uidValidity, place.uid, now);
      return {
        status,
        inbound_id: id,
        ...(row.reason || more.reason ? { reason: (more.reason ?? row.reason)! } : {}),
        ...((more.ticket_id ?? row.ticket_id) ? { ticket_id: (more.ticket_id ?? row.ticket_id)! } : {}),
        ...(more.comment_id ? { comment_id: more.comment_id } : {}),
      };
    });
  } catch (error) {
    if (!(error instanceof AlreadyRecorded)) throw error;
    await recordOnly({ ...base, status: 'duplicate' });
    return { status: 'duplicate' };
  }
}

/** Records a message that changes no ticket (held, deferred, ignored, a bounce), or only moves past a duplicate. */
export async function recordOnly(
  base: Base & {
    status: InboundStatus | 'duplicate';
    reason?: string;
    ticketId?: number | null;
    bounced?: string[];
    /** Mail telling the sender why their message waits: sent at most once an hour per ticket and address. */
    notice?: NewMail;
  },
): Promise<InboundOutcome> {
  if (base.status === 'duplicate') {
    const { place } = base;
    if (place) await mailRepo.advanceInbox(base.deps.db, place.mailbox, place.uidValidity, place.uid, nowIso());
    return { status: 'duplicate' };
  }
  const keepRaw = base.status === 'held' || base.status === 'deferred';
  return once(
    base,
    base.status,
    { reason: base.reason ?? null, ticket_id: base.ticketId ?? null },
    keepRaw,
    async (trx, recordId) => {
      const { notice } = base;
      if (notice && base.ticketId) {
        const since = new Date(Date.now() - 3_600_000).toISOString();
        const told = await mailRepo.noticesSince(trx, base.ticketId, notice.to, since, recordId);
        if (told === 0) await enqueueMail(trx, notice);
      }
      if (base.status !== 'bounce') return {};
      const reason = base.mail.header('x-failed-recipients') ?? base.mail.subject;
      const outboxId = await mailRepo.markBounced(trx, base.bounced ?? [], `bounced: ${reason}`, nowIso());
      return { outbox_id: outboxId ?? null, reason: outboxId ? 'outbox_bounced' : 'unknown_original' };
    },
  );
}

/** The comment's text: the new text, the notes on refused files, within the comment limit. */
function commentText(mail: InboundMessage, notes: string[]): string {
  const body = clean(mail.text || mail.original).trim() || mail.subject || '-';
  const text = [body, ...notes].join('\n\n');
  return text.length > MAX_COMMENT_CHARS ? `${text.slice(0, MAX_COMMENT_CHARS - 2)} …` : text;
}

export async function applyComment(
  base: Base & {
    storage: AttachmentStorage;
    ticket: TicketRow;
    user: UserRecord | undefined;
    staff: boolean;
    acceptedBy?: number;
  },
): Promise<InboundOutcome> {
  const { deps, mail, storage, ticket, user, staff } = base;
  const files = await keepAttachments(storage, mail.attachments, localeOfText(mail.original));
  const author: CommentAuthor = user ?? {
    id: null,
    email: mail.from!,
    is_admin: false,
    first_name: mail.fromName,
    last_name: '',
  };
  const accepted = base.acceptedBy !== undefined;
  try {
    const outcome = await once(
      base,
      accepted ? 'accepted' : 'comment',
      { ticket_id: ticket.id, ...(accepted ? { decided_by: base.acceptedBy, decided_at: nowIso() } : {}) },
      false,
      async (trx) => {
        const text = commentText(mail, files.notes);
        const comment = staff
          ? await addStaffReply(deps, author, ticket, text, files.stored, { inTransaction: trx })
          : await addMemberComment(deps, author, ticket, text, files.stored, { inTransaction: trx });
        return { comment_id: comment.id };
      },
    );
    if (outcome.status === 'duplicate') await removeKept(storage, files.stored);
    return outcome;
  } catch (error) {
    await removeKept(storage, files.stored);
    throw error;
  }
}

export async function applyNewTicket(
  base: Base & { storage: AttachmentStorage; user: UserRecord | undefined },
): Promise<InboundOutcome> {
  const { deps, mail, storage, user } = base;
  const locale = user?.locale ?? localeOfText(mail.original);
  const files = await keepAttachments(storage, mail.attachments, locale);
  const subject = clean(mail.subject).slice(0, 255) || t(locale, 'mail.no_subject');
  try {
    const outcome = await once(base, 'ticket', {}, false, async (trx) => {
      const ticket = await createFullTicket(
        deps,
        {
          owner: user ?? null,
          mailOwner: user ? undefined : { email: mail.from!, name: mail.fromName, locale },
          subject,
          message: commentText(mail, files.notes),
          source: 'email',
          attachments: files.stored,
          answers: mail.messageId,
        },
        trx,
      );
      return { ticket_id: ticket.id };
    });
    if (outcome.status === 'duplicate') await removeKept(storage, files.stored);
    return outcome;
  } catch (error) {
    await removeKept(storage, files.stored);
    throw error;
  }
}
