import type { OpenApiTag } from '../../../http/openapi.js';

/** The OpenAPI tag of the inbound mail operations (email/routes.ts). */
export const inboundMailTag: OpenApiTag = {
  name: 'inbound-mail',
  description: 'Tickets by email: the inbound routing webhook, and staff review of the mail received (held, bounced).',
};
