// The confirmation email of a new ticket, in the owner's language.
import type { Config } from '../../config.js';
import { t, type Locale } from '../../core/i18n.js';
import type { NewMail } from '../../mail/outbox.js';
import { replyAddressFor, threadRootId } from './email/addresses.js';
import { htmlOf } from './email/outbound.js';
import { formatMoment } from './calendar/dates.js';
import './messages.js';

export interface ConfirmationFacts {
  id: number;
  tracking_code: string;
  subject: string;
  priority: string;
  sla_deadline: string;
  owner: { email: string; first_name: string; last_name: string; locale?: Locale };
  /** The member's mail that opened the ticket, when it came by mail: the confirmation answers it. */
  answers?: string;
}

export function confirmationMail(config: Config, ticket: ConfirmationFacts): NewMail {
  const locale = ticket.owner.locale ?? 'en';
  const params = {
    name: `${ticket.owner.first_name} ${ticket.owner.last_name}`.trim() || ticket.owner.email,
    code: ticket.tracking_code,
    // The body is plain text: a subject cannot inject markup, only line breaks, which are folded.
    subject: ticket.subject.replace(/[\r\n]+/g, ' '),
    priority: ticket.priority,
    // Jalali with Persian digits in fa, Gregorian in en, in the SLA zone.
    deadline: formatMoment(ticket.sla_deadline, locale, config.SLA_TIMEZONE),
    url: `${config.APP_URL}/tickets/${ticket.id}`,
  };
  const text = t(locale, 'tickets.mail.body', params);
  return {
    to: ticket.owner.email,
    subject: t(locale, 'tickets.mail.subject', params),
    text,
    html: htmlOf(locale, text),
    // The root of the ticket's thread: every later mail of the ticket answers this id.
    messageId: threadRootId(config, ticket.id),
    ...(ticket.answers ? { inReplyTo: ticket.answers, references: [ticket.answers] } : {}),
    replyTo: replyAddressFor(config, ticket.tracking_code),
    automatic: true,
    ticketId: ticket.id,
  };
}
