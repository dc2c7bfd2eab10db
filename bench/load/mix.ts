// The mix of the load benchmark: who the simulated clients are (World) and what they ask for, with
// each request type's share of the traffic.
import { type Answer, request } from './http.js';

export interface Client {
  headers: Record<string, string>;
  ticketIds: number[];
  notificationIds: string[];
  conversationId?: number;
  userId: number;
}

export interface World {
  clients: Client[];
  admin: Record<string, string>;
  provinceIds: number[];
  countyIds: number[];
  districtIds: number[];
  projectIds: Array<{ id: number; ownerId: number }>;
}

export type Op = (base: string, world: World, c: Client, n: number) => Promise<Answer>;
export const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)]!;
const PROJECT_STATUSES = ['approved', 'rejected', 'under_review', 'archived'];

/** The mix: name, share in per cent, the request. */
export const MIX: Array<[string, number, Op]> = [
  [
    'geo read',
    35,
    (b, w) => {
      const r = Math.random();
      if (r < 0.3) return request(b, 'GET', '/api/provinces', {});
      if (r < 0.6) return request(b, 'GET', `/api/counties/${pick(w.provinceIds)}`, {});
      if (r < 0.8) return request(b, 'GET', `/api/geographic/section/${pick(w.districtIds)}/children`, {});
      if (r < 0.9) return request(b, 'GET', `/api/districts/${pick(w.countyIds)}`, {});
      return request(b, 'GET', '/api/geographic/continents', {});
    },
  ],
  ['notifications list', 15, (b, _w, c) => request(b, 'GET', '/api/notifications', c.headers)],
  ['ticket list', 10, (b, _w, c) => request(b, 'GET', '/api/tickets', c.headers)],
  ['ticket detail', 10, (b, _w, c) => request(b, 'GET', `/api/tickets/${pick(c.ticketIds)}`, c.headers)],
  [
    'chat',
    10,
    (b, _w, c, n) =>
      request(b, 'POST', '/api/assistant/chat', c.headers, {
        message: `How do I withdraw my investment? (${n})`,
        ...(n % 2 && c.conversationId ? { conversation_id: c.conversationId } : {}),
      }),
  ],
  ['conversation list', 5, (b, _w, c) => request(b, 'GET', '/api/assistant/conversations', c.headers)],
  [
    'ticket create',
    5,
    async (b, _w, c, n) => {
      const res = await request(b, 'POST', '/api/tickets', c.headers, {
        subject: `Load test ${n}`,
        message: `A question asked under load, number ${n}.`,
      });
      if (res.status === 201 && c.ticketIds.length < 50) c.ticketIds.push(JSON.parse(res.body).data.id);
      return res;
    },
  ],
  [
    'comment',
    3,
    (b, _w, c, n) =>
      request(b, 'POST', `/api/tickets/${pick(c.ticketIds)}/comments`, c.headers, {
        message: `A follow-up, number ${n}.`,
      }),
  ],
  ['mark read', 4, (b, _w, c) => request(b, 'POST', `/api/notifications/${pick(c.notificationIds)}`, c.headers)],
  [
    'escalate',
    1,
    (b, _w, c, n) => request(b, 'POST', '/api/assistant/escalate', c.headers, { reason: `Escalated under load ${n}` }),
  ],
  [
    'feedback',
    1,
    (b, _w, c, n) =>
      request(b, 'POST', '/api/assistant/feedback', c.headers, {
        type: 'improvement',
        subject: 'Load',
        content: `Feedback ${n}`,
        rating: 4,
      }),
  ],
  // Keeps notifications coming, so mark read and the unread list keep working on fresh rows.
  [
    'admin project status',
    1,
    (b, w, _c, n) => {
      const project = pick(w.projectIds);
      return request(b, 'PUT', `/api/admin/projects/${project.id}`, w.admin, {
        title: `Project ${project.id}`,
        owner_id: project.ownerId,
        status: PROJECT_STATUSES[n % 4],
      });
    },
  ],
];
const TOTAL_SHARE = MIX.reduce((s, m) => s + m[1], 0);

export function chooseOp(): [string, Op] {
  let r = Math.random() * TOTAL_SHARE;
  for (const [name, share, op] of MIX) {
    r -= share;
    if (r < 0) return [name, op];
  }
  return [MIX[0]![0], MIX[0]![2]];
}
