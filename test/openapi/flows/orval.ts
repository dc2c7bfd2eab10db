// The same flow with orval's fetch client (generated with the server's address as baseUrl).
// Compiled with --strict and no cast by test/openapi/clients.test.ts, then run against a real server.
import {
  chat,
  createTicket,
  listProvinces,
  listTickets,
  showConversation,
  showTicket,
  type SlaStatus,
  type TicketPriority,
} from './generated/orval/api';

const signedIn: RequestInit = { headers: { authorization: `Bearer ${process.env.API_TOKEN}` } };
// The upload routes take JSON or a multipart form: orval sends no Content-Type for such a body.
const signedInJson: RequestInit = {
  headers: { authorization: `Bearer ${process.env.API_TOKEN}`, 'content-type': 'application/json' },
};

function check(condition: unknown, what: string): asserts condition {
  if (!condition) throw new Error(`orval flow: ${what}`);
}

const provinces = await listProvinces();
check(provinces.status === 200 && provinces.data.data.length > 0, 'provinces');
const province: string = provinces.data.data[0]!.name;

const created = await createTicket(
  { subject: 'From a generated client', message: 'Opened by the orval flow.', priority: 'high' },
  signedInJson,
);
check(created.status === 201, `create answered ${created.status}`);
const id: number = created.data.data.id;

const read = await showTicket(id, signedIn);
check(read.status === 200, 'read');
const priority: TicketPriority = read.data.data.priority;
const sla: SlaStatus = read.data.data.sla_status;

const same = await listTickets({ priority, status: read.data.data.status }, signedIn);
check(same.status === 200 && same.data.data.some((ticket) => ticket.id === id), 'filter by its own priority');

const answer = await chat({ message: 'How do I open a support ticket?' }, signedIn);
check(answer.status === 200, `chat answered ${answer.status}`);
const conversation = await showConversation(answer.data.conversation_id, signedIn);
check(conversation.status === 200 && conversation.data.conversation.messages.length === 2, 'conversation');

console.log(JSON.stringify({ client: 'orval', province, id, sla, conversation: answer.data.conversation_id }));
