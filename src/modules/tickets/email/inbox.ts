// The tickets' side of the mailbox fetcher (mail/imap-fetcher.ts): each fetched message goes
// through processInbound with its place in the mailbox, so the new position is written in the
// transaction that applies the message.
import type { AppDeps } from '../../../core/deps.js';
import { nowIso } from '../../../db/index.js';
import type { InboxHandler } from '../../../mail/imap-fetcher.js';
import type { AttachmentStorage } from '../storage/index.js';
import { processInbound } from './inbound.js';
import * as mailRepo from './repository.js';

export function inboxHandler(deps: AppDeps, storage: AttachmentStorage): InboxHandler {
  return {
    async position(mailbox) {
      const state = await mailRepo.inboxState(deps.db, mailbox);
      return state && { uidValidity: state.uid_validity, lastUid: state.last_uid };
    },
    async process(raw, place) {
      await processInbound(deps, storage, raw, { place });
    },
    async skip(place) {
      await mailRepo.advanceInbox(deps.db, place.mailbox, place.uidValidity, place.uid, nowIso());
    },
  };
}

export { releaseDeferred } from './inbound.js';
