// A received message as the inbound rules read it, parsed by mailparser (MIME, transfer encodings,
// charsets, encoded words). Messages without a Message-ID get one derived from their bytes, so the
// same message received twice is still recognised.
import { createHash } from 'node:crypto';
import type { AddressObject, Attachment } from 'mailparser';
import type { Locale } from '../../../core/i18n.js';
import { bareAddress } from './addresses.js';
import { newTextOf, textOfHtml } from './strip.js';

/** The language a sender wrote in: Persian when the text has Persian script. */
export const localeOfText = (text: string): Locale => (/[\u0600-\u06ff]/.test(text) ? 'fa' : 'en');

export interface InboundAttachment {
  fileName: string;
  contentType: string;
  content: Buffer;
}

export interface InboundMessage {
  messageId: string;
  /** The sender's bare address, lower-cased; undefined when the From header has none. */
  from?: string;
  fromName: string;
  /** Every recipient address (To, Cc, Delivered-To, X-Original-To), lower-cased. */
  recipients: string[];
  subject: string;
  /** In-Reply-To, then References, newest first. */
  answers: string[];
  /** The new text of the message (quotes and signature removed). */
  text: string;
  /** The whole text as received, for staff. */
  original: string;
  attachments: InboundAttachment[];
  /** Lower-cased header name -> raw value text (first occurrence). */
  header(name: string): string | undefined;
  contentType: string;
  /** A delivery status notification (multipart/report; report-type=delivery-status). */
  isDeliveryReport: boolean;
  receivedCount: number;
  /** Every Authentication-Results header's value, unfolded, topmost (added last) first. */
  authenticationResults: string[];
}

function addressesOf(value: AddressObject | AddressObject[] | undefined): string[] {
  const list = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return list
    .flatMap((a) => a.value.flatMap((v) => [v.address, ...(v.group ?? []).map((g) => g.address)]))
    .filter((a): a is string => !!a)
    .map((a) => a.toLowerCase());
}

function headerText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return headerText(value[0]);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object' && 'value' in value) {
    const v = (value as { value: unknown; params?: Record<string, string> }).value;
    const params = (value as { params?: Record<string, string> }).params ?? {};
    if (typeof v === 'string') return [v, ...Object.entries(params).map(([k, p]) => `${k}=${p}`)].join('; ');
    if (Array.isArray(v)) return (value as { text?: string }).text;
  }
  if (typeof value === 'object' && 'text' in value) return String((value as { text: unknown }).text);
  return String(value);
}

const ids = (value: string | string[] | undefined): string[] =>
  (Array.isArray(value) ? value : value ? value.split(/\s+/) : [])
    .map((v) => v.trim())
    .filter((v) => /^<[^<>\s]+>$/.test(v));

function isKeptAttachment(a: Attachment): boolean {
  // The parts of a delivery report and of a forwarded message's headers are not files of the member.
  return !/^(message\/(delivery-status|rfc822-headers|disposition-notification)|text\/rfc822-headers)$/i.test(
    a.contentType,
  );
}

export async function parseMessage(raw: Buffer): Promise<InboundMessage> {
  // Loaded with the first message, not when the service starts (docs/performance.md, "Startup").
  const { simpleParser } = await import('mailparser');
  const parsed = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true });
  const headers = parsed.headers;
  const from = parsed.from?.value.find((v) => v.address)?.address;
  const messageId =
    parsed.messageId && /^<[^<>\s]{1,250}>$/.test(parsed.messageId)
      ? parsed.messageId
      : `<sha256.${createHash('sha256').update(raw).digest('hex')}@no-message-id>`;
  const recipients = [
    ...addressesOf(parsed.to),
    ...addressesOf(parsed.cc),
    ...['delivered-to', 'x-original-to', 'envelope-to'].flatMap((h) => {
      const v = headerText(headers.get(h));
      return v ? [bareAddress(v)] : [];
    }),
  ];
  const plain = typeof parsed.text === 'string' && parsed.text.trim() !== '' ? parsed.text : undefined;
  const html = typeof parsed.html === 'string' ? parsed.html : undefined;
  const original = plain ?? (html ? textOfHtml(html, false) : '');
  const text = plain ? newTextOf(plain) : html ? newTextOf(textOfHtml(html, true)) : '';
  const contentType = headerText(headers.get('content-type'))?.toLowerCase() ?? 'text/plain';
  const received = headers.get('received');
  return {
    messageId,
    from: from?.toLowerCase(),
    fromName: parsed.from?.value.find((v) => v.address)?.name ?? '',
    recipients: [...new Set(recipients)],
    subject: (parsed.subject ?? '').replace(/[\r\n]+/g, ' ').trim(),
    answers: [...ids(parsed.inReplyTo), ...ids(parsed.references).reverse()],
    text,
    original,
    attachments: parsed.attachments.filter(isKeptAttachment).map((a, i) => ({
      fileName: a.filename ?? `attachment-${i + 1}`,
      contentType: a.contentType,
      content: a.content,
    })),
    header: (name) => headerText(headers.get(name.toLowerCase())),
    contentType,
    isDeliveryReport: contentType.startsWith('multipart/report') && /report-type="?delivery-status/.test(contentType),
    receivedCount: Array.isArray(received) ? received.length : received ? 1 : 0,
    authenticationResults: parsed.headerLines
      .filter((h) => h.key === 'authentication-results')
      .map((h) =>
        h.line
          .replace(/^[^:]*:/, '')
          .replace(/\r?\n[ \t]+/g, ' ')
          .trim(),
      ),
  };
}

/** The Message-IDs a delivery report quotes (of the mail that could not be delivered). */
export function quotedMessageIds(raw: Buffer): string[] {
  const text = raw.toString('latin1');
  const found = new Set<string>();
  for (const match of text.matchAll(/^(?:Original-)?Message-ID:\s*(<[^<>\s]+>)/gim)) found.add(match[1]!);
  return [...found];
}
