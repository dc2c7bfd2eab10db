// A client developer's flow with openapi-typescript + openapi-fetch: sign in with a token, list
// provinces, open a ticket, read it, filter by its own priority, chat. Compiled with --strict and
// no cast by test/openapi/clients.test.ts, then run against a real server.
import createClient from 'openapi-fetch';
import type { components, paths } from './generated/openapi-typescript/schema';

const api = createClient<paths>({
  baseUrl: process.env.SERVER_URL,
  headers: { authorization: `Bearer ${process.env.API_TOKEN}` },
});

function check(condition: unknown, what: string): asserts condition {
  if (!condition) throw new Error(`openapi-fetch flow: ${what}`);
}

const provinces = await api.GET('/api/provinces');
check(provinces.data && provinces.data.data.length > 0, 'provinces');
const province: string = provinces.data.data[0]!.name;

const created = await api.POST('/api/tickets', {
  body: { subject: 'From a generated client', message: 'Opened by the openapi-fetch flow.', priority: 'high' },
});
check(created.data, `create answered ${created.response.status}`);
const id: number = created.data.data.id;

const read = await api.GET('/api/tickets/{id}', { params: { path: { id } } });
check(read.data, 'read');
const priority: components['schemas']['TicketPriority'] = read.data.data.priority;
const sla: components['schemas']['SlaStatus'] = read.data.data.sla_status;

const same = await api.GET('/api/tickets', { params: { query: { priority, status: read.data.data.status } } });
check(
  same.data?.data.some((ticket) => ticket.id === id),
  'filter by its own priority and status',
);

const answer = await api.POST('/api/assistant/chat', { body: { message: 'How do I open a support ticket?' } });
check(answer.data, `chat answered ${answer.response.status}`);
const conversation = await api.GET('/api/assistant/conversations/{id}', {
  params: { path: { id: answer.data.conversation_id } },
});
check(conversation.data?.conversation.messages.length === 2, 'conversation');

const missing = await api.GET('/api/tickets/{id}', { params: { path: { id: 2_000_000_000 } } });
check(missing.response.status === 404 && missing.error && 'message' in missing.error, 'missing ticket 404');

console.log(JSON.stringify({ client: 'openapi-fetch', province, id, sla, conversation: answer.data.conversation_id }));
