// Data for the console's browser tests, made the way members and staff make it: tickets and
// comments through the service's API (attachments as multipart uploads), tags in the database as
// the CLI makes them.
import { makeTag } from '../helpers/factories.js';
import { multipart } from '../helpers/multipart.js';
import { PNG, PDF } from '../tickets/helpers.js';
import { apiAs, type ConsoleServer, type Staff } from './browser.js';

export interface TicketSeed {
  subject: string;
  message: string;
  priority?: 'low' | 'normal' | 'high';
  category?: string;
  tags?: number[];
  files?: { name: string; type: string; content: Buffer }[];
}

/** A ticket filed by the member through POST /api/tickets; returns its id and tracking code. */
export async function fileTicket(server: ConsoleServer, member: Staff, seed: TicketSeed) {
  const fields: Array<[string, string]> = [
    ['subject', seed.subject],
    ['message', seed.message],
  ];
  if (seed.priority) fields.push(['priority', seed.priority]);
  if (seed.category) fields.push(['category', seed.category]);
  for (const tag of seed.tags ?? []) fields.push(['tags[]', String(tag)]);
  // A browser percent-encodes the quote and line breaks of a file name in Content-Disposition.
  const files = seed.files?.map((f) => ({
    ...f,
    name: f.name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A'),
  }));
  const form = multipart(fields, files);
  const answer = await apiAs<{ data: { id: number; tracking_code: string } }>(
    server.url,
    member,
    'POST',
    '/api/tickets',
    form,
  );
  if (answer.status !== 201) throw new Error(`ticket not filed: ${answer.status} ${JSON.stringify(answer.json)}`);
  return answer.json.data;
}

export async function memberComment(
  server: ConsoleServer,
  member: Staff,
  ticketId: number,
  message: string,
  files: TicketSeed['files'] = [],
) {
  const form = multipart([['message', message]], files);
  const answer = await apiAs(server.url, member, 'POST', `/api/tickets/${ticketId}/comments`, form);
  if (answer.status !== 201) throw new Error(`comment not added: ${answer.status} ${JSON.stringify(answer.json)}`);
}

/** A small, ordinary queue: a few members, tickets of each priority, a reply, an assignment. */
export async function seedQueue(server: ConsoleServer, staff: Staff) {
  const billing = (await makeTag(server.database.db, 'billing')).id;
  const urgent = (await makeTag(server.database.db, 'urgent')).id;
  const ada = await server.makeMember({ firstName: 'Ada', lastName: 'Lovelace' });
  const reza = await server.makeMember({ firstName: 'رضا', lastName: 'محمدی' });
  const first = await fileTicket(server, ada, {
    subject: 'Cannot withdraw my dividend',
    message: 'The withdraw button stays grey since yesterday. Screenshot attached.',
    priority: 'high',
    category: 'payments',
    tags: [billing, urgent],
    files: [
      { name: 'screen.png', type: 'image/png', content: PNG },
      { name: 'statement.pdf', type: 'application/pdf', content: PDF },
    ],
  });
  await memberComment(server, ada, first.id, 'It still happens this morning, on the phone too.');
  const second = await fileTicket(server, reza, {
    subject: 'تغییر شماره تلفن همراه',
    message: 'لطفاً شماره تلفن همراه حساب من را تغییر دهید.',
    priority: 'normal',
    category: 'account',
  });
  await apiAs(server.url, staff, 'POST', `/api/admin/tickets/${second.id}/comments`, {
    message: 'We changed it; please sign in again to confirm.',
  });
  await apiAs(server.url, staff, 'PUT', `/api/admin/tickets/${first.id}`, { assignee_id: staff.id });
  const third = await fileTicket(server, ada, {
    subject: 'Question about the project report',
    message: 'Where can I read the quarterly report of my project?',
    priority: 'low',
  });
  await apiAs(server.url, staff, 'PUT', `/api/admin/tickets/${third.id}`, { status: 'closed' });
  await apiAs(server.url, ada, 'POST', '/api/assistant/feedback', {
    type: 'improvement',
    subject: 'The assistant should know about dividends',
    content: 'It could not tell me when the dividend is paid; a person answered within the hour.',
    rating: 3,
  });
  await apiAs(server.url, reza, 'POST', '/api/assistant/feedback', {
    type: 'praise',
    subject: 'پاسخ سریع',
    content: 'دستیار خیلی سریع به پرسش من دربارهٔ تغییر شماره پاسخ داد.',
    rating: 5,
  });
  return { ada, reza, first, second, third, tags: { billing, urgent } };
}
