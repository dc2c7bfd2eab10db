// The same flow with @hey-api/openapi-ts and its fetch client. Compiled with --strict and no cast
// by test/openapi/clients.test.ts, then run against a real server.
import { client } from './generated/hey-api/client.gen';
import {
  chat,
  createTicket,
  listProvinces,
  listTickets,
  showConversation,
  showTicket,
  streamNotifications,
} from './generated/hey-api/sdk.gen';
import type { SlaStatus, TicketPriority } from './generated/hey-api/types.gen';

client.setConfig({ baseUrl: process.env.SERVER_URL, auth: () => process.env.API_TOKEN });

function check(condition: unknown, what: string): asserts condition {
  if (!condition) throw new Error(`hey-api flow: ${what}`);
}

const provinces = await listProvinces();
check(provinces.data && provinces.data.data.length > 0, 'provinces');
const province: string = provinces.data.data[0]!.name;

const created = await createTicket({
  body: { subject: 'From a generated client', message: 'Opened by the hey-api flow.', priority: 'high' },
});
check(created.data, `create answered ${created.response.status}`);
const id: number = created.data.data.id;

const read = await showTicket({ path: { id } });
check(read.data, 'read');
const priority: TicketPriority = read.data.data.priority;
const sla: SlaStatus = read.data.data.sla_status;

const same = await listTickets({ query: { priority, status: read.data.data.status } });
check(
  same.data?.data.some((ticket) => ticket.id === id),
  'filter by its own priority',
);

const answer = await chat({ body: { message: 'How do I open a support ticket?' } });
check(answer.data, `chat answered ${answer.response.status}`);
const conversation = await showConversation({ path: { id: answer.data.conversation_id } });
check(conversation.data?.conversation.messages.length === 2, 'conversation');

// The notification stream through the generated SSE client: it yields each event's data, typed by
// the document (UnreadCountEvent or Notification); the first one is the unread count.
const closing = new AbortController();
const live = await streamNotifications({ signal: closing.signal, sseMaxRetryAttempts: 1 });
let unread = -1;
for await (const data of live.stream) {
  check('count' in data, 'the stream starts with unread_count');
  unread = data.count;
  closing.abort();
  break;
}
check(unread === 0, `unread count ${unread}`);

console.log(JSON.stringify({ client: 'hey-api', province, id, sla, conversation: answer.data.conversation_id }));
