// Inbound mail in the background, in instances that start workers: the mailbox fetcher when
// MAIL_INBOX_URL is set (one instance fetches at a time: mail/imap-fetcher.ts), and a pass every
// minute over messages deferred by the per-sender limit. Both stop before the database closes.
import fp from 'fastify-plugin';
import { inboundMailMessages } from '../http/metrics.js';
import { InboxFetcher } from '../mail/imap-fetcher.js';
import { inboxHandler, releaseDeferred } from '../modules/tickets/email/inbox.js';

const DEFERRED_PASS_MS = 60_000;

export default fp(
  async (app) => {
    const { deps } = app;
    if (!deps.startWorkers) return;
    const storage = app.attachmentStorage;
    const fetcher = deps.config.MAIL_INBOX_URL
      ? new InboxFetcher(deps.db, deps.config.MAIL_INBOX_URL, inboxHandler(deps, storage), app.log, {
          count: (outcome) => inboundMailMessages.inc({ outcome }),
          leaseMs: deps.config.MAIL_INBOX_LEASE_SECONDS * 1000,
        })
      : undefined;
    let pass: Promise<unknown> | undefined;
    const timer = setInterval(() => {
      if (pass !== undefined) return;
      pass = releaseDeferred(deps, storage)
        .catch((err: unknown) => app.log.warn({ err }, 'deferred inbound mail pass failed'))
        .finally(() => (pass = undefined));
    }, DEFERRED_PASS_MS);
    timer.unref();
    app.addHook('onReady', async () => fetcher?.start());
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await fetcher?.stop();
      await pass;
    });
  },
  { name: 'mail-inbox', dependencies: ['deps', 'attachment-storage'] },
);
