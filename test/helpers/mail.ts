// What the tests of inbound mail share (the webhook in test/mail/inbound, the mailbox fetcher in
// test/mail/inbox): an app that takes mail in (a reply key, the trusted verifier, a per-sender
// limit), and a ticket with the facts the corpus writes its mail from.
import { replyAddressFor, threadRootId } from '../../src/modules/tickets/email/addresses.js';
import { TRUSTED_AUTHSERV, type TicketMailFacts } from '../mail/corpus.js';
import { createTicketFor } from '../tickets/helpers.js';
import { buildTestApp, type TestApp } from './app.js';
import type { TestUser } from './factories.js';

/** An app that takes mail in: replies signed with replyKey, the trusted server's verdicts believed. */
export function buildMailApp(replyKey: string, perSenderPerHour: number): Promise<TestApp> {
  return buildTestApp({
    config: {
      MAIL_REPLY_KEY: replyKey,
      MAIL_INBOUND_PER_SENDER_PER_HOUR: perSenderPerHour,
      MAIL_TRUSTED_AUTHSERV_ID: TRUSTED_AUTHSERV,
    },
  });
}

/** A ticket of the owner (a new member, Mina Rahimi, without one) and the facts its mail is written from. */
export async function ticketMailFacts(t: TestApp, owner?: TestUser) {
  const user = owner ?? (await t.makeUser({ firstName: 'Mina', lastName: 'Rahimi' }));
  const ticket = await createTicketFor(t, user, { subject: 'Card declined' });
  const f: TicketMailFacts = {
    code: ticket.tracking_code,
    replyAddress: replyAddressFor(t.config, ticket.tracking_code)!,
    rootId: threadRootId(t.config, ticket.id),
    owner: user.email,
    ownerName: `${user.first_name} ${user.last_name}`,
    support: 'support@platform.local',
  };
  return { user, ticket, f };
}
