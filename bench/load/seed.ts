// Before the load: users and tokens straight into the database, then each user's tickets,
// notifications and a conversation through the API, and the geographic ids the reads will use.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { userWithToken } from '../../harness/users.js';
import type { Database } from '../../src/db/schema.js';
import { request } from './http.js';
import type { Client, World } from './mix.js';

export async function seed(url: string, db: Kysely<Database>, users: number): Promise<World> {
  const now = new Date().toISOString();
  const { auth: admin } = await userWithToken(db, {
    email: `load-admin-${randomBytes(3).toString('hex')}@example.com`,
    firstName: 'Load',
    lastName: 'Admin',
    admin: true,
  });
  const clients: Client[] = [];
  for (let i = 0; i < users; i++) {
    const user = await userWithToken(db, {
      email: `load-${i}-${now.slice(11, 19)}@example.com`,
      firstName: 'Load',
      lastName: `User ${i}`,
      locale: i % 5 === 0 ? 'fa' : 'en',
    });
    // Each simulated user comes from an address of its own (TRUST_PROXY=true on the server).
    clients.push({
      headers: { ...user.auth, 'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` },
      ticketIds: [],
      notificationIds: [],
      userId: user.id,
    });
  }
  const projectIds: World['projectIds'] = [];
  await Promise.all(
    clients.map(async (c, i) => {
      for (let t = 0; t < 3; t++) {
        const res = await request(url, 'POST', '/api/tickets', c.headers, {
          subject: `Seed ticket ${t}`,
          message: `Seeded before the load run, ticket ${t}.`,
        });
        c.ticketIds.push(JSON.parse(res.body).data.id);
      }
      for (let p = 0; p < 2; p++) {
        const id = 1_000_000 + i * 10 + p;
        const res = await request(url, 'PUT', `/api/admin/projects/${id}`, admin, {
          title: `Project ${id}`,
          owner_id: c.userId,
          status: 'under_review',
        });
        c.notificationIds.push(...(JSON.parse(res.body).notification_ids as string[]));
        projectIds.push({ id, ownerId: c.userId });
      }
      const chat = await request(url, 'POST', '/api/assistant/chat', c.headers, { message: 'Hello, what can you do?' });
      c.conversationId = JSON.parse(chat.body).conversation_id;
    }),
  );
  const provinces = JSON.parse((await request(url, 'GET', '/api/provinces', {})).body).data as Array<{ id: number }>;
  const provinceIds = provinces.map((p) => p.id);
  const countyIds = (
    await Promise.all(
      provinceIds
        .slice(0, 10)
        .map(
          async (id) =>
            JSON.parse((await request(url, 'GET', `/api/counties/${id}`, {})).body).data as Array<{ id: number }>,
        ),
    )
  )
    .flat()
    .map((c) => c.id);
  const districtIds = (
    await Promise.all(
      countyIds
        .slice(0, 20)
        .map(
          async (id) =>
            JSON.parse((await request(url, 'GET', `/api/districts/${id}`, {})).body).data as Array<{ id: number }>,
        ),
    )
  )
    .flat()
    .map((d) => d.id);
  if (!provinceIds.length || !countyIds.length || !districtIds.length) throw new Error('no geographic data to read');
  return { clients, admin, provinceIds, countyIds, districtIds, projectIds };
}
