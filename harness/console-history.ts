// A support team's recent past, written straight into a database: members (English and Persian
// names), a few weeks of tickets of every priority and category with the member's message, the
// staff reply at the first response, resolutions on time and late, assignments and tags. The
// console's report and queue pages then have something true to show (the browser tests and the
// README's screenshots). The same seed gives the same rows: a small LCG, no Math.random.
import type { Kysely } from 'kysely';
import type { Database } from '../src/db/schema.js';
import { firstResponseDeadlineFor, slaDeadlineFor } from '../src/modules/tickets/sla.js';
import type { TicketPriority } from '../src/modules/tickets/tables.js';
import { makeUser } from './users.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const MEMBERS: Array<[string, string, 'en' | 'fa', string]> = [
  ['Ada', 'Lovelace', 'en', 'ada.lovelace'],
  ['رضا', 'محمدی', 'fa', 'reza.mohammadi'],
  ['Maryam', 'Hosseini', 'en', 'maryam.h'],
  ['نگار', 'احمدی', 'fa', 'negar.ahmadi'],
  ['James', 'Carter', 'en', 'jcarter'],
  ['علی', 'رضایی', 'fa', 'ali.rezaei'],
  ['Leila', 'Karimi', 'en', 'leila.karimi'],
  ['سارا', 'جعفری', 'fa', 'sara.jafari'],
];

/** Subject, first message, category: what members of an investment platform write about. */
const TOPICS: Array<[string, string, string]> = [
  ['When is the dividend of my project paid?', 'The report said this month but nothing has arrived yet.', 'payments'],
  [
    'Withdrawal still pending after three days',
    'I asked to withdraw my balance on Saturday; it still says pending.',
    'payments',
  ],
  ['واریز سود پروژه انجام نشده', 'سود پروژهٔ من طبق گزارش باید این هفته واریز می‌شد.', 'payments'],
  ['Change the bank account for payouts', 'Please use my new IBAN for future payouts.', 'account'],
  ['تغییر شماره تلفن همراه', 'لطفاً شماره تلفن همراه حساب من را تغییر دهید.', 'account'],
  ['Cannot sign in with the code by SMS', 'The code never arrives on my phone.', 'account'],
  ['Where is the quarterly report of my project?', 'I cannot find the report for the last quarter.', 'projects'],
  ['گزارش پیشرفت پروژه', 'گزارش پیشرفت سه ماه اخیر پروژه را کجا ببینم؟', 'projects'],
  ['Investment certificate has a wrong name', 'My name is misspelled on the certificate.', 'projects'],
  ['The app closes when I open my portfolio', 'Android 14, it closes right after the splash screen.', 'technical'],
  ['صفحهٔ سرمایه‌گذاری باز نمی‌شود', 'در مرورگر کروم صفحه سفید می‌ماند.', 'technical'],
  ['Two-factor authentication reset', 'I changed phones and lost my authenticator app.', 'account'],
];

const REPLIES = [
  'Thank you for writing; we checked it and it is fixed now.',
  'We forwarded this to the finance team; you will hear from us within a day.',
  'با سپاس از پیام شما؛ موضوع بررسی و برطرف شد.',
];

export interface HistoryOptions {
  /** Staff member ids the tickets are assigned to and answered by. */
  staffIds: number[];
  /** How many days back (default 42) and tickets per day on average (default 6). */
  days?: number;
  perDay?: number;
  now?: number;
  /** Tag ids to spread over the tickets. */
  tagIds?: number[];
}

/** Writes the history; returns the members made and the number of tickets. */
export async function seedSupportHistory(db: Kysely<Database>, options: HistoryOptions) {
  const now = options.now ?? Date.now();
  const days = options.days ?? 42;
  const perDay = options.perDay ?? 6;
  let state = 42;
  const next = (below: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    // The high bits: an LCG's low bits repeat with a short period.
    return Math.floor((state / 2_147_483_648) * below);
  };
  const members = [];
  for (const [first, last, locale, mailbox] of MEMBERS)
    members.push(await makeUser(db, { firstName: first, lastName: last, locale, email: `${mailbox}@example.net` }));
  const iso = (ms: number) => new Date(ms).toISOString();
  let count = 0;
  for (let day = days; day >= 0; day -= 1) {
    // Fewer tickets at weekends (Friday in Iran, Saturday and Sunday elsewhere).
    const weekday = new Date(now - day * DAY).getUTCDay();
    const today = Math.max(1, perDay - (weekday === 5 || weekday === 6 ? 3 : 0) + next(4) - 2);
    for (let i = 0; i < today; i += 1) {
      const created = now - day * DAY - next(20) * HOUR - next(3_600) * 1000;
      if (created > now - 10 * 60_000) continue;
      const member = members[next(members.length)]!;
      // Members write in their own language.
      const topics = TOPICS.filter(([subject]) => /[\u0600-\u06ff]/.test(subject) === (member.locale === 'fa'));
      const [subject, message, category] = topics[next(topics.length)]!;
      const priority = (['low', 'normal', 'normal', 'high'] as TicketPriority[])[next(4)]!;
      const createdAt = iso(created);
      const firstDue = firstResponseDeadlineFor(priority, createdAt);
      const resolutionDue = slaDeadlineFor(priority, createdAt);
      const windowMs = Date.parse(firstDue) - created;
      // Most answers come in time; about one in six late.
      const answeredAt = created + (next(6) === 0 ? windowMs * 1.5 : windowMs * (0.1 + next(80) / 100));
      const answered = answeredAt < now;
      const resolveWindow = Date.parse(resolutionDue) - created;
      const resolvedAt = created + (next(5) === 0 ? resolveWindow * 1.4 : resolveWindow * (0.2 + next(70) / 100));
      // Older tickets are nearly all closed; the open queue is mostly this week's.
      const closed = resolvedAt < now && (day > 6 ? next(200) > 0 : next(3) > 0);
      const staffId = options.staffIds[next(options.staffIds.length)]!;
      const status = closed ? 'closed' : answered ? 'in-progress' : 'open';
      const ticket = await db
        .insertInto('tickets')
        .values({
          tracking_code: `TK-H${String(count).padStart(7, '0')}`,
          user_id: member.id,
          email: member.email,
          subject,
          message,
          status,
          priority,
          category,
          source: 'api',
          assignee_id: answered || next(3) === 0 ? staffId : null,
          sla_deadline: resolutionDue,
          first_response_due_at: firstDue,
          first_response_at: answered ? iso(answeredAt) : null,
          resolved_at: closed ? iso(resolvedAt) : null,
          created_at: createdAt,
          updated_at: iso(closed ? resolvedAt : answered ? answeredAt : created),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (answered)
        await db
          .insertInto('ticket_comments')
          .values({
            ticket_id: ticket.id,
            user_id: staffId,
            message: REPLIES[next(REPLIES.length)]!,
            is_staff: 1,
            created_at: iso(answeredAt),
          })
          .execute();
      const tags = options.tagIds ?? [];
      if (tags.length && next(3) === 0)
        await db
          .insertInto('ticket_tag')
          .values({ ticket_id: ticket.id, tag_id: tags[next(tags.length)]! })
          .execute();
      count += 1;
    }
  }
  return { members, tickets: count };
}
