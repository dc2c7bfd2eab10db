// The catalogue of every /api route for the hostile suites: who may call it, which error forms
// the spec gives it, and how to generate its path parameters, query and body. The fuzz suite
// checks this list against the app's own OpenAPI document, so a new route without an entry fails.
import type { FastifyInstance } from 'fastify';
import fc from 'fast-check';
import { hostileIdText, hostileUuidText, RAW_SEGMENT } from './arbitraries.js';
import type { World } from './world.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type Access = 'public' | 'optional' | 'user' | 'admin';
export type ValidationForm = 'assistant' | 'tickets' | 'general';
/** 404 bodies: ticket = {message:"No query results for model [Ticket] <id>"}, failure = {success:false,message}, message = {message}. */
export type NotFoundForm = 'ticket' | 'failure' | 'message';
/**
 * Success bodies: an object with success true, a bare array, {data: [...]}, raw file bytes, any JSON
 * object, an endless event stream (sent over a socket), or a page (the console's sign-in link:
 * text/html for 200, 303, 403 and 410).
 */
export type SuccessShape = 'success' | 'bare-array' | 'data-array' | 'raw' | 'object' | 'event-stream' | 'html';

export interface RouteSpec {
  method: Method;
  /** OpenAPI form: /api/tickets/{id} */
  path: string;
  access: Access;
  form: ValidationForm;
  notFound: NotFoundForm[];
  success: SuccessShape;
  /** Statuses besides 200/201, 401, 404, 413, 415, 422, 429 this route may answer. */
  also?: number[];
  params?: Record<string, (w: World) => fc.Arbitrary<string>>;
  /** Parameters that only make sense together (a ticket and one of its attachments). */
  paramSets?: (w: World) => fc.Arbitrary<Record<string, string>>;
  /** Query fields with plausible values (the generator mixes in hostile ones). */
  query?: Record<string, fc.Arbitrary<unknown>>;
  /** Body fields with plausible values (the generator mixes in hostile ones); absent: the route takes no body. */
  body?: Record<string, fc.Arbitrary<unknown>>;
  multipart?: boolean;
}

export const routeKey = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

const ids = (values: Array<number | string>) => fc.constantFrom(...values.map(String));
const idParam =
  (pick: (w: World) => Array<number | string>, hostile = hostileIdText) =>
  (w: World) =>
    fc.oneof({ arbitrary: ids(pick(w)), weight: 3 }, { arbitrary: hostile, weight: 2 });

const conversationParam = { id: idParam((w) => [...w.mine.conversations, ...w.theirs.conversations]) };
const ticketParam = { id: idParam((w) => [...w.mine.tickets, ...w.theirs.tickets]) };
const notificationParam = { id: idParam((w) => [...w.mine.notifications, ...w.theirs.notifications], hostileUuidText) };

/**
 * Users the fuzz mirrors, mints for and revokes: never one of the world's callers (whose tokens
 * every other route needs), also not through a hostile id that reads as theirs (" 1", "00001", "0x1").
 */
const MIRRORED_USERS = [9001, 9002];
const mirroredUserParam = (w: World) => {
  const callers = [w.owner.id, w.other.id, w.admin.id];
  return fc.oneof(
    { arbitrary: ids(MIRRORED_USERS), weight: 3 },
    { arbitrary: hostileIdText.filter((text) => !callers.includes(Number(text))), weight: 2 },
  );
};

/** A field a plausible request may leave out (undefined keys vanish from the JSON). */
const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });

/** Plausible text: within the field's length rule, any letters (Persian, Arabic, emoji, marks). */
const text = (min: number, max: number) =>
  fc.oneof(
    fc.string({ minLength: min, maxLength: max }),
    fc.string({ unit: 'grapheme', minLength: min, maxLength: max }),
    fc.constantFrom('سلام، پرداخت ناموفق بود', 'كيف حالك يا صديقي', 'refund \u200fبازگشت وجه 😀'),
  );

const page = { page: fc.integer({ min: 1, max: 3 }), per_page: fc.integer({ min: 1, max: 50 }) };
const ticketQuery = {
  status: fc.constantFrom('open', 'in-progress', 'closed'),
  priority: fc.constantFrom('low', 'normal', 'high'),
  category: fc.oneof(fc.constant('billing'), text(0, 20)),
  q: fc.oneof(fc.constantFrom('Payment', 'TK-', '%', '_', 'پرداخت'), text(0, 20)),
  ...page,
};
const ticketBody = {
  subject: text(1, 255),
  message: text(10, 300),
  priority: fc.constantFrom('low', 'normal', 'high'),
  category: fc.oneof(fc.constant(null), fc.constantFrom('billing', 'حساب', 'login'), text(0, 40)),
  tags: optional(fc.array(fc.integer({ min: 1, max: 5 }), { maxLength: 4 })),
};

const kbSlug = fc.oneof(
  fc.constantFrom('refund-time', 'payments', 'wallet', 'no-such-thing'),
  fc.stringMatching(/^[a-z0-9]{1,12}$/),
);
const kbArticleParam = { id: idParam(() => [1, 2, 3, 4]) };

export const ROUTES: RouteSpec[] = [
  // Assistant
  {
    method: 'GET',
    path: '/api/assistant/welcome',
    access: 'public',
    form: 'assistant',
    notFound: [],
    success: 'success',
  },
  {
    method: 'POST',
    path: '/api/assistant/chat',
    access: 'user',
    form: 'assistant',
    notFound: ['failure'],
    success: 'success',
    also: [400, 403],
    body: {
      message: text(1, 200),
      agent: optional(
        fc.oneof(fc.constantFrom('auto', 'engineer', 'pilot', 'steward', 'guide', null, 'bogus'), fc.integer()),
      ),
      conversation_id: optional(fc.oneof(fc.integer({ min: 1, max: 12 }), fc.constant(null))),
      context: optional(
        fc.oneof(
          fc.constant(null),
          fc.dictionary(fc.string({ minLength: 1, maxLength: 64 }), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 5 }),
        ),
      ),
    },
  },
  {
    method: 'GET',
    path: '/api/assistant/conversations',
    access: 'user',
    form: 'assistant',
    notFound: [],
    success: 'success',
    query: {
      status: fc.constantFrom('active', 'archived', 'deleted'),
      agent: fc.constantFrom('auto', 'steward', 'guide'),
      ...page,
    },
  },
  {
    method: 'GET',
    path: '/api/assistant/conversations/{id}',
    access: 'user',
    form: 'assistant',
    notFound: ['failure'],
    success: 'success',
    also: [403],
    params: conversationParam,
  },
  {
    method: 'DELETE',
    path: '/api/assistant/conversations/{id}',
    access: 'user',
    form: 'assistant',
    notFound: ['failure'],
    success: 'success',
    also: [403],
    params: conversationParam,
  },
  {
    method: 'PUT',
    path: '/api/assistant/conversations/{id}/archive',
    access: 'user',
    form: 'assistant',
    notFound: ['failure'],
    success: 'success',
    also: [400, 403],
    params: conversationParam,
    body: {},
  },
  {
    method: 'POST',
    path: '/api/assistant/feedback',
    access: 'user',
    form: 'assistant',
    notFound: [],
    success: 'success',
    also: [400],
    body: {
      type: fc.constantFrom('bug', 'feature_request', 'improvement', 'complaint', 'praise', 'other'),
      subject: text(1, 200),
      content: text(1, 300),
      rating: fc.integer({ min: 1, max: 5 }),
    },
  },
  {
    method: 'GET',
    path: '/api/admin/feedback',
    access: 'admin',
    form: 'assistant',
    notFound: [],
    success: 'success',
    also: [403],
    query: { type: fc.constantFrom('bug', 'praise'), ...page },
  },
  {
    method: 'POST',
    path: '/api/assistant/escalate',
    access: 'optional',
    form: 'assistant',
    notFound: [],
    success: 'success',
    also: [400, 403],
    body: { conversation_id: optional(fc.integer({ min: 1, max: 12 })), reason: text(0, 300) },
  },

  // Tickets
  {
    method: 'GET',
    path: '/api/tickets',
    access: 'user',
    form: 'tickets',
    notFound: [],
    success: 'success',
    query: ticketQuery,
  },
  { method: 'GET', path: '/api/tickets/stats', access: 'user', form: 'tickets', notFound: [], success: 'success' },
  {
    method: 'POST',
    path: '/api/tickets',
    access: 'user',
    form: 'tickets',
    notFound: [],
    success: 'success',
    also: [400],
    body: ticketBody,
    multipart: true,
  },
  {
    method: 'GET',
    path: '/api/tickets/{id}',
    access: 'user',
    form: 'tickets',
    notFound: ['ticket'],
    success: 'success',
    params: ticketParam,
  },
  {
    method: 'PUT',
    path: '/api/tickets/{id}',
    access: 'user',
    form: 'tickets',
    notFound: ['ticket'],
    success: 'success',
    also: [400],
    params: ticketParam,
    body: { priority: ticketBody.priority, category: ticketBody.category },
  },
  {
    method: 'PUT',
    path: '/api/tickets/{id}/close',
    access: 'user',
    form: 'tickets',
    notFound: ['ticket'],
    success: 'success',
    also: [400],
    params: ticketParam,
    body: {},
  },
  {
    method: 'POST',
    path: '/api/tickets/{id}/comments',
    access: 'user',
    form: 'tickets',
    notFound: ['ticket'],
    success: 'success',
    also: [400],
    params: ticketParam,
    body: { message: text(5, 300) },
    multipart: true,
  },
  {
    method: 'GET',
    path: '/api/tickets/{id}/attachments/{attachment_id}/download',
    access: 'user',
    form: 'tickets',
    notFound: ['ticket', 'failure'],
    success: 'raw',
    paramSets: (w) =>
      fc.constantFrom(
        ...[...w.mine.attachments, ...w.theirs.attachments].map(([id, attachment]) => ({
          id: String(id),
          attachment_id: String(attachment),
        })),
      ),
    params: {
      id: idParam((w) => [...w.mine.attachments, ...w.theirs.attachments].map(([ticket]) => ticket)),
      attachment_id: idParam((w) =>
        [...w.mine.attachments, ...w.theirs.attachments].map(([, attachment]) => attachment),
      ),
    },
  },
  {
    method: 'GET',
    path: '/api/admin/tickets',
    access: 'admin',
    form: 'tickets',
    notFound: [],
    success: 'success',
    also: [403],
    query: { ...ticketQuery, assignee_id: fc.integer({ min: 1, max: 5 }) },
  },
  {
    method: 'GET',
    path: '/api/admin/tickets/{id}',
    access: 'admin',
    form: 'tickets',
    notFound: ['ticket'],
    success: 'success',
    also: [403],
    params: ticketParam,
  },
  {
    method: 'PUT',
    path: '/api/admin/tickets/{id}',
    access: 'admin',
    form: 'tickets',
    notFound: ['ticket'],
    success: 'success',
    also: [400, 403],
    params: ticketParam,
    body: {
      status: fc.constantFrom('open', 'in-progress', 'closed'),
      assignee_id: fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 5 })),
    },
  },
  {
    method: 'POST',
    path: '/api/admin/tickets/{id}/comments',
    access: 'admin',
    form: 'tickets',
    notFound: ['ticket'],
    success: 'success',
    also: [400, 403],
    params: ticketParam,
    body: { message: text(5, 300) },
    multipart: true,
  },

  // Inbound mail (the webhook takes message/rfc822 only: a JSON body is a 415)
  {
    method: 'POST',
    path: '/api/admin/inbound-mail',
    access: 'admin',
    form: 'general',
    notFound: [],
    success: 'success',
    also: [400, 403],
    body: { raw: text(1, 300) },
  },
  {
    method: 'GET',
    path: '/api/admin/inbound-mail',
    access: 'admin',
    form: 'general',
    notFound: [],
    success: 'success',
    also: [403],
    query: { status: fc.constantFrom('held', 'comment', 'bounce'), page: fc.integer({ min: 1, max: 3 }) },
  },
  ...(['accept', 'reject'] as const).map(
    (decision): RouteSpec => ({
      method: 'POST',
      path: `/api/admin/inbound-mail/{id}/${decision}`,
      access: 'admin',
      form: 'general',
      notFound: ['failure'],
      success: 'success',
      also: [400, 403],
      params: { id: idParam(() => [1, 2, 3]) },
    }),
  ),

  // Geographic
  { method: 'GET', path: '/api/provinces', access: 'public', form: 'general', notFound: [], success: 'data-array' },
  ...(['counties', 'districts', 'cities', 'villages'] as const).map(
    (name): RouteSpec => ({
      method: 'GET',
      path: `/api/${name}/{id}`,
      access: 'public',
      form: 'general',
      notFound: [],
      success: 'data-array',
      params: { id: idParam(() => [1, 2, 8, 100, 1001]) },
    }),
  ),
  {
    method: 'GET',
    path: '/api/geographic/continents',
    access: 'public',
    form: 'general',
    notFound: [],
    success: 'bare-array',
  },
  {
    method: 'GET',
    path: '/api/geographic/{level}/{parentId}/children',
    access: 'public',
    form: 'general',
    notFound: [],
    success: 'bare-array',
    params: {
      level: () =>
        fc.oneof(
          fc.constantFrom(
            'continent',
            'country',
            'province',
            'county',
            'section',
            'city',
            'region',
            'neighborhood',
            'street',
            'CITY',
            'Section',
          ),
          hostileIdText,
        ),
      parentId: () => fc.oneof(fc.constantFrom('1', '2', '8', 'city_1', 'rural_1'), hostileIdText),
    },
  },

  // Notifications
  { method: 'GET', path: '/api/notifications', access: 'user', form: 'general', notFound: [], success: 'bare-array' },
  {
    method: 'GET',
    path: '/api/notifications/stream',
    access: 'user',
    form: 'general',
    notFound: [],
    success: 'event-stream',
    // Sent over a socket: a URL past Node's header limit is refused by its parser (431, JSON body).
    also: [431],
    query: {
      stream_token: fc.oneof(fc.string({ maxLength: 60 }), fc.constant('A'.repeat(43))),
      last_event_id: fc.oneof(fc.string({ maxLength: 50 }), fc.nat().map(String)),
    },
  },
  {
    method: 'POST',
    path: '/api/notifications/stream-tokens',
    access: 'user',
    form: 'general',
    notFound: [],
    success: 'object',
    also: [400],
    body: {},
  },
  {
    method: 'GET',
    path: '/api/notifications/unread-count',
    access: 'user',
    form: 'general',
    notFound: [],
    success: 'success',
  },
  {
    method: 'POST',
    path: '/api/notifications/read-all',
    access: 'user',
    form: 'general',
    notFound: [],
    success: 'success',
    also: [400],
    body: {},
  },
  {
    method: 'POST',
    path: '/api/notifications/{id}',
    access: 'user',
    form: 'general',
    notFound: ['message'],
    success: 'success',
    also: [400],
    params: notificationParam,
    body: {},
  },
  {
    method: 'DELETE',
    path: '/api/notifications/{id}',
    access: 'user',
    form: 'general',
    notFound: ['message'],
    success: 'success',
    also: [400],
    params: notificationParam,
  },
  {
    method: 'PUT',
    path: '/api/admin/projects/{id}',
    access: 'admin',
    form: 'general',
    notFound: [],
    success: 'success',
    also: [400, 403],
    params: { id: idParam((w) => [...w.projects, 103, 104]) },
    body: {
      title: text(1, 255),
      owner_id: fc.integer({ min: 1, max: 5 }),
      status: fc.constantFrom('draft', 'under_review', 'approved', 'rejected', 'archived'),
      comment: fc.oneof(fc.constant(null), text(0, 100)),
    },
  },
  {
    method: 'POST',
    path: '/api/admin/projects/{id}/revision-requests',
    access: 'admin',
    form: 'general',
    notFound: [],
    success: 'success',
    also: [400, 403],
    params: { id: idParam((w) => w.projects) },
    body: { revision_notes: text(1, 300) },
  },
  {
    method: 'PUT',
    path: '/api/admin/investments/{id}',
    access: 'admin',
    form: 'general',
    notFound: [],
    success: 'success',
    also: [400, 403],
    params: { id: idParam((w) => [...w.investments, 202]) },
    body: {
      project_id: fc.constantFrom(101, 102, 999),
      investor_id: fc.integer({ min: 1, max: 5 }),
      amount: fc.oneof(fc.nat(), fc.constant(Number.MAX_SAFE_INTEGER)),
      status: fc.constantFrom('pending', 'paid', 'active', 'completed', 'cancelled', 'refunded'),
      notes: fc.oneof(fc.constant(null), text(0, 100)),
    },
  },
  {
    method: 'PUT',
    path: '/api/admin/users/{id}',
    access: 'admin',
    form: 'general',
    notFound: [],
    success: 'success',
    also: [400, 403],
    params: { id: mirroredUserParam },
    body: {
      email: fc.oneof(
        fc.constantFrom('mirror-a@platform.test', 'Mirror-B@platform.test', 'mirror-a@platform.test'),
        text(0, 40),
      ),
      first_name: text(1, 100),
      last_name: text(1, 100),
      is_admin: fc.boolean(),
      locale: fc.constantFrom('en', 'fa'),
      active: fc.boolean(),
    },
  },
  // The staff console's sign-in. A bearer token is never a console session: the console routes
  // answer 401 to every caller here (no test world has a cookie).
  ...(['GET', 'DELETE'] as const).map(
    (method): RouteSpec => ({
      method,
      path: '/api/console/session',
      access: 'user',
      form: 'general',
      notFound: [],
      success: 'success',
      also: [403],
    }),
  ),
  {
    method: 'GET',
    path: '/api/console/preferences',
    access: 'user',
    form: 'general',
    notFound: [],
    success: 'success',
  },
  {
    method: 'PUT',
    path: '/api/console/preferences',
    access: 'user',
    form: 'general',
    notFound: [],
    success: 'success',
    also: [403],
    body: { locale: fc.constantFrom('en', 'fa', 'de') },
  },
  {
    method: 'POST',
    path: '/api/console/sign-in-requests',
    access: 'public',
    form: 'general',
    notFound: [],
    success: 'success',
    also: [202],
    body: { email: fc.oneof(fc.constantFrom('owner@example.com', 'nobody@example.com'), text(0, 40)) },
  },
  ...(['GET', 'POST'] as const).map(
    (method): RouteSpec => ({
      method,
      path: '/api/console/links/{token}',
      access: 'public',
      form: 'general',
      notFound: [],
      success: 'html',
      also: [303, 403, 410],
      params: { token: () => fc.oneof(fc.constant('A'.repeat(43)), fc.string({ minLength: 1, maxLength: 120 })) },
    }),
  ),
  {
    method: 'GET',
    path: '/api/admin/staff',
    access: 'admin',
    form: 'general',
    notFound: [],
    success: 'success',
    also: [403],
  },
  {
    method: 'POST',
    path: '/api/admin/users/{id}/console-links',
    access: 'admin',
    form: 'general',
    notFound: ['message'],
    success: 'success',
    also: [400, 403],
    params: { id: mirroredUserParam },
  },
  {
    method: 'GET',
    path: '/api/admin/users/{id}/console-sessions',
    access: 'admin',
    form: 'general',
    notFound: ['message'],
    success: 'success',
    also: [403],
    params: { id: mirroredUserParam },
  },
  {
    method: 'DELETE',
    path: '/api/admin/users/{id}/console-sessions/{session_id}',
    access: 'admin',
    form: 'general',
    notFound: ['message'],
    success: 'success',
    also: [400, 403],
    params: { id: mirroredUserParam, session_id: idParam(() => [1, 2, 3]) },
  },
  {
    method: 'DELETE',
    path: '/api/admin/users/{id}/console-sessions',
    access: 'admin',
    form: 'general',
    notFound: ['message'],
    success: 'success',
    also: [400, 403],
    params: { id: mirroredUserParam },
  },
  {
    method: 'POST',
    path: '/api/admin/users/{id}/tokens',
    access: 'admin',
    form: 'general',
    notFound: ['message'],
    success: 'success',
    also: [400, 403],
    params: { id: mirroredUserParam },
    body: {
      name: optional(text(1, 100)),
      expires_in_days: optional(fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 36_500 }))),
    },
  },
  {
    method: 'GET',
    path: '/api/admin/users/{id}/tokens',
    access: 'admin',
    form: 'general',
    notFound: ['message'],
    success: 'success',
    also: [403],
    params: { id: mirroredUserParam },
  },
  {
    method: 'DELETE',
    path: '/api/admin/users/{id}/tokens/{token_id}',
    access: 'admin',
    form: 'general',
    notFound: ['message'],
    success: 'success',
    also: [400, 403],
    params: { id: mirroredUserParam, token_id: idParam(() => [1, 2, 3, 4, 5, 6, 7, 8]) },
  },
  {
    method: 'DELETE',
    path: '/api/admin/users/{id}/tokens',
    access: 'admin',
    form: 'general',
    notFound: ['message'],
    success: 'success',
    also: [400, 403],
    params: { id: mirroredUserParam },
  },

  // Uploaded documents (staff)
  {
    method: 'POST',
    path: '/api/admin/kb/files',
    access: 'admin',
    form: 'general',
    notFound: [],
    success: 'success',
    also: [202, 400, 403],
    body: { title: text(1, 200), lang: fc.constantFrom('en', 'fa') },
    multipart: true,
  },
  {
    method: 'GET',
    path: '/api/admin/kb/files',
    access: 'admin',
    form: 'general',
    notFound: [],
    success: 'success',
    also: [403],
    query: {
      status: fc.constantFrom('processing', 'ready', 'failed'),
      page: fc.integer({ min: 1, max: 5 }),
      per_page: fc.integer({ min: 1, max: 100 }),
    },
  },
  ...(
    [
      'GET /api/admin/kb/files/{id}',
      'GET /api/admin/kb/files/{id}/passages',
      'DELETE /api/admin/kb/files/{id}',
    ] as const
  ).map(
    (key): RouteSpec => ({
      method: key.split(' ')[0] as Method,
      path: key.split(' ')[1]!,
      access: 'admin',
      form: 'general',
      notFound: ['failure'],
      success: 'success',
      also: [400, 403],
      params: { id: idParam(() => [1, 2, 3]) },
    }),
  ),
  {
    method: 'PUT',
    path: '/api/admin/kb/files/{id}',
    access: 'admin',
    form: 'general',
    notFound: ['failure'],
    success: 'success',
    also: [400, 403],
    params: { id: idParam(() => [1, 2, 3]) },
    body: { title: text(1, 200), active: fc.boolean() },
  },

  // Answer feedback and the gaps
  {
    method: 'POST',
    path: '/api/assistant/messages/{id}/feedback',
    access: 'user',
    form: 'assistant',
    notFound: ['failure'],
    success: 'success',
    also: [400],
    params: { id: idParam(() => [1, 2, 3, 4]) },
    body: { rating: fc.constantFrom('up', 'down'), reason: fc.oneof(fc.constant(null), text(0, 100)) },
  },
  {
    method: 'GET',
    path: '/api/admin/assistant/gaps',
    access: 'admin',
    form: 'general',
    notFound: [],
    success: 'success',
    also: [403],
    query: {
      state: fc.constantFrom('open', 'dismissed', 'answered', 'all'),
      lang: fc.constantFrom('en', 'fa'),
      days: fc.integer({ min: 1, max: 365 }),
      limit: fc.integer({ min: 1, max: 200 }),
    },
  },
  {
    method: 'PUT',
    path: '/api/admin/assistant/gaps/{id}',
    access: 'admin',
    form: 'general',
    notFound: ['failure'],
    success: 'success',
    also: [400, 403],
    params: { id: () => fc.oneof(fc.stringMatching(/^[0-9a-f]{16}$/), hostileIdText) },
    body: {
      state: fc.constantFrom('dismissed', 'answered'),
      article_key: fc.oneof(fc.constant(null), fc.constantFrom('payments.refund-time', 'no.such'), text(0, 50)),
    },
  },

  // Staff console: ticket views, notes, presence, bulk actions, saved replies, reports, live stream
  ...(['/api/admin/tickets/views', '/api/admin/tags', '/api/admin/tickets/export.csv'] as const).map(
    (path): RouteSpec => ({
      method: 'GET',
      path,
      access: 'admin',
      form: 'tickets',
      notFound: [],
      success: path.endsWith('.csv') ? 'raw' : 'success',
      also: [400, 403],
      query: path.endsWith('.csv') ? ticketQuery : undefined,
    }),
  ),
  {
    method: 'GET',
    path: '/api/admin/tickets/{id}/attachments/{attachment_id}/download',
    access: 'admin',
    form: 'tickets',
    notFound: ['ticket', 'failure'],
    success: 'raw',
    also: [403],
    paramSets: (w) =>
      fc.constantFrom(
        ...[...w.mine.attachments, ...w.theirs.attachments].map(([id, attachment]) => ({
          id: String(id),
          attachment_id: String(attachment),
        })),
      ),
    params: {
      id: idParam((w) => [...w.mine.attachments, ...w.theirs.attachments].map(([ticket]) => ticket)),
      attachment_id: idParam((w) =>
        [...w.mine.attachments, ...w.theirs.attachments].map(([, attachment]) => attachment),
      ),
    },
  },
  {
    method: 'POST',
    path: '/api/admin/tickets/{id}/notes',
    access: 'admin',
    form: 'tickets',
    notFound: ['ticket'],
    success: 'success',
    also: [400, 403],
    params: ticketParam,
    body: { message: text(1, 300) },
  },
  {
    method: 'PUT',
    path: '/api/admin/tickets/{id}/presence',
    access: 'admin',
    form: 'tickets',
    notFound: ['ticket'],
    success: 'success',
    also: [400, 403],
    params: ticketParam,
    body: { state: fc.constantFrom('viewing', 'replying', 'left') },
  },
  {
    method: 'POST',
    path: '/api/admin/tickets/bulk',
    access: 'admin',
    form: 'tickets',
    notFound: [],
    success: 'success',
    also: [400, 403],
    body: {
      ids: fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 5 }),
      action: fc.constantFrom('assign', 'status', 'priority', 'tag', 'close'),
      value: optional(
        fc.oneof(fc.constant(null), fc.constantFrom('open', 'closed', 'high', 'low'), fc.integer({ min: 1, max: 5 })),
      ),
    },
  },
  {
    method: 'GET',
    path: '/api/admin/saved-replies',
    access: 'admin',
    form: 'general',
    notFound: [],
    success: 'success',
    also: [400, 403],
    query: { lang: fc.constantFrom('en', 'fa') },
  },
  ...(['POST /api/admin/saved-replies', 'PUT /api/admin/saved-replies/{id}'] as const).map(
    (key): RouteSpec => ({
      method: key.split(' ')[0] as Method,
      path: key.split(' ')[1]!,
      access: 'admin',
      form: 'general',
      notFound: key.startsWith('PUT') ? ['failure', 'message'] : [],
      success: 'success',
      also: [400, 403],
      params: key.startsWith('PUT') ? { id: idParam(() => [1, 2, 3]) } : undefined,
      body: {
        title: text(1, 120),
        body: fc.oneof(text(1, 300), fc.constantFrom('Hello {{first_name}}, see {{tracking_code}}', 'Hi {{nope}}')),
        lang: fc.constantFrom('en', 'fa'),
      },
    }),
  ),
  {
    method: 'DELETE',
    path: '/api/admin/saved-replies/{id}',
    access: 'admin',
    form: 'general',
    notFound: ['failure', 'message'],
    success: 'success',
    also: [400, 403],
    params: { id: idParam(() => [1, 2, 3]) },
  },
  ...(['sla', 'times', 'volume'] as const).map(
    (report): RouteSpec => ({
      method: 'GET',
      path: `/api/admin/reports/${report}`,
      access: 'admin',
      form: 'general',
      notFound: [],
      success: 'success',
      also: [400, 403],
      query: {
        from: fc.constantFrom('2026-01-01', '2026-11-01', '2026-13-40'),
        to: fc.constantFrom('2026-11-30', '2025-01-01'),
        ...(report === 'volume' ? { by: fc.constantFrom('day', 'category') } : {}),
      },
    }),
  ),
  {
    method: 'POST',
    path: '/api/admin/stream-tokens',
    access: 'admin',
    form: 'general',
    notFound: [],
    success: 'success',
    also: [400, 403],
    body: {},
  },
  {
    method: 'GET',
    path: '/api/admin/stream',
    access: 'admin',
    form: 'general',
    notFound: [],
    success: 'event-stream',
    also: [403, 431],
    query: { stream_token: fc.oneof(fc.string({ maxLength: 60 }), fc.constant('A'.repeat(43))) },
  },

  // Knowledge base: the public help centre and its staff editor
  {
    method: 'GET',
    path: '/api/kb/categories',
    access: 'public',
    form: 'general',
    notFound: [],
    success: 'success',
    query: { lang: fc.constantFrom('en', 'fa') },
  },
  {
    method: 'GET',
    path: '/api/kb/articles',
    access: 'public',
    form: 'general',
    notFound: [],
    success: 'success',
    query: { lang: fc.constantFrom('en', 'fa'), q: text(0, 30), category: kbSlug, tag: kbSlug, ...page },
  },
  {
    method: 'GET',
    path: '/api/kb/articles/{slug}',
    access: 'public',
    form: 'general',
    notFound: ['failure', 'message'],
    success: 'success',
    also: [304],
    params: { slug: () => fc.oneof(kbSlug, hostileIdText) },
    query: { lang: fc.constantFrom('en', 'fa') },
  },
  {
    method: 'GET',
    path: '/api/admin/kb/articles',
    access: 'admin',
    form: 'general',
    notFound: [],
    success: 'success',
    also: [400, 403],
    query: {
      lang: fc.constantFrom('en', 'fa'),
      status: fc.constantFrom('draft', 'published', 'archived'),
      category: kbSlug,
      tag: kbSlug,
      q: text(0, 30),
      ...page,
    },
  },
  {
    method: 'POST',
    path: '/api/admin/kb/articles',
    access: 'admin',
    form: 'general',
    notFound: [],
    success: 'success',
    also: [400, 403, 409],
    body: {
      key: fc.constantFrom('payments.refund-time', 'fuzz.article', 'fuzz.other-one'),
      lang: fc.constantFrom('en', 'fa'),
      slug: kbSlug,
      title: text(1, 100),
      body: text(1, 300),
      questions: optional(fc.array(text(1, 60), { maxLength: 3 })),
      category: optional(fc.oneof(fc.constant(null), kbSlug)),
      tags: optional(fc.array(kbSlug, { maxLength: 3 })),
      pages: optional(fc.array(fc.constantFrom('wallet', 'projects.show', '/investments/:id'), { maxLength: 3 })),
      status: optional(fc.constantFrom('draft', 'published')),
    },
  },
  ...(
    [
      'GET /api/admin/kb/articles/{id}',
      'DELETE /api/admin/kb/articles/{id}',
      'GET /api/admin/kb/articles/{id}/revisions',
    ] as const
  ).map(
    (key): RouteSpec => ({
      method: key.split(' ')[0] as Method,
      path: key.split(' ')[1]!,
      access: 'admin',
      form: 'general',
      notFound: ['failure', 'message'],
      success: 'success',
      also: [400, 403, 409],
      params: kbArticleParam,
    }),
  ),
  {
    method: 'PUT',
    path: '/api/admin/kb/articles/{id}',
    access: 'admin',
    form: 'general',
    notFound: ['failure', 'message'],
    success: 'success',
    also: [400, 403, 409],
    params: kbArticleParam,
    body: {
      revision: fc.integer({ min: 1, max: 4 }),
      slug: optional(kbSlug),
      title: optional(text(1, 100)),
      body: optional(text(1, 300)),
      category: optional(fc.oneof(fc.constant(null), kbSlug)),
      tags: optional(fc.array(kbSlug, { maxLength: 3 })),
    },
  },
  ...(['publish', 'archive'] as const).map(
    (action): RouteSpec => ({
      method: 'POST',
      path: `/api/admin/kb/articles/{id}/${action}`,
      access: 'admin',
      form: 'general',
      notFound: ['failure', 'message'],
      success: 'success',
      also: [400, 403, 409],
      params: kbArticleParam,
      body: { revision: optional(fc.integer({ min: 1, max: 4 })) },
    }),
  ),
  {
    method: 'POST',
    path: '/api/admin/kb/articles/{id}/revisions/{revision}/restore',
    access: 'admin',
    form: 'general',
    notFound: ['failure', 'message'],
    success: 'success',
    also: [400, 403, 409],
    params: { ...kbArticleParam, revision: idParam(() => [1, 2, 3]) },
    body: { revision: optional(fc.integer({ min: 1, max: 4 })) },
  },
  ...(['GET /api/admin/kb/categories', 'GET /api/admin/kb/tags'] as const).map(
    (key): RouteSpec => ({
      method: 'GET',
      path: key.split(' ')[1]!,
      access: 'admin',
      form: 'general',
      notFound: [],
      success: 'success',
      also: [400, 403],
    }),
  ),
  ...(['POST /api/admin/kb/categories', 'PUT /api/admin/kb/categories/{id}'] as const).map(
    (key): RouteSpec => ({
      method: key.split(' ')[0] as Method,
      path: key.split(' ')[1]!,
      access: 'admin',
      form: 'general',
      notFound: ['failure', 'message'],
      success: 'success',
      also: [400, 403, 409],
      params: key.startsWith('PUT') ? { id: idParam(() => [1, 2, 3]) } : undefined,
      body: {
        slug: kbSlug,
        parent_id: optional(fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 4 }))),
        name_en: text(1, 60),
        name_fa: text(1, 60),
        position: optional(fc.integer({ min: 0, max: 100 })),
      },
    }),
  ),
  {
    method: 'POST',
    path: '/api/admin/kb/tags',
    access: 'admin',
    form: 'general',
    notFound: [],
    success: 'success',
    also: [400, 403, 409],
    body: { name: kbSlug },
  },
  ...(['/api/admin/kb/categories/{id}', '/api/admin/kb/tags/{id}'] as const).map(
    (path): RouteSpec => ({
      method: 'DELETE',
      path,
      access: 'admin',
      form: 'general',
      notFound: ['failure', 'message'],
      success: 'success',
      also: [400, 403, 409],
      params: { id: idParam(() => [1, 2, 3]) },
    }),
  ),
];

/** Every /api route the app serves, as "METHOD /api/path/{param}", from its OpenAPI document. */
export function servedApiRoutes(app: FastifyInstance): string[] {
  const document = app.swagger() as { paths?: Record<string, Record<string, unknown>> };
  const served: string[] = [];
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    if (!path.startsWith('/api/')) continue;
    for (const method of Object.keys(operations)) {
      if (['get', 'post', 'put', 'delete', 'patch'].includes(method)) served.push(`${method.toUpperCase()} ${path}`);
    }
  }
  return served.sort();
}

/** The URL of a route with its parameters filled in (each one percent-encoded as a path segment). */
export function urlFor(route: RouteSpec, params: Record<string, string>): string {
  return route.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const value = params[name] ?? '';
    return value.startsWith(RAW_SEGMENT) ? value.slice(RAW_SEGMENT.length) : encodeURIComponent(value);
  });
}
