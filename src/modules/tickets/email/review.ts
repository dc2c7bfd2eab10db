// Staff's side of inbound mail: every message received with what became of it (the original text
// kept), and the decision on mail held for review: accept (it becomes a comment on its ticket) or
// reject (nothing changes; the raw message is dropped).
import type { AppDeps } from '../../../core/deps.js';
import { businessRule, msg, notFound } from '../../../core/errors.js';
import { nowIso } from '../../../db/index.js';
import type { InboundStatus } from '../../../mail/tables.js';
import type { AttachmentStorage } from '../storage/index.js';
import { processInbound } from './inbound.js';
import * as mailRepo from './repository.js';
import './messages.js';

export function listInboundMail(deps: AppDeps, status: InboundStatus | undefined, page: number, perPage: number) {
  return mailRepo.listInbound(deps.db, status, perPage, (page - 1) * perPage);
}

async function heldMessage(deps: AppDeps, id: number) {
  const row = await mailRepo.findInbound(deps.db, id);
  if (!row) throw notFound(msg('mail.held_not_found'));
  if (row.status !== 'held' || !row.raw_message || row.ticket_id === null) throw businessRule(msg('mail.not_held'));
  return row as mailRepo.InboundRow & { raw_message: string; ticket_id: number };
}

const shown = async (deps: AppDeps, id: number) => {
  const { raw_message: _raw, ...row } = (await mailRepo.findInbound(deps.db, id))!;
  return row;
};

export async function acceptHeld(deps: AppDeps, storage: AttachmentStorage, staffId: number, id: number) {
  const row = await heldMessage(deps, id);
  const outcome = await processInbound(deps, storage, Buffer.from(row.raw_message, 'base64'), {
    recordId: row.id,
    acceptedBy: staffId,
    acceptTicketId: row.ticket_id,
  });
  if (outcome.status === 'duplicate') throw businessRule(msg('mail.not_held'));
  await mailRepo.updateInbound(deps.db, row.id, { raw_message: null });
  return shown(deps, row.id);
}

export async function rejectHeld(deps: AppDeps, staffId: number, id: number) {
  const row = await heldMessage(deps, id);
  // Guarded by status: a concurrent accept or reject of the same message wins once.
  const done = await mailRepo.decideHeld(deps.db, row.id, {
    status: 'rejected',
    raw_message: null,
    decided_by: staffId,
    decided_at: nowIso(),
  });
  if (!done) throw businessRule(msg('mail.not_held'));
  return shown(deps, row.id);
}
