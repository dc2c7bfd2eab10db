// The queue as CSV, streamed: rows are read in id-ordered batches (a keyset, never an offset) and
// each batch is written before the next is read, so memory holds one batch whatever the count.
import type { AppDeps } from '../../core/deps.js';
import { csvLine } from './csv.js';
import { exportBatch, tagsOfTickets, type QueueFilters } from './queue-query.js';
import { peopleOf, queueRowView } from './queue.js';

const BATCH = 1_000;
const HEADER = [
  'id',
  'tracking_code',
  'subject',
  'status',
  'priority',
  'category',
  'tags',
  'member_name',
  'member_email',
  'assignee',
  'sla_status',
  'next_due_at',
  'created_at',
  'updated_at',
  'resolved_at',
];

const name = (p: { first_name: string | null; last_name: string | null } | null) =>
  p ? [p.first_name, p.last_name].filter(Boolean).join(' ') : '';

/** The CSV text, a batch of lines at a time (a byte order mark first, for spreadsheets reading Persian). */
export async function* exportCsv(deps: AppDeps, me: number, filters: QueueFilters): AsyncGenerator<string> {
  yield `\ufeff${csvLine(HEADER)}`;
  const context = { me, nowMs: Date.now() };
  for (let after = 0; ; ) {
    const rows = await exportBatch(deps.db, filters, context, after, BATCH);
    if (rows.length === 0) return;
    const [tags, people] = await Promise.all([
      tagsOfTickets(
        deps.db,
        rows.map((r) => r.id),
      ),
      peopleOf(deps, rows),
    ]);
    let text = '';
    for (const row of rows) {
      const v = queueRowView(row, tags.get(row.id) ?? [], people, context.nowMs);
      text += csvLine([
        v.id,
        v.tracking_code,
        v.subject,
        v.status,
        v.priority,
        v.category,
        v.tags.map((t) => t.name).join('; '),
        name(v.user),
        v.user?.email,
        name(v.assignee),
        v.sla_status,
        v.sla.next_due_at,
        v.created_at,
        row.updated_at,
        row.resolved_at,
      ]);
    }
    yield text;
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1]!.id;
  }
}
