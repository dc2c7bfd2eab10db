// The chat's schemas: the question (ChatBody), the answer (ChatResponse) and, for a streamed chat,
// the data of each Server-Sent Event (ChatStreamData). The other assistant schemas: schemas.ts.
import { Type, type Static } from 'typebox';
import { DOCUMENT_AS } from '../../http/openapi-document.js';
import { IntegerId, NO_NUL } from '../../http/schemas.js';
import { AGENT_CHOICES, AGENT_IDS } from './agents.js';
import { contextSchema } from './context-schema.js';
import { CONTEXT_MAX_BYTES, CONTEXT_MAX_DEPTH, CONTEXT_MAX_KEY_LENGTH, CONTEXT_MAX_KEYS } from './context.js';

export const CHAT_MESSAGE_MAX = 2000;

export const AgentId = Type.Enum([...AGENT_IDS], {
  description: 'The agent that answered: engineer, pilot, steward or guide.',
});

const CONTEXT_FACTS =
  "Facts about the user's screen; values are any JSON (strings, numbers, booleans, null, arrays, objects).";

export const ChatBody = Type.Object({
  message: Type.String({
    minLength: 1,
    maxLength: CHAT_MESSAGE_MAX,
    pattern: NO_NUL,
    description: "The user's message, at most 2000 characters.",
  }),
  // Not an enum here: a non-admin's agent is ignored whatever it holds; the service checks an admin's.
  agent: Type.Optional(
    Type.Unknown({
      description:
        `Agent asked for: ${AGENT_CHOICES.join(', ')}, or null for the default. Non-admins are always ` +
        `answered by steward and the field is ignored whatever it holds. Admins: another value answers 422; ` +
        `the default is auto on a new conversation and the conversation's agent when continuing one.`,
      examples: ['steward'],
    }),
  ),
  conversation_id: Type.Optional(
    Type.Union([IntegerId, Type.Null()], {
      description: 'Continue this conversation (yours, not deleted); omitted or null: a new one is created.',
    }),
  ),
  context: Type.Optional(
    Type.Union(
      [
        // The key and size bounds span every level, so they are checked in context.ts, with one message each.
        Type.Record(Type.String(), Type.Unknown(), {
          description: CONTEXT_FACTS,
          [DOCUMENT_AS]: { description: CONTEXT_FACTS, ...contextSchema() },
        }),
        Type.Null(),
      ],
      {
        description:
          `Extra facts for the answer, or null for none. Bounds, enforced with a 422 keyed context: at most ` +
          `${CONTEXT_MAX_BYTES} bytes as JSON, at most ${CONTEXT_MAX_DEPTH} levels of objects and arrays (the ` +
          `context itself is the first), at most ${CONTEXT_MAX_KEYS} keys in all levels together, keys 1 to ` +
          `${CONTEXT_MAX_KEY_LENGTH} characters. A model reads them as facts (page.module: projects), never as ` +
          `instructions.`,
        examples: [
          { page: { route_name: 'projects.show', module: 'projects', resource_type: 'project', resource_id: 12 } },
        ],
      },
    ),
  ),
});
export type ChatBody = Static<typeof ChatBody>;

export const Sources = Type.Array(
  Type.Object({
    id: Type.String({ description: 'Passage id, topic.slug (the same in both languages).' }),
    title: Type.String({ description: "The passage's question, in the answer's language." }),
  }),
  {
    description:
      'Extension: the knowledge-base passages the answer used (offline) or was given (model server), best first; empty when the assistant had no answer.',
  },
);

export const ChatResponse = Type.Object(
  {
    success: Type.Boolean(),
    message: Type.String({ description: 'The answer.' }),
    agent: AgentId,
    agent_name: Type.String({ description: 'Display name of the agent, in the language of Accept-Language.' }),
    agent_icon: Type.String({ description: 'Emoji of the agent.' }),
    conversation_id: Type.Integer({ description: 'The conversation the exchange was saved in.' }),
    suggestions: Type.Array(Type.String(), { description: 'Follow-up questions.' }),
    response_time_ms: Type.Integer({ description: 'Time taken to produce the answer, in milliseconds.' }),
    request_id: Type.String({ description: 'Unique id of this request; also the X-Request-Id header.' }),
    sources: Sources,
  },
  { title: 'ChatAnswer', description: "The assistant's answer and the conversation it was saved in." },
);

/**
 * The data of each event of a streamed chat (Accept: text/event-stream), parsed from its JSON: what
 * a generated Server-Sent Events client yields. x-sse-events names the schema of each event type.
 */
const ChatStreamStart = Type.Object(
  {
    conversation_id: Type.Integer(),
    request_id: Type.String(),
    agent: AgentId,
    agent_name: Type.String(),
    agent_icon: Type.String(),
  },
  { title: 'ChatStreamStart', description: 'event: start. First: the message is saved and the answer begins.' },
);
const ChatStreamDelta = Type.Object(
  { text: Type.String({ description: 'The next piece of the answer.' }) },
  { title: 'ChatStreamDelta', description: 'event: delta. As the answer is written.' },
);
const ChatStreamDone = Type.Object(ChatResponse.properties, {
  title: 'ChatStreamDone',
  description: 'event: done. Last on success: exactly the body the non-streamed call answers.',
});
const ChatStreamError = Type.Object(
  {
    success: Type.Literal(false),
    message: Type.String(),
    error: Type.String({ description: 'llm_timeout, llm_error or server_error.' }),
  },
  {
    title: 'ChatStreamError',
    description: "event: error. Last when the answer fails after start; the user's message stays saved.",
  },
);
export const ChatStreamData = Type.Union([ChatStreamStart, ChatStreamDelta, ChatStreamDone, ChatStreamError], {
  title: 'ChatStreamData',
  description:
    'With Accept: text/event-stream the chat answers Server-Sent Events: start, then delta events, then ' +
    'done or error. This schema is the data of one event (its JSON, parsed); x-sse-events gives the ' +
    'schema of each event type. ' +
    'Errors found before the answer starts (401, 403, 404, 422, 429) keep their JSON answers. A client that disconnects aborts the model call; ' +
    'what was written is saved as the assistant message, shown with interrupted: true in the conversation.',
  'x-sse-events': { start: ChatStreamStart, delta: ChatStreamDelta, done: ChatStreamDone, error: ChatStreamError },
});
