// Where outgoing mail goes: the SMTP server of SMTP_URL, or, without one, an .eml file per
// message under DATA_DIR/mail (development and tests without a mail server).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Transporter, TransportOptions } from 'nodemailer';
import type { Config } from '../config.js';

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  messageId?: string | null;
  inReplyTo?: string | null;
  /** Message-IDs separated by spaces. */
  references?: string | null;
  replyTo?: string | null;
  automatic?: boolean;
}

/** Every mail we send names its kind, so a copy of it coming back in is recognised as ours. */
export const OWN_MAIL_HEADER = 'X-Platform-Mail';

/** nodemailer's options for one mail, threading headers included when present. */
function messageOptions(mail: OutgoingMail) {
  return {
    from: mail.from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html ?? undefined,
    messageId: mail.messageId ?? undefined,
    inReplyTo: mail.inReplyTo ?? undefined,
    references: mail.references ?? undefined,
    replyTo: mail.replyTo ?? undefined,
    headers: {
      [OWN_MAIL_HEADER]: mail.automatic ? 'automatic' : 'reply',
      ...(mail.automatic ? { 'Auto-Submitted': 'auto-generated' } : {}),
    },
  };
}

export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

const SMTP_TIMEOUT_MS = 10_000;

/**
 * A nodemailer transporter made on the first mail: the library is loaded then, not when the
 * service starts (docs/performance.md, "Startup").
 */
function onFirstMail(make: (mailer: typeof import('nodemailer')) => Transporter) {
  let transporter: Promise<Transporter> | undefined;
  return {
    get: () => {
      transporter ??= import('nodemailer').then((module) => make(module.default));
      return transporter;
    },
    close: () => void transporter?.then((made) => made.close()),
  };
}

export function smtpTransport(url: string): MailTransport {
  const transporter = onFirstMail((mailer) =>
    mailer.createTransport(url, {
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
    } as TransportOptions),
  );
  return {
    async send(mail) {
      await (await transporter.get()).sendMail(messageOptions(mail));
    },
    close: transporter.close,
  };
}

export function fileTransport(folder: string): MailTransport {
  const builder = onFirstMail((mailer) =>
    mailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
  );
  return {
    async send(mail) {
      const info = await (await builder.get()).sendMail(messageOptions(mail));
      await fs.mkdir(folder, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      // Written under a temporary name first so a reader never sees half a message.
      const temp = path.join(folder, `.${name}.tmp`);
      await fs.writeFile(temp, info.message as Buffer);
      await fs.rename(temp, path.join(folder, name));
    },
    close: builder.close,
  };
}

export function transportFor(config: Config): MailTransport {
  return config.SMTP_URL ? smtpTransport(config.SMTP_URL) : fileTransport(path.join(config.DATA_DIR, 'mail'));
}
