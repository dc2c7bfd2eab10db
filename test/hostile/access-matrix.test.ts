// The access matrix: every endpoint × {no token, expired token, revoked token, another user,
// a non-admin on admin routes} → the exact status and body of the spec, with every application
// table compared before and after each refused request. The expired and revoked tokens belong to
// the resource's owner, so it is the token's state alone that refuses them. A last column proves
// each request is a real one: the owner (an admin on admin routes, the admin's console session on
// the console's cookie routes) gets the success.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { csrfTokenOf } from '../../src/modules/users/console/secrets.js';
import { makeToken } from '../helpers/factories.js';
import { multipart } from '../helpers/multipart.js';
import { FORBIDDEN } from '../helpers/staff-api.js';
import { UNAUTHENTICATED } from './checks.js';
import { socketWithin } from './requests.js';
import { ROUTES, routeKey } from './routes.js';
import { applicationTables, buildWorld, snapshot, type World } from './world.js';

type Principal = 'none' | 'expired' | 'revoked' | 'other' | 'nonAdmin';

interface Expected {
  status: number;
  /** Exact body; a function for bodies that name the request (the ticket 404). */
  body?: unknown;
  /** Checks on a success body when the exact body cannot be known (ids, timestamps). */
  check?: (body: any, w: World) => void | Promise<void>;
}

interface MatrixRow {
  route: string;
  access: 'public' | 'user' | 'admin';
  request: (w: World) => { url: string; payload?: unknown; headers?: Record<string, string> };
  /** What another (non-admin) user gets; default for user routes: their own (empty) view. */
  other?: (w: World) => Expected;
  /** The success of the rightful caller (owner, or admin on admin routes). */
  success: number;
  /** Public writes change data by design (escalate creates a ticket): no table comparison for them. */
  writes?: boolean;
  /** The success is an endless event stream: sent over a socket and read to its first event. */
  stream?: boolean;
  /** A console route: the rightful caller is the admin's console session with this cookie secret. */
  session?: () => string;
  /** Waits for the background work the rightful success started, so it cannot change a later row's tables. */
  settle?: (w: World, answer: any) => Promise<void>;
}

const FORBIDDEN_CONVERSATION = {
  status: 403,
  body: { success: false, message: 'You do not have access to this conversation.' },
};
const NOTIFICATION_404 = { status: 404, body: { message: 'Notification not found.' } };
const ADMIN_ONLY = { status: 403, body: FORBIDDEN };
const ticket404 = (id: number): Expected => ({
  status: 404,
  body: { message: `No query results for model [Ticket] ${id}` },
});
/** A collection of the caller's own: 200, and none of the owner's items in it. */
const ownViewOnly =
  (items: (body: any) => Array<{ id: unknown }>, ownerIds: (w: World) => unknown[]) =>
  (w: World): Expected => ({
    status: 200,
    check: (body) => {
      const ids = items(body).map((item) => item.id);
      for (const id of ownerIds(w)) expect(ids).not.toContain(id);
    },
  });

const ROWS: MatrixRow[] = [
  // Assistant
  {
    route: 'GET /api/assistant/welcome',
    access: 'public',
    request: () => ({ url: '/api/assistant/welcome' }),
    success: 200,
  },
  {
    route: 'POST /api/assistant/chat',
    access: 'user',
    request: (w) => ({
      url: '/api/assistant/chat',
      payload: { message: 'How do I invest?', conversation_id: w.mine.conversations[0] },
    }),
    other: () => FORBIDDEN_CONVERSATION,
    success: 200,
  },
  {
    route: 'GET /api/assistant/conversations',
    access: 'user',
    request: () => ({ url: '/api/assistant/conversations?status=active' }),
    other: ownViewOnly(
      (b) => b.conversations,
      (w) => w.mine.conversations,
    ),
    success: 200,
  },
  {
    route: 'GET /api/assistant/conversations/{id}',
    access: 'user',
    request: (w) => ({ url: `/api/assistant/conversations/${w.mine.conversations[0]}` }),
    other: () => FORBIDDEN_CONVERSATION,
    success: 200,
  },
  {
    route: 'DELETE /api/assistant/conversations/{id}',
    access: 'user',
    request: (w) => ({ url: `/api/assistant/conversations/${w.mine.conversations[1]}` }),
    other: () => FORBIDDEN_CONVERSATION,
    success: 200,
  },
  {
    route: 'PUT /api/assistant/conversations/{id}/archive',
    access: 'user',
    request: (w) => ({ url: `/api/assistant/conversations/${w.mine.conversations[0]}/archive` }),
    other: () => FORBIDDEN_CONVERSATION,
    success: 200,
  },
  // Feedback has no owner to protect: another user simply sends their own (a write of their own, so 201).
  {
    route: 'POST /api/assistant/feedback',
    access: 'user',
    request: () => ({
      url: '/api/assistant/feedback',
      payload: { type: 'bug', subject: 'Broken', content: 'The page is broken.' },
    }),
    other: () => ({ status: 201 }),
    success: 201,
  },
  { route: 'GET /api/admin/feedback', access: 'admin', request: () => ({ url: '/api/admin/feedback' }), success: 200 },
  {
    route: 'POST /api/assistant/escalate',
    access: 'public',
    request: () => ({ url: '/api/assistant/escalate', payload: { reason: 'I need a person' } }),
    success: 201,
    writes: true,
  },

  // Tickets
  {
    route: 'GET /api/tickets',
    access: 'user',
    request: () => ({ url: '/api/tickets' }),
    other: ownViewOnly(
      (b) => b.data,
      (w) => w.mine.tickets,
    ),
    success: 200,
  },
  {
    route: 'GET /api/tickets/stats',
    access: 'user',
    request: () => ({ url: '/api/tickets/stats' }),
    other: () => ({
      status: 200,
      check: async (body, w) => expect(body.data.total).toBe(await ticketsOf(w, w.other.id)),
    }),
    success: 200,
  },
  // Creating a ticket concerns no one else's data: another user creates their own.
  {
    route: 'POST /api/tickets',
    access: 'user',
    request: () => ({ url: '/api/tickets', payload: { subject: 'Matrix', message: 'A message long enough.' } }),
    other: () => ({ status: 201 }),
    success: 201,
  },
  {
    route: 'GET /api/tickets/{id}',
    access: 'user',
    request: (w) => ({ url: `/api/tickets/${w.mine.tickets[0]}` }),
    other: (w) => ticket404(w.mine.tickets[0]!),
    success: 200,
  },
  {
    route: 'PUT /api/tickets/{id}',
    access: 'user',
    request: (w) => ({ url: `/api/tickets/${w.mine.tickets[0]}`, payload: { priority: 'high', category: 'changed' } }),
    other: (w) => ticket404(w.mine.tickets[0]!),
    success: 200,
  },
  {
    route: 'PUT /api/tickets/{id}/close',
    access: 'user',
    request: (w) => ({ url: `/api/tickets/${w.mine.tickets[1]}/close` }),
    other: (w) => ticket404(w.mine.tickets[1]!),
    success: 200,
  },
  {
    route: 'POST /api/tickets/{id}/comments',
    access: 'user',
    request: (w) => ({ url: `/api/tickets/${w.mine.tickets[2]}/comments`, payload: { message: 'Any news on this?' } }),
    other: (w) => ticket404(w.mine.tickets[2]!),
    success: 201,
  },
  {
    route: 'GET /api/tickets/{id}/attachments/{attachment_id}/download',
    access: 'user',
    request: (w) => ({
      url: `/api/tickets/${w.mine.attachments[0]![0]}/attachments/${w.mine.attachments[0]![1]}/download`,
    }),
    other: (w) => ticket404(w.mine.attachments[0]![0]),
    success: 200,
  },
  { route: 'GET /api/admin/tickets', access: 'admin', request: () => ({ url: '/api/admin/tickets' }), success: 200 },
  {
    route: 'GET /api/admin/tickets/{id}',
    access: 'admin',
    request: (w) => ({ url: `/api/admin/tickets/${w.mine.tickets[0]}` }),
    success: 200,
  },
  {
    route: 'PUT /api/admin/tickets/{id}',
    access: 'admin',
    request: (w) => ({ url: `/api/admin/tickets/${w.mine.tickets[0]}`, payload: { status: 'in-progress' } }),
    success: 200,
  },
  {
    route: 'POST /api/admin/tickets/{id}/comments',
    access: 'admin',
    request: (w) => ({
      url: `/api/admin/tickets/${w.mine.tickets[0]}/comments`,
      payload: { message: 'We are on it.' },
    }),
    success: 201,
  },

  // Geographic
  { route: 'GET /api/provinces', access: 'public', request: () => ({ url: '/api/provinces' }), success: 200 },
  ...['counties', 'districts', 'cities', 'villages'].map(
    (name): MatrixRow => ({
      route: `GET /api/${name}/{id}`,
      access: 'public',
      request: () => ({ url: `/api/${name}/1` }),
      success: 200,
    }),
  ),
  {
    route: 'GET /api/geographic/continents',
    access: 'public',
    request: () => ({ url: '/api/geographic/continents' }),
    success: 200,
  },
  {
    route: 'GET /api/geographic/{level}/{parentId}/children',
    access: 'public',
    request: () => ({ url: '/api/geographic/province/1/children' }),
    success: 200,
  },

  // Notifications
  {
    route: 'GET /api/notifications',
    access: 'user',
    request: () => ({ url: '/api/notifications' }),
    other: ownViewOnly(
      (b) => b,
      (w) => w.mine.notifications,
    ),
    success: 200,
  },
  {
    route: 'GET /api/notifications/unread-count',
    access: 'user',
    request: () => ({ url: '/api/notifications/unread-count' }),
    other: () => ({
      status: 200,
      check: async (body, w) => expect(body).toEqual({ success: true, count: await unreadOf(w, w.other.id) }),
    }),
    success: 200,
  },
  // Another user's read-all marks only their own: the owner's rows are compared below like any refused request.
  {
    route: 'GET /api/notifications/stream',
    access: 'user',
    stream: true,
    request: () => ({ url: '/api/notifications/stream' }),
    // Another user's stream is their own: it starts with their unread count, never the owner's.
    other: () => ({
      status: 200,
      check: async (body, w) =>
        expect(body).toContain(`event: unread_count\ndata: {"count":${await unreadOf(w, w.other.id)}}`),
    }),
    success: 200,
  },
  {
    route: 'POST /api/notifications/stream-tokens',
    access: 'user',
    request: () => ({ url: '/api/notifications/stream-tokens' }),
    other: () => ({ status: 201 }),
    success: 201,
  },
  {
    route: 'POST /api/notifications/read-all',
    access: 'user',
    request: () => ({ url: '/api/notifications/read-all' }),
    other: () => ({ status: 200 }),
    success: 200,
  },
  {
    route: 'POST /api/notifications/{id}',
    access: 'user',
    request: (w) => ({ url: `/api/notifications/${w.mine.notifications[0]}` }),
    other: () => NOTIFICATION_404,
    success: 200,
  },
  {
    route: 'DELETE /api/notifications/{id}',
    access: 'user',
    request: (w) => ({ url: `/api/notifications/${w.mine.notifications[1]}` }),
    other: () => NOTIFICATION_404,
    success: 200,
  },
  {
    route: 'PUT /api/admin/projects/{id}',
    access: 'admin',
    request: (w) => ({
      url: '/api/admin/projects/101',
      payload: { title: 'Solar farm', owner_id: w.owner.id, status: 'approved' },
    }),
    success: 200,
  },
  {
    route: 'POST /api/admin/projects/{id}/revision-requests',
    access: 'admin',
    request: () => ({
      url: '/api/admin/projects/101/revision-requests',
      payload: { revision_notes: 'Add the budget.' },
    }),
    success: 201,
  },
  {
    route: 'PUT /api/admin/investments/{id}',
    access: 'admin',
    request: (w) => ({
      url: '/api/admin/investments/201',
      payload: { project_id: 102, investor_id: w.owner.id, amount: 7000, status: 'completed' },
    }),
    success: 200,
  },

  // Users (admin integration): a user mirrored here (9101) gets a token and loses it; the single
  // revocation takes a spare token of the other user, so their own token keeps working.
  {
    route: 'PUT /api/admin/users/{id}',
    access: 'admin',
    request: () => ({
      url: '/api/admin/users/9101',
      payload: { email: 'matrix@platform.test', first_name: 'Matrix', last_name: 'Row' },
    }),
    success: 201,
  },
  {
    route: 'POST /api/admin/users/{id}/tokens',
    access: 'admin',
    request: () => ({ url: '/api/admin/users/9101/tokens', payload: { name: 'matrix' } }),
    success: 201,
  },
  {
    route: 'GET /api/admin/users/{id}/tokens',
    access: 'admin',
    request: (w) => ({ url: `/api/admin/users/${w.other.id}/tokens` }),
    success: 200,
  },
  {
    route: 'DELETE /api/admin/users/{id}/tokens/{token_id}',
    access: 'admin',
    request: (w) => ({ url: `/api/admin/users/${w.other.id}/tokens/${spareTokenId}` }),
    success: 200,
  },
  {
    route: 'DELETE /api/admin/users/{id}/tokens',
    access: 'admin',
    request: () => ({ url: '/api/admin/users/9101/tokens' }),
    success: 200,
  },

  // Uploaded documents (staff): a file written into the database before the rows run (kbFileId).
  {
    route: 'POST /api/admin/kb/files',
    access: 'admin',
    request: () => {
      const form = multipart(
        [['title', 'Matrix']],
        [{ field: 'file', name: 'matrix.txt', content: Buffer.from('Row.') }],
      );
      return { url: '/api/admin/kb/files', payload: form.payload, headers: form.headers };
    },
    success: 202,
    // The document is read in a worker after the answer: wait until it is ready or failed.
    settle: async (w, answer) => {
      for (let i = 0; i < 150; i++) {
        const res = await w.t.app.inject({ url: `/api/admin/kb/files/${answer.data.id}`, headers: w.admin.auth });
        if (res.json().data?.status !== 'processing') return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('the uploaded document was still processing after 15 s');
    },
  },
  { route: 'GET /api/admin/kb/files', access: 'admin', request: () => ({ url: '/api/admin/kb/files' }), success: 200 },
  {
    route: 'GET /api/admin/kb/files/{id}',
    access: 'admin',
    request: () => ({ url: `/api/admin/kb/files/${kbFileId}` }),
    success: 200,
  },
  {
    route: 'GET /api/admin/kb/files/{id}/passages',
    access: 'admin',
    request: () => ({ url: `/api/admin/kb/files/${kbFileId}/passages` }),
    success: 200,
  },
  {
    route: 'PUT /api/admin/kb/files/{id}',
    access: 'admin',
    request: () => ({ url: `/api/admin/kb/files/${kbFileId}`, payload: { active: false } }),
    success: 200,
  },
  {
    route: 'DELETE /api/admin/kb/files/{id}',
    access: 'admin',
    request: () => ({ url: `/api/admin/kb/files/${kbFileId}` }),
    success: 200,
  },

  // Feedback on an answer (its owner's) and the unanswered questions (staff; gapId is asked in beforeAll).
  {
    route: 'POST /api/assistant/messages/{id}/feedback',
    access: 'user',
    request: () => ({ url: `/api/assistant/messages/${answerId}/feedback`, payload: { rating: 'down' } }),
    other: () => ({ status: 404, body: { success: false, message: 'Message not found.' } }),
    success: 200,
  },
  {
    route: 'GET /api/admin/assistant/gaps',
    access: 'admin',
    request: () => ({ url: '/api/admin/assistant/gaps' }),
    success: 200,
  },
  {
    route: 'PUT /api/admin/assistant/gaps/{id}',
    access: 'admin',
    request: () => ({ url: `/api/admin/assistant/gaps/${gapId}`, payload: { state: 'dismissed' } }),
    success: 200,
  },
  // Staff console (staff routes; the admin is the rightful caller). Saved replies, the tag and the
  // console ticket are made before any row runs, one per changing row, so no row needs another's.
  ...(['/api/admin/tickets/views', '/api/admin/tags', '/api/admin/saved-replies?lang=en'] as const).map(
    (url): MatrixRow => ({
      route: `GET ${url.split('?')[0]}`,
      access: 'admin',
      request: () => ({ url }),
      success: 200,
    }),
  ),
  {
    route: 'GET /api/admin/tickets/export.csv',
    access: 'admin',
    request: () => ({ url: '/api/admin/tickets/export.csv?status=open' }),
    success: 200,
  },
  {
    route: 'GET /api/admin/tickets/{id}/attachments/{attachment_id}/download',
    access: 'admin',
    request: (w) => ({
      url: `/api/admin/tickets/${w.mine.attachments[0]![0]}/attachments/${w.mine.attachments[0]![1]}/download`,
    }),
    success: 200,
  },
  {
    route: 'POST /api/admin/tickets/{id}/notes',
    access: 'admin',
    request: (w) => ({
      url: `/api/admin/tickets/${w.mine.tickets[0]}/notes`,
      payload: { message: 'Checked the bank.' },
    }),
    success: 201,
  },
  {
    route: 'PUT /api/admin/tickets/{id}/presence',
    access: 'admin',
    request: (w) => ({ url: `/api/admin/tickets/${w.mine.tickets[1]}/presence`, payload: { state: 'viewing' } }),
    success: 200,
  },
  {
    route: 'POST /api/admin/tickets/bulk',
    access: 'admin',
    request: (w) => ({
      url: '/api/admin/tickets/bulk',
      payload: { ids: [w.theirs.tickets[0], w.theirs.tickets[1]], action: 'priority', value: 'high' },
    }),
    success: 200,
  },
  {
    route: 'POST /api/admin/saved-replies',
    access: 'admin',
    request: () => ({
      url: '/api/admin/saved-replies',
      payload: { title: 'Matrix', body: 'Hello {{first_name}}, see {{tracking_code}}.', lang: 'en' },
    }),
    success: 201,
  },
  {
    route: 'PUT /api/admin/saved-replies/{id}',
    access: 'admin',
    request: () => ({
      url: `/api/admin/saved-replies/${made.savedReplies[0]}`,
      payload: { title: 'Changed', body: 'Hello {{first_name}}.', lang: 'fa' },
    }),
    success: 200,
  },
  {
    route: 'DELETE /api/admin/saved-replies/{id}',
    access: 'admin',
    request: () => ({ url: `/api/admin/saved-replies/${made.savedReplies[1]}` }),
    success: 200,
  },
  ...(['sla', 'times', 'volume'] as const).map(
    (report): MatrixRow => ({
      route: `GET /api/admin/reports/${report}`,
      access: 'admin',
      request: () => ({
        url: `/api/admin/reports/${report}?from=2026-01-01&to=2026-12-31${report === 'volume' ? '&by=day' : ''}`,
      }),
      success: 200,
    }),
  ),
  {
    route: 'POST /api/admin/stream-tokens',
    access: 'admin',
    request: () => ({ url: '/api/admin/stream-tokens', payload: {} }),
    success: 201,
  },
  {
    route: 'GET /api/admin/stream',
    access: 'admin',
    stream: true,
    request: () => ({ url: '/api/admin/stream' }),
    success: 200,
  },

  // Inbound mail (staff): two held messages written before the rows run, one to accept, one to reject.
  {
    route: 'GET /api/admin/inbound-mail',
    access: 'admin',
    request: () => ({ url: '/api/admin/inbound-mail' }),
    success: 200,
  },
  {
    route: 'POST /api/admin/inbound-mail',
    access: 'admin',
    request: () => ({
      url: '/api/admin/inbound-mail',
      headers: { 'content-type': 'message/rfc822' },
      payload: heldMail('matrix-new'),
    }),
    success: 200,
  },
  ...(['accept', 'reject'] as const).map(
    (decision, at): MatrixRow => ({
      route: `POST /api/admin/inbound-mail/{id}/${decision}`,
      access: 'admin',
      request: () => ({ url: `/api/admin/inbound-mail/${made.heldMail[at]}/${decision}` }),
      success: 200,
    }),
  ),

  // Knowledge base: the public help centre (a published article, made before the rows run)
  { route: 'GET /api/kb/categories', access: 'public', request: () => ({ url: '/api/kb/categories' }), success: 200 },
  {
    route: 'GET /api/kb/articles',
    access: 'public',
    request: () => ({ url: '/api/kb/articles?lang=en' }),
    success: 200,
  },
  {
    route: 'GET /api/kb/articles/{slug}',
    access: 'public',
    request: () => ({ url: '/api/kb/articles/matrix-published?lang=en' }),
    success: 200,
  },
  // ... and its editor (staff): one article per changing row, a category and a tag of its own each.
  {
    route: 'GET /api/admin/kb/articles',
    access: 'admin',
    request: () => ({ url: '/api/admin/kb/articles?status=draft' }),
    success: 200,
  },
  {
    route: 'POST /api/admin/kb/articles',
    access: 'admin',
    request: () => ({ url: '/api/admin/kb/articles', payload: kbArticle('matrix-created') }),
    success: 201,
  },
  ...(['GET /api/admin/kb/articles/{id}', 'GET /api/admin/kb/articles/{id}/revisions'] as const).map(
    (route): MatrixRow => ({
      route,
      access: 'admin',
      request: () => ({ url: route.split(' ')[1]!.replace('{id}', String(made.articles.read)) }),
      success: 200,
    }),
  ),
  {
    route: 'PUT /api/admin/kb/articles/{id}',
    access: 'admin',
    request: () => ({
      url: `/api/admin/kb/articles/${made.articles.update}`,
      payload: { revision: 1, title: 'Changed by the matrix' },
    }),
    success: 200,
  },
  {
    route: 'DELETE /api/admin/kb/articles/{id}',
    access: 'admin',
    request: () => ({ url: `/api/admin/kb/articles/${made.articles.remove}` }),
    success: 200,
  },
  ...(['publish', 'archive'] as const).map(
    (action): MatrixRow => ({
      route: `POST /api/admin/kb/articles/{id}/${action}`,
      access: 'admin',
      request: () => ({ url: `/api/admin/kb/articles/${made.articles[action]}/${action}`, payload: { revision: 1 } }),
      success: 200,
    }),
  ),
  {
    route: 'POST /api/admin/kb/articles/{id}/revisions/{revision}/restore',
    access: 'admin',
    request: () => ({
      url: `/api/admin/kb/articles/${made.articles.restore}/revisions/1/restore`,
      payload: { revision: 2 },
    }),
    success: 200,
  },
  ...(['GET /api/admin/kb/categories', 'GET /api/admin/kb/tags'] as const).map(
    (route): MatrixRow => ({ route, access: 'admin', request: () => ({ url: route.split(' ')[1]! }), success: 200 }),
  ),
  {
    route: 'POST /api/admin/kb/categories',
    access: 'admin',
    request: () => ({
      url: '/api/admin/kb/categories',
      payload: { slug: 'matrix-new', name_en: 'Matrix', name_fa: 'ماتریس', position: 3 },
    }),
    success: 201,
  },
  {
    route: 'PUT /api/admin/kb/categories/{id}',
    access: 'admin',
    request: () => ({
      url: `/api/admin/kb/categories/${made.categories[0]}`,
      payload: { slug: 'matrix-changed', name_en: 'Changed', name_fa: 'تغییر' },
    }),
    success: 200,
  },
  {
    route: 'DELETE /api/admin/kb/categories/{id}',
    access: 'admin',
    request: () => ({ url: `/api/admin/kb/categories/${made.categories[1]}` }),
    success: 200,
  },
  {
    route: 'POST /api/admin/kb/tags',
    access: 'admin',
    request: () => ({ url: '/api/admin/kb/tags', payload: { name: 'matrixnew' } }),
    success: 201,
  },
  {
    route: 'DELETE /api/admin/kb/tags/{id}',
    access: 'admin',
    request: () => ({ url: `/api/admin/kb/tags/${made.tag}` }),
    success: 200,
  },

  // The console's sign-in. Public: asking for a link (the same answer for any address), and the
  // link's page and its use, each call with a fresh link of the admin's written before the rows run.
  {
    route: 'POST /api/console/sign-in-requests',
    access: 'public',
    request: () => ({ url: '/api/console/sign-in-requests', payload: { email: 'nobody@example.com' } }),
    success: 202,
  },
  {
    route: 'GET /api/console/links/{token}',
    access: 'public',
    request: () => ({ url: `/api/console/links/${made.links[0]}` }),
    success: 200,
  },
  {
    route: 'POST /api/console/links/{token}',
    access: 'public',
    request: (w) => ({ url: `/api/console/links/${made.links.pop()}`, headers: { origin: ownOrigin(w) } }),
    success: 303,
    writes: true,
  },
  // Signed in through the console: a bearer token is never a session, so every bearer caller is
  // refused with 401; the rightful caller is the admin's console session (cookie, anti-forgery token, Origin).
  ...(['GET /api/console/session', 'GET /api/console/preferences'] as const).map(
    (route): MatrixRow => ({
      route,
      access: 'user',
      session: () => made.sessions.staying,
      request: () => ({ url: route.split(' ')[1]! }),
      other: () => ({ status: 401, body: UNAUTHENTICATED }),
      success: 200,
    }),
  ),
  {
    route: 'PUT /api/console/preferences',
    access: 'user',
    session: () => made.sessions.staying,
    request: () => ({ url: '/api/console/preferences', payload: { locale: 'fa' } }),
    other: () => ({ status: 401, body: UNAUTHENTICATED }),
    success: 200,
  },
  {
    route: 'DELETE /api/console/session',
    access: 'user',
    session: () => made.sessions.leaving,
    request: () => ({ url: '/api/console/session' }),
    other: () => ({ status: 401, body: UNAUTHENTICATED }),
    success: 200,
  },
  // ... and the staff's sign-in in the admin integration API.
  { route: 'GET /api/admin/staff', access: 'admin', request: () => ({ url: '/api/admin/staff' }), success: 200 },
  {
    route: 'POST /api/admin/users/{id}/console-links',
    access: 'admin',
    request: (w) => ({ url: `/api/admin/users/${w.admin.id}/console-links` }),
    success: 201,
  },
  {
    route: 'GET /api/admin/users/{id}/console-sessions',
    access: 'admin',
    request: (w) => ({ url: `/api/admin/users/${w.admin.id}/console-sessions` }),
    success: 200,
  },
  {
    route: 'DELETE /api/admin/users/{id}/console-sessions/{session_id}',
    access: 'admin',
    request: (w) => ({ url: `/api/admin/users/${w.admin.id}/console-sessions/${made.spareSessions[0]}` }),
    success: 200,
  },
  {
    route: 'DELETE /api/admin/users/{id}/console-sessions',
    access: 'admin',
    request: (w) => ({ url: `/api/admin/users/${w.other.id}/console-sessions` }),
    success: 200,
  },
];

/** What the changing rows change, written before any row runs (see beforeAll), one each. */
const made = {
  savedReplies: [] as number[],
  heldMail: [] as number[],
  articles: { read: 0, update: 0, remove: 0, publish: 0, archive: 0, restore: 0 },
  categories: [] as number[],
  tag: 0,
  /** Console links of the admin: the page shows the first; every use takes one of its own. */
  links: [] as string[],
  /** Cookie secrets of the admin's console sessions. */
  sessions: { staying: '', leaving: '' },
  spareSessions: [] as number[],
};

/** A mail from a stranger, which the service holds for staff. */
function heldMail(id: string): string {
  return [
    'From: Stranger <stranger@example.com>',
    'To: support@platform.local',
    'Subject: A question',
    `Message-ID: <${id}@example.com>`,
    'Date: Wed, 25 Nov 2026 10:00:00 +0000',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Please send the refund.',
    '',
  ].join('\r\n');
}

function kbArticle(slug: string, status: 'draft' | 'published' = 'draft'): Record<string, unknown> {
  const body = { key: `matrix.${slug}`, lang: 'en', slug, title: `Matrix ${slug}`, body: 'A **short** body.' };
  return { ...body, questions: ['matrix'], category: null, tags: [], pages: [], status };
}

/** The origin of the service as the test app is addressed (inject's host). */
function ownOrigin(w: World): string {
  return w.t.config.PUBLIC_URL ? new URL(w.t.config.PUBLIC_URL).origin : 'http://localhost:80';
}

function sessionHeaders(w: World, secret: string): Record<string, string> {
  return { cookie: `console_session=${secret}`, 'x-csrf-token': csrfTokenOf(secret), origin: ownOrigin(w) };
}

/** Writes what the changing rows need: through the API where it has a way, else into the tables. */
async function makeRowData(w: World): Promise<void> {
  const call = async (method: 'POST' | 'PUT', url: string, payload: unknown, status: number) => {
    const res = await w.t.app.inject({ method, url, headers: w.admin.auth, payload: payload as object });
    expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(status);
    return res.json().data;
  };
  for (const title of ['Kept', 'Gone'])
    made.savedReplies.push(
      (await call('POST', '/api/admin/saved-replies', { title, body: 'Hi.', lang: 'en' }, 201)).id,
    );
  for (const key of ['read', 'update', 'remove', 'publish', 'archive', 'restore'] as const)
    made.articles[key] = (await call('POST', '/api/admin/kb/articles', kbArticle(`matrix-${key}`), 201)).id;
  await call('PUT', `/api/admin/kb/articles/${made.articles.restore}`, { revision: 1, body: 'Second body.' }, 200);
  await call('POST', '/api/admin/kb/articles', kbArticle('matrix-published', 'published'), 201);
  for (const slug of ['matrix-one', 'matrix-two'])
    made.categories.push(
      (await call('POST', '/api/admin/kb/categories', { slug, name_en: 'M', name_fa: 'م' }, 201)).id,
    );
  made.tag = (await call('POST', '/api/admin/kb/tags', { name: 'matrixgone' }, 201)).id;

  const now = new Date();
  const later = new Date(now.getTime() + 3_600_000).toISOString();
  for (const id of ['matrix-held-1', 'matrix-held-2']) {
    const raw = heldMail(id);
    const row = await w.t.db
      .insertInto('inbound_mail')
      .values({
        ...{ message_id: `<${id}@example.com>`, from_address: 'stranger@example.com', subject: 'A question' },
        ...{ status: 'held', reason: 'unknown_sender', ticket_id: w.mine.tickets[2]! },
        ...{ original_text: 'Please send the refund.', raw_message: Buffer.from(raw).toString('base64') },
        created_at: now.toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    made.heldMail.push(row.id);
  }
  const secret = () => randomBytes(32).toString('base64url');
  const hash = (value: string) => createHash('sha256').update(value).digest('hex');
  for (let i = 0; i < 7; i++) {
    const token = secret();
    made.links.push(token);
    await w.t.db
      .insertInto('console_links')
      .values({ user_id: w.admin.id, token_hash: hash(token), created_at: now.toISOString(), expires_at: later })
      .execute();
  }
  const session = async (value: string) =>
    (
      await w.t.db
        .insertInto('console_sessions')
        .values({
          ...{ user_id: w.admin.id, token_hash: hash(value), user_agent: 'matrix' },
          ...{ created_at: now.toISOString(), last_seen_at: now.toISOString() },
          ...{ idle_expires_at: later, expires_at: later },
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  made.sessions.staying = secret();
  made.sessions.leaving = secret();
  await session(made.sessions.staying);
  await session(made.sessions.leaving);
  made.spareSessions.push(await session(secret()));
}

/** A ready document, an answer of the owner's and a group of unanswered questions (set before any row runs). */
let kbFileId = 0;
let answerId = 0;
let gapId = '';

/** A second token of the other user, for the single revocation (set before any row runs). */
let spareTokenId = 0;

async function ticketsOf(w: World, userId: number): Promise<number> {
  return (await w.t.db.selectFrom('tickets').select('id').where('user_id', '=', userId).execute()).length;
}

async function unreadOf(w: World, userId: number): Promise<number> {
  return (
    await w.t.db
      .selectFrom('notifications')
      .select('id')
      .where('user_id', '=', userId)
      .where('read_at', 'is', null)
      .execute()
  ).length;
}

const methodOf = (route: string) => route.split(' ')[0] as 'GET' | 'POST' | 'PUT' | 'DELETE';

describe('access matrix', () => {
  let w: World;
  let base: string;
  let tables: string[];
  let headersOf: Record<Principal | 'rightful', (row: MatrixRow) => Record<string, string>>;

  beforeAll(async () => {
    w = await buildWorld();
    base = await w.t.app.listen({ port: 0, host: '127.0.0.1' });
    tables = await applicationTables(w.t);
    const expired = `Bearer ${await makeToken(w.t.db, w.owner.id, { expired: true })}`;
    const revoked = `Bearer ${await makeToken(w.t.db, w.owner.id, { revoked: true })}`;
    spareTokenId = Number((await makeToken(w.t.db, w.other.id)).split('|')[0]);
    const now = new Date().toISOString();
    kbFileId = (
      await w.t.db
        .insertInto('kb_files')
        .values({
          ...{ title: 'Matrix', file_name: 'matrix.md', kind: 'md', file_size: 4, sha256: 'f'.repeat(64), lang: 'en' },
          ...{
            status: 'ready',
            active: 1,
            passage_count: 0,
            uploaded_by: w.admin.id,
            created_at: now,
            updated_at: now,
          },
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const asked = await w.t.app.inject({
      method: 'POST',
      url: '/api/assistant/chat',
      headers: w.owner.auth,
      payload: { message: 'Can I pay with bitcoin?' },
    });
    answerId = (
      await w.t.db
        .selectFrom('assistant_messages')
        .select('id')
        .where('conversation_id', '=', asked.json().conversation_id)
        .where('role', '=', 'assistant')
        .executeTakeFirstOrThrow()
    ).id;
    await makeRowData(w);
    gapId = (await w.t.app.inject({ method: 'GET', url: '/api/admin/assistant/gaps', headers: w.admin.auth })).json()
      .data[0].id;
    headersOf = {
      none: () => ({}),
      expired: () => ({ authorization: expired }),
      revoked: () => ({ authorization: revoked }),
      other: () => w.other.auth,
      nonAdmin: () => w.owner.auth,
      rightful: (row) =>
        row.session ? sessionHeaders(w, row.session()) : row.access === 'admin' ? w.admin.auth : w.owner.auth,
    };
  });
  afterAll(() => w?.t.close());

  it('has a row for every route of the catalogue, so for every /api route the app serves', () => {
    expect(ROWS.map((r) => r.route).sort()).toEqual(ROUTES.map(routeKey).sort());
  });

  async function send(
    row: MatrixRow,
    headers: Record<string, string>,
  ): Promise<{ statusCode: number; body: string; json(): any }> {
    const { url, payload, headers: own } = row.request(w);
    const options: InjectOptions = { method: methodOf(row.route), url, headers: { ...headers, ...own } };
    if (payload !== undefined) options.payload = payload as InjectOptions['payload'];
    if (!row.stream) return w.t.app.inject(options);
    const answer = await socketWithin(base, options, 15_000);
    return {
      ...answer,
      json: () =>
        String(answer.headers['content-type']).startsWith('text/event-stream') ? answer.body : JSON.parse(answer.body),
    };
  }

  function expectedFor(row: MatrixRow, principal: Principal): Expected | undefined {
    if (row.access === 'public') return { status: row.success };
    if (principal === 'none' || principal === 'expired' || principal === 'revoked')
      return { status: 401, body: UNAUTHENTICATED };
    if (row.access === 'admin') return ADMIN_ONLY;
    if (principal === 'nonAdmin') return undefined;
    return row.other?.(w);
  }

  it("POST /api/assistant/escalate of another user's conversation: 403 for a signed-in stranger, nothing changed", async () => {
    const before = await snapshot(w.t, tables);
    const res = await w.t.app.inject({
      method: 'POST',
      url: '/api/assistant/escalate',
      headers: w.other.auth,
      payload: { conversation_id: w.mine.conversations[0] },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(FORBIDDEN_CONVERSATION.body);
    expect(await snapshot(w.t, tables)).toEqual(before);
  });

  for (const row of ROWS) {
    it(`${row.route}: refused callers get the spec's answer and change nothing; the rightful caller succeeds`, async () => {
      const principals: Principal[] = ['none', 'expired', 'revoked', 'other', 'nonAdmin'];
      for (const principal of principals) {
        const expected = expectedFor(row, principal);
        if (!expected) continue;
        const before = await snapshot(w.t, tables);
        const res = await send(row, headersOf[principal](row));
        const label = `${row.route} as ${principal}`;
        expect(res.statusCode, `${label}: ${res.body.slice(0, 300)}`).toBe(expected.status);
        if (expected.body !== undefined) expect(res.json(), label).toEqual(expected.body);
        await expected.check?.(res.json(), w);
        const changesData = row.writes || (expected.status < 300 && methodOf(row.route) !== 'GET');
        if (!changesData) expect(await snapshot(w.t, tables), `${label} changed the database`).toEqual(before);
        else if (row.route === 'POST /api/notifications/read-all') {
          expect(await unreadOf(w, w.owner.id), `${label} marked the owner's notifications`).toBe(
            w.mine.notifications.length,
          );
        }
      }
      const res = await send(row, headersOf.rightful(row));
      expect(res.statusCode, `${row.route} as the rightful caller: ${res.body.slice(0, 300)}`).toBe(row.success);
      await row.settle?.(w, res.json());
    });
  }
});
