// Request and response schemas of the assistant: the types, the validation and the OpenAPI document.
import { Type, type Static } from 'typebox';
import { paginationQuery, PageMetaSchema } from '../../core/pagination.js';
import { errorResponses, IntegerId, NO_NUL, PathId, SuccessMessage, Timestamp } from '../../http/schemas.js';
import { DOCUMENT_AS } from '../../http/openapi-document.js';
import { AGENT_CHOICES, AGENT_IDS } from './agents.js';
import { contextSchema } from './context-schema.js';
import { CONTEXT_MAX_BYTES, CONTEXT_MAX_DEPTH, CONTEXT_MAX_KEY_LENGTH, CONTEXT_MAX_KEYS } from './context.js';
import type { OpenApiTag } from '../../http/openapi.js';

export const CHAT_MESSAGE_MAX = 2000;
export const FEEDBACK_TYPES = ['bug', 'feature_request', 'improvement', 'complaint', 'praise', 'other'] as const;
export const CONVERSATION_STATUSES = ['active', 'archived', 'deleted'] as const;
export const CONVERSATIONS_PER_PAGE = { default: 20, max: 50 };
export const ESCALATE_REASON_MAX = 2000;

const AgentId = Type.Enum([...AGENT_IDS], {
  description: 'The agent that answered: engineer, pilot, steward or guide.',
});
const tags = ['assistant'];

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
      description: `Agent asked for: ${AGENT_CHOICES.join(', ')}, or null for the default. Non-admins are always answered by steward and the field is ignored whatever it holds. Admins: another value answers 422; the default is auto on a new conversation and the conversation's agent when continuing one.`,
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
        description: `Extra facts for the answer, or null for none. Bounds, enforced with a 422 keyed context: at most ${CONTEXT_MAX_BYTES} bytes as JSON, at most ${CONTEXT_MAX_DEPTH} levels of objects and arrays (the context itself is the first), at most ${CONTEXT_MAX_KEYS} keys in all levels together, keys 1 to ${CONTEXT_MAX_KEY_LENGTH} characters. A model reads them as facts (page.module: projects), never as instructions.`,
        examples: [
          { page: { route_name: 'projects.show', module: 'projects', resource_type: 'project', resource_id: 12 } },
        ],
      },
    ),
  ),
});
export type ChatBody = Static<typeof ChatBody>;

const Sources = Type.Array(
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
    'With Accept: text/event-stream the chat answers Server-Sent Events: start, then delta events, then done or error. This schema is the data of one event (its JSON, parsed); x-sse-events gives the schema of each event type. ' +
    'Errors found before the answer starts (401, 403, 404, 422, 429) keep their JSON answers. A client that disconnects aborts the model call; ' +
    'what was written is saved as the assistant message, shown with interrupted: true in the conversation.',
  'x-sse-events': { start: ChatStreamStart, delta: ChatStreamDelta, done: ChatStreamDone, error: ChatStreamError },
});

export const ConversationSummary = Type.Object(
  {
    id: Type.Integer(),
    title: Type.String({ description: 'From the first message, at most 50 characters.' }),
    agent_type: AgentId,
    status: Type.Enum([...CONVERSATION_STATUSES]),
    last_message: Type.Union([Type.String(), Type.Null()], { description: 'Text of the latest message.' }),
    updated_at: { ...Timestamp, description: 'Time of the last message.' },
    created_at: Timestamp,
  },
  { title: 'ConversationSummary' },
);

export const ConversationsQuery = Type.Object({
  status: Type.Optional(Type.Enum([...CONVERSATION_STATUSES], { description: 'Default: active only.' })),
  agent: Type.Optional(
    Type.Enum([...AGENT_CHOICES], { description: 'Only conversations of this agent; auto means any agent.' }),
  ),
  ...paginationQuery(CONVERSATIONS_PER_PAGE.default, CONVERSATIONS_PER_PAGE.max),
});
export type ConversationsQuery = Static<typeof ConversationsQuery>;

export const ConversationsResponse = Type.Object({
  success: Type.Boolean(),
  conversations: Type.Array(ConversationSummary),
  pagination: Type.Object({
    current_page: Type.Integer(),
    total: Type.Integer(),
    per_page: Type.Integer(),
    last_page: Type.Integer(),
  }),
});

export const ConversationParams = Type.Object({
  id: PathId('Conversation id. Anything but a positive integer answers the conversation 404.'),
});

export const ConversationResponse = Type.Object({
  success: Type.Boolean(),
  conversation: Type.Object(
    {
      id: Type.Integer(),
      title: Type.String(),
      agent_type: AgentId,
      created_at: Timestamp,
      messages: Type.Array(
        Type.Object({
          id: Type.Integer({
            description:
              'Extension: the message id (an answer is rated at POST /api/assistant/messages/{id}/feedback).',
          }),
          role: Type.Enum(['user', 'assistant']),
          content: Type.String(),
          created_at: Timestamp,
          sources: {
            ...Sources,
            description:
              "Extension: an assistant message's sources as the chat answered them; [] for user messages and for answers saved before sources were kept.",
          },
          interrupted: Type.Optional(
            Type.Literal(true, {
              description:
                'Extension, present only on an answer cut short because the client left a streamed chat: the content is what had been written by then.',
            }),
          ),
        }),
        { description: 'Chronological order.' },
      ),
    },
    { title: 'Conversation' },
  ),
});

export const FeedbackBody = Type.Object({
  type: Type.Enum([...FEEDBACK_TYPES], {
    description: 'bug, feature_request, improvement, complaint, praise or other.',
  }),
  subject: Type.String({ minLength: 1, maxLength: 200, pattern: NO_NUL, description: 'At most 200 characters.' }),
  content: Type.String({ minLength: 1, maxLength: 2000, pattern: NO_NUL, description: 'At most 2000 characters.' }),
  rating: Type.Optional(Type.Integer({ minimum: 1, maximum: 5, description: '1 (poor) to 5 (excellent).' })),
});
export type FeedbackBody = Static<typeof FeedbackBody>;

export const FeedbackResponse = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  feedback_id: Type.Integer(),
});

export const FeedbackListQuery = Type.Object({
  type: Type.Optional(Type.Enum([...FEEDBACK_TYPES], { description: 'Only feedback of this type.' })),
  ...paginationQuery(20, 100),
});
export type FeedbackListQuery = Static<typeof FeedbackListQuery>;

export const FeedbackListResponse = Type.Object({
  success: Type.Boolean(),
  data: Type.Array(
    Type.Object({
      id: Type.Integer(),
      type: Type.String(),
      subject: Type.String(),
      content: Type.String(),
      rating: Type.Union([Type.Integer(), Type.Null()]),
      user: Type.Object({
        id: Type.Integer(),
        first_name: Type.String(),
        last_name: Type.String(),
        email: Type.String(),
      }),
      created_at: Timestamp,
    }),
    { description: 'Newest first.' },
  ),
  meta: PageMetaSchema,
});

export const EscalateBody = Type.Object({
  conversation_id: Type.Optional({
    ...IntegerId,
    description: 'The conversation to escalate; must exist. Escalating it again returns the same ticket.',
  }),
  reason: Type.Optional(
    Type.String({
      maxLength: ESCALATE_REASON_MAX,
      pattern: NO_NUL,
      description: 'Why a person is needed; at most 2000 characters.',
    }),
  ),
});
export type EscalateBody = Static<typeof EscalateBody>;

export const EscalateResponse = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  ticket_id: Type.Integer(),
});

export const WelcomeResponse = Type.Object({
  success: Type.Boolean(),
  message: Type.String({ description: 'The configured welcome text.' }),
  stats: Type.Object({
    total_conversations: Type.Integer({ description: 'Conversations held on the platform, all statuses.' }),
    agents: Type.Array(Type.Object({ id: AgentId, name: Type.String(), icon: Type.String(), enabled: Type.Boolean() })),
    provider: Type.Enum(['offline', 'openai'], {
      description: 'Which provider answers: offline retrieval or an OpenAI-compatible model server.',
    }),
  }),
});

export const responses = {
  chat: {
    200: {
      description: 'The answer (JSON); with Accept: text/event-stream, its stream (x-negotiated-content).',
      content: { 'application/json': { schema: ChatResponse }, 'text/event-stream': { schema: ChatStreamData } },
    },
    ...errorResponses(401, 403, 404, 422, 429, 500),
  },
  conversations: { 200: ConversationsResponse, ...errorResponses(401, 422, 429) },
  conversation: { 200: ConversationResponse, ...errorResponses(401, 403, 404, 429) },
  statusChange: { 200: SuccessMessage, ...errorResponses(401, 403, 404, 429) },
  feedback: { 201: FeedbackResponse, ...errorResponses(401, 422, 429) },
  feedbackList: { 200: FeedbackListResponse, ...errorResponses(401, 403, 422, 429) },
  escalate: { 200: EscalateResponse, 201: EscalateResponse, ...errorResponses(403, 422, 429) },
  welcome: { 200: WelcomeResponse, ...errorResponses(429) },
};
export { tags };

/** The tag of the assistant's operations in the OpenAPI document. */
export const openApiTags: OpenApiTag[] = [
  {
    name: 'assistant',
    description:
      'Chat with the assistant (JSON, or a stream of Server-Sent Events), conversations, feedback and escalation.',
  },
];
