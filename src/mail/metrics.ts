// The mail outbox's metrics: mails pending and failed, and the age of the oldest pending one.
import { Gauge } from 'prom-client';
import type { MetricsCollector } from '../core/probes.js';
import { outboxStatusCounts } from './outbox-query.js';

export const mailOutboxMetrics: MetricsCollector = {
  source: 'the mail outbox',
  register(registry, deps) {
    const outbox = new Gauge({
      name: 'mail_outbox_messages',
      help: 'Mails in the outbox by status (pending, failed)',
      labelNames: ['status'] as const,
      registers: [registry],
    });
    const oldest = new Gauge({
      name: 'mail_outbox_oldest_pending_age_seconds',
      help: 'Age of the oldest pending mail (0 when none)',
      registers: [registry],
    });
    return async () => {
      const rows = await outboxStatusCounts(deps.db);
      outbox.set({ status: 'pending' }, 0);
      outbox.set({ status: 'failed' }, 0);
      oldest.set(0);
      for (const row of rows) {
        outbox.set({ status: row.status }, Number(row.n));
        if (row.status === 'pending' && row.oldest)
          oldest.set(Math.max(0, (Date.now() - Date.parse(row.oldest)) / 1000));
      }
    };
  },
};
