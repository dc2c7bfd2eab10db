// Mail that must never create a ticket or comment, nor get mail back: delivery reports (bounces),
// automatic replies (RFC 3834's Auto-Submitted, Precedence, the X- headers vacation responders
// set, out-of-office subjects), mailing-list traffic, our own mail coming back, and a message
// that has travelled in a loop (too many Received headers).
import type { Config } from '../../../config.js';
import { OWN_MAIL_HEADER } from '../../../mail/transport.js';
import { isOwnAddress, isOwnMessageId } from './addresses.js';
import type { InboundMessage } from './parse.js';

export type Classification =
  | { kind: 'bounce' }
  | { kind: 'ignored'; reason: 'auto_reply' | 'bulk' | 'own_mail' | 'loop' | 'no_sender' }
  | { kind: 'mail' };

const OUT_OF_OFFICE_SUBJECT =
  /^(auto(matic)?[ -]?(reply|response)|auto:|out of (the )?office|abwesenheit|absence|vacation|پاسخ خودکار|خارج از دفتر)/i;
const BOUNCE_SENDER = /^(mailer-daemon|postmaster)@/i;
const MAX_RECEIVED = 25;

export function classify(config: Config, mail: InboundMessage): Classification {
  if (mail.isDeliveryReport) return { kind: 'bounce' };
  if (mail.from && BOUNCE_SENDER.test(mail.from)) return { kind: 'bounce' };
  if (mail.receivedCount > MAX_RECEIVED) return { kind: 'ignored', reason: 'loop' };
  if (mail.header(OWN_MAIL_HEADER) !== undefined || isOwnMessageId(config, mail.messageId))
    return { kind: 'ignored', reason: 'own_mail' };
  if (!mail.from) return { kind: 'ignored', reason: 'no_sender' };
  if (isOwnAddress(config, mail.from)) return { kind: 'ignored', reason: 'own_mail' };
  const autoSubmitted = mail.header('auto-submitted')?.trim().toLowerCase();
  if (autoSubmitted && !autoSubmitted.startsWith('no')) return { kind: 'ignored', reason: 'auto_reply' };
  if (
    mail.header('x-autoreply') !== undefined ||
    mail.header('x-autorespond') !== undefined ||
    mail.header('x-auto-reply') !== undefined ||
    OUT_OF_OFFICE_SUBJECT.test(mail.subject)
  )
    return { kind: 'ignored', reason: 'auto_reply' };
  const precedence = mail.header('precedence')?.trim().toLowerCase();
  if (precedence && /^(bulk|junk|list|auto_reply)/.test(precedence)) return { kind: 'ignored', reason: 'bulk' };
  if (mail.header('list-id') !== undefined || mail.header('list-unsubscribe') !== undefined)
    return { kind: 'ignored', reason: 'bulk' };
  const returnPath = mail.header('return-path');
  if (returnPath !== undefined && /^\s*<\s*>\s*$/.test(returnPath)) return { kind: 'bounce' };
  return { kind: 'mail' };
}
