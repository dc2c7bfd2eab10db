// TypeBox schemas of answer feedback (members) and the gaps (staff).
import { Type } from 'typebox';
import { errorResponses, NO_NUL, Timestamp } from '../../http/schemas.js';
import type { OpenApiTag } from '../../http/openapi.js';

export const MessageParams = Type.Object({
  id: Type.String({ description: 'Id of an assistant message of yours (digits; anything else is a 404).' }),
});

export const FeedbackBody = Type.Object({
  rating: Type.Enum(['up', 'down'], { description: 'Thumbs up or down.' }),
  reason: Type.Optional(
    Type.Union([Type.String({ maxLength: 1000, pattern: NO_NUL }), Type.Null()], {
      description: 'Why, in a few words (at most 1000 characters); null or absent: none.',
    }),
  ),
});

const FeedbackData = Type.Object({
  message_id: Type.Integer(),
  rating: Type.Enum(['up', 'down']),
  reason: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const GapsQuery = Type.Object({
  state: Type.Optional(
    Type.Enum(['open', 'dismissed', 'answered', 'all'], { description: 'Groups in this state; default open.' }),
  ),
  lang: Type.Optional(Type.Enum(['en', 'fa'], { description: 'Questions in this language only.' })),
  days: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 365, default: 90, description: 'Questions of the last N days; default 90.' }),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'At most this many groups; default 50.' }),
  ),
});

export const GapParams = Type.Object({
  id: Type.String({ pattern: '^[0-9a-f]{16}$', description: "A group's id (16 hex digits)." }),
});

export const DecisionBody = Type.Object({
  state: Type.Enum(['dismissed', 'answered'], {
    description: 'dismissed: nothing to write; answered: the article named in article_key answers it.',
  }),
  article_key: Type.Optional(
    Type.Union([Type.String({ maxLength: 200, pattern: NO_NUL }), Type.Null()], {
      description: "Required with answered: the key of a knowledge-base article (the id in the chat's sources).",
    }),
  ),
});

const Gap = Type.Object(
  {
    id: Type.String({ description: 'The group id (decisions name it).' }),
    question: Type.String({ description: 'The phrasing asked most often.' }),
    count: Type.Integer({ description: 'Questions in the group.' }),
    no_answer_count: Type.Integer({ description: 'Of those, answered "I could not find a good answer".' }),
    thumbs_down_count: Type.Integer({ description: 'Of those, answers their asker rated down.' }),
    first_asked_at: Timestamp,
    last_asked_at: Timestamp,
    lang: Type.Enum(['en', 'fa']),
    examples: Type.Array(Type.String(), { description: 'Up to four other phrasings, newest first.' }),
    reasons: Type.Array(Type.String(), { description: 'Up to three reasons given with a thumbs down, newest first.' }),
    closest: Type.Array(
      Type.Object({ id: Type.String(), title: Type.String(), score: Type.Number({ description: '0 to 1.' }) }),
      { description: 'The passages the question came closest to, best first.' },
    ),
    state: Type.Enum(['open', 'dismissed', 'answered']),
    article_key: Type.Union([Type.String(), Type.Null()], { description: 'The answering article, when answered.' }),
    decided_at: Type.Union([Timestamp, Type.Null()]),
  },
  { title: 'AssistantGap' },
);

export const responses = {
  feedback: {
    200: Type.Object({ success: Type.Boolean(), message: Type.String(), data: FeedbackData }),
    ...errorResponses(401, 404, 422, 503),
  },
  gaps: { 200: Type.Object({ success: Type.Boolean(), data: Type.Array(Gap) }), ...errorResponses(401, 403, 422, 503) },
  decide: {
    200: Type.Object({ success: Type.Boolean(), message: Type.String(), data: Gap }),
    ...errorResponses(401, 403, 404, 422, 503),
  },
};

/** The staff side of the assistant's gaps in the OpenAPI document. */
export const openApiTags: OpenApiTag[] = [
  {
    name: 'assistant-staff',
    description: 'For staff: the questions the assistant could not answer, grouped, to write articles for.',
  },
];
