// The assistant's tag in the OpenAPI document: the name its routes use and its description.
import type { OpenApiTag } from '../../http/openapi.js';

export const tags = ['assistant'];

export const openApiTags: OpenApiTag[] = [
  {
    name: 'assistant',
    description:
      'Chat with the assistant (JSON, or a stream of Server-Sent Events), conversations, feedback and escalation.',
  },
];
