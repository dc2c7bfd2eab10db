// The addresses and ids of a ticket's mail. A reply address names the ticket and carries a keyed
// signature (HMAC-SHA256 of the tracking code, MAIL_REPLY_KEY), so knowing one ticket's code is not
// enough to write into it by address. Message-IDs are fixed when a mail is written; every mail of a
// ticket answers the thread's root <ticket-ID@domain> (the confirmation's own id), which is what
// Gmail, Outlook and Apple Mail group a conversation by.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../../config.js';

/** The bare address in "Name <a@b>" or "a@b", lower-cased. */
export function bareAddress(value: string): string {
  const match = /<([^<>]+)>\s*$/.exec(value);
  return (match ? match[1]! : value).trim().toLowerCase();
}

export function replyDomain(config: Config): string {
  if (config.MAIL_REPLY_DOMAIN) return config.MAIL_REPLY_DOMAIN;
  const from = bareAddress(config.MAIL_FROM);
  return from.slice(from.lastIndexOf('@') + 1) || 'platform.local';
}

const SIGNATURE_CHARS = 12;

function signatureOf(key: string, code: string): string {
  return createHmac('sha256', key).update(code.toUpperCase()).digest('hex').slice(0, SIGNATURE_CHARS);
}

/** support+tk-ab12cd34.<signature>@domain, or undefined without MAIL_REPLY_KEY. */
export function replyAddressFor(config: Config, trackingCode: string): string | undefined {
  if (!config.MAIL_REPLY_KEY) return undefined;
  const code = trackingCode.toLowerCase();
  return `${config.MAIL_REPLY_MAILBOX}+${code}.${signatureOf(config.MAIL_REPLY_KEY, code)}@${replyDomain(config)}`;
}

/** The tracking code of a correctly signed reply address of ours; undefined for any other address. */
export function trackingCodeOfAddress(config: Config, address: string): string | undefined {
  if (!config.MAIL_REPLY_KEY) return undefined;
  const bare = bareAddress(address);
  const at = bare.lastIndexOf('@');
  if (at < 0 || bare.slice(at + 1) !== replyDomain(config)) return undefined;
  const prefix = `${config.MAIL_REPLY_MAILBOX.toLowerCase()}+`;
  const local = bare.slice(0, at);
  if (!local.startsWith(prefix)) return undefined;
  const match = /^(tk-[a-z0-9]{8})\.([a-f0-9]+)$/.exec(local.slice(prefix.length));
  if (!match) return undefined;
  const expected = Buffer.from(signatureOf(config.MAIL_REPLY_KEY, match[1]!));
  const given = Buffer.from(match[2]!);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return match[1]!.toUpperCase();
}

/** Our support addresses: MAIL_FROM's and the bare reply mailbox. Mail from them is our own. */
export function isOwnAddress(config: Config, address: string): boolean {
  const bare = bareAddress(address);
  if (bare === bareAddress(config.MAIL_FROM)) return true;
  const domain = replyDomain(config);
  const local = bare.slice(0, bare.lastIndexOf('@'));
  const mailbox = config.MAIL_REPLY_MAILBOX.toLowerCase();
  return bare.endsWith(`@${domain}`) && (local === mailbox || local.startsWith(`${mailbox}+`));
}

/** The root of a ticket's thread: the confirmation mail's Message-ID. */
export function threadRootId(config: Config, ticketId: number): string {
  return `<ticket-${ticketId}@${replyDomain(config)}>`;
}

/** A new Message-ID for a later mail of the ticket. */
export function newMessageId(config: Config, ticketId: number): string {
  return `<ticket-${ticketId}.${Date.now().toString(36)}.${randomBytes(6).toString('hex')}@${replyDomain(config)}>`;
}

/** Whether a Message-ID is one of the ids we give our mail (our domain, our ticket- prefix). */
export function isOwnMessageId(config: Config, messageId: string): boolean {
  return /^<ticket-\d+[^@]*@/.test(messageId) && messageId.endsWith(`@${replyDomain(config)}>`);
}
