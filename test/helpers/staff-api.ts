// The staff console's API over a real socket (the test/console-api files): one server process
// (harness/server.ts) on the database under test, requests as a user, every answer checked
// against the server's own OpenAPI document; the 403 body of a member on a staff route and a
// ticket filed by a member through the API.
import { expect } from 'vitest';
import { launchServer, type ServerProcess } from '../../harness/server.js';
import { createTestDatabase, type TestDatabase } from './app.js';
import { Contract } from './contract.js';
import type { TestUser } from './factories.js';

/** What a member gets on a staff route. */
export const FORBIDDEN = { success: false, message: 'This action is reserved for administrators.' };

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

export interface StaffApi {
  database: TestDatabase;
  server: ServerProcess;
  call(auth: Record<string, string> | null, method: string, path: string, body?: unknown): Promise<Answer>;
  close(): Promise<void>;
}

export async function startStaffApi(env: Record<string, string> = {}): Promise<StaffApi> {
  const database = await createTestDatabase();
  const server = await launchServer({ env: { ...database.env, ...env } });
  const contract = new Contract((await (await fetch(`${server.url}/openapi.json`)).json()) as never, false);
  return {
    database,
    server,
    async call(auth, method, path, body) {
      const headers: Record<string, string> = { ...(auth ?? {}) };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      const problem = contract.problem(method, path.split('?')[0]!, {
        statusCode: res.status,
        headers: Object.fromEntries(res.headers),
        body: text,
      });
      expect(problem, `${method} ${path} ${res.status}: ${text.slice(0, 300)}`).toBeUndefined();
      let json: any;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.status, headers: res.headers, text, json };
    },
    async close() {
      await server.stop();
      await database.destroy();
    },
  };
}

/** A ticket the member files through POST /api/tickets (201 expected); its id. */
export async function fileTicket(
  api: StaffApi,
  who: TestUser,
  subject: string,
  extra: Record<string, unknown> = {},
): Promise<number> {
  const res = await api.call(who.auth, 'POST', '/api/tickets', {
    subject,
    message: `${subject}: written by the member for the test.`,
    ...extra,
  });
  expect(res.status).toBe(201);
  return res.json.data.id as number;
}
