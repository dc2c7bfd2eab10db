// Request and response schemas of the assistant: the types, the validation and the OpenAPI document.
import { Type, type Static } from 'typebox';
import { paginationQuery, PageMetaSchema } from '../../core/pagination.js';
import { errorResponses, IntegerId, NO_NUL, PathId, SuccessMessage, Timestamp } from '../../http/schemas.js';
import { AGENT_CHOICES } from './agents.js';
import { AgentId, ChatResponse, ChatStreamData, Sources } from './chat-schemas.js';
import { tags } from './tags.js';

export { CHAT_MESSAGE_MAX, ChatBody, ChatResponse, ChatStreamData } from './chat-schemas.js';

export const FEEDBACK_TYPES = ['bug', 'feature_request', 'improvement', 'complaint', 'praise', 'other'] as const;
export const CONVERSATION_STATUSES = ['active', 'archived', 'deleted'] as const;
export const CONVERSATIONS_PER_PAGE = { default: 20, max: 50 };
export const ESCALATE_REASON_MAX = 2000;

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
