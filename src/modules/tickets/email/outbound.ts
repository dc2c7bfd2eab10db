// The mail a ticket's owner receives besides the confirmation: staff replies and status changes,
// in the owner's language (Persian right to left), as plain text and HTML, threaded under the
// ticket's root Message-ID and answerable at the ticket's signed reply address.
import type { Config } from '../../../config.js';
import { t, type Locale } from '../../../core/i18n.js';
import type { NewMail } from '../../../mail/outbox.js';
import { usersByIds } from '../../users/service.js';
import type { Db, TicketRow } from '../repository.js';
import { newMessageId, replyAddressFor, threadRootId } from './addresses.js';
import './messages.js';

export interface MailRecipient {
  email: string;
  name: string;
  locale: Locale;
}

const PERSIAN_SCRIPT = /[\u0600-\u06ff]/;

/**
 * Who a ticket's mail goes to: its user (their address and language), or the address the ticket
 * was filed under (written to in Persian when the ticket was written in Persian). None: no mail.
 */
export async function recipientOf(db: Db, ticket: TicketRow): Promise<MailRecipient | undefined> {
  if (ticket.user_id !== null) {
    const user = (await usersByIds(db, [ticket.user_id])).get(ticket.user_id);
    if (user) return { email: user.email, name: `${user.first_name} ${user.last_name}`.trim(), locale: user.locale };
  }
  if (!ticket.email) return undefined;
  const locale: Locale = PERSIAN_SCRIPT.test(`${ticket.subject} ${ticket.message}`) ? 'fa' : 'en';
  return { email: ticket.email, name: '', locale };
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The HTML part: the text's paragraphs, right to left in Persian. */
export function htmlOf(locale: Locale, text: string): string {
  const dir = locale === 'fa' ? 'rtl' : 'ltr';
  const paragraphs = text
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
  const align = locale === 'fa' ? 'right' : 'left';
  return (
    `<!doctype html>\n<html lang="${locale}" dir="${dir}"><head><meta charset="utf-8"></head>\n` +
    `<body dir="${dir}" style="text-align:${align}">\n${paragraphs}\n</body></html>\n`
  );
}

interface ThreadedMail {
  config: Config;
  ticket: Pick<TicketRow, 'id' | 'tracking_code' | 'subject'>;
  to: MailRecipient;
  text: string;
  subjectKey: string;
  automatic: boolean;
}

function threaded({ config, ticket, to, text, subjectKey, automatic }: ThreadedMail): NewMail {
  const root = threadRootId(config, ticket.id);
  const params = { code: ticket.tracking_code, subject: ticket.subject.replace(/[\r\n]+/g, ' ') };
  return {
    to: to.email,
    subject: t(to.locale, subjectKey, params),
    text,
    html: htmlOf(to.locale, text),
    messageId: newMessageId(config, ticket.id),
    inReplyTo: root,
    references: [root],
    replyTo: replyAddressFor(config, ticket.tracking_code),
    automatic,
    ticketId: ticket.id,
  };
}

/** A staff reply, as mail to the owner. */
export function staffReplyMail(
  config: Config,
  ticket: Pick<TicketRow, 'id' | 'tracking_code' | 'subject'>,
  to: MailRecipient,
  reply: { message: string; staffName: string },
): NewMail {
  const text = t(to.locale, 'mail.reply.body', {
    name: to.name || to.email,
    message: reply.message,
    staff: reply.staffName,
    code: ticket.tracking_code,
    url: `${config.APP_URL}/tickets/${ticket.id}`,
  });
  return threaded({ config, ticket, to, text, subjectKey: 'mail.reply.subject', automatic: false });
}

/** A status change the owner should know of. */
export function statusMail(
  config: Config,
  ticket: Pick<TicketRow, 'id' | 'tracking_code' | 'subject'>,
  to: MailRecipient,
  status: string,
): NewMail {
  const text = t(to.locale, 'mail.status.body', {
    name: to.name || to.email,
    status: t(to.locale, `mail.status.${status}`),
    code: ticket.tracking_code,
    url: `${config.APP_URL}/tickets/${ticket.id}`,
  });
  return threaded({ config, ticket, to, text, subjectKey: 'mail.status.subject', automatic: true });
}

/**
 * To the address a held message claimed to come from (the owner's or staff's own, never a stranger's):
 * it was not added because its sender could not be confirmed. With reply addresses it says how to
 * write so that it is: answer this mail, whose reply address is the ticket's signed one.
 */
export function heldNoticeMail(
  config: Config,
  ticket: Pick<TicketRow, 'id' | 'tracking_code' | 'subject'>,
  to: MailRecipient,
): NewMail {
  const text = t(to.locale, config.MAIL_REPLY_KEY ? 'mail.held.body' : 'mail.held.body_no_reply', {
    name: to.name || to.email,
    code: ticket.tracking_code,
    url: `${config.APP_URL}/tickets/${ticket.id}`,
  });
  return threaded({ config, ticket, to, text, subjectKey: 'mail.reply.subject', automatic: true });
}
