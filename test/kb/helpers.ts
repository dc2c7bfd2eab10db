// The knowledge base's tests talk to the service over real sockets: a server process (source
// entry) on the database under test, and fetch. Every answer is checked against the service's own
// OpenAPI document.
import { expect } from 'vitest';
import { launchServer, type ServerProcess } from '../../harness/server.js';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';
import { Contract } from '../helpers/contract.js';

export interface Call {
  status: number;
  headers: Headers;
  body: any;
}

export class KbServer {
  private contract!: Contract;
  private constructor(
    readonly database: TestDatabase,
    readonly server: ServerProcess,
  ) {}

  static async start(database?: TestDatabase, env: Record<string, string> = {}): Promise<KbServer> {
    const db = database ?? (await createTestDatabase());
    const server = await launchServer({ env: { ...db.env, RATE_LIMIT_PER_MINUTE: '0', ...env } });
    const kb = new KbServer(db, server);
    kb.contract = new Contract((await (await fetch(`${server.url}/openapi.json`)).json()) as never, false);
    return kb;
  }

  get url(): string {
    return this.server.url;
  }

  /** A request; the answer must be one the document describes. */
  async call(
    method: string,
    path: string,
    options: { auth?: Record<string, string>; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Call> {
    const headers: Record<string, string> = { ...options.auth, ...options.headers };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.server.url}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await res.text();
    const problem = this.contract.problem(method, path, {
      statusCode: res.status,
      headers: Object.fromEntries(res.headers),
      body: text,
    });
    expect(problem, `${method} ${path} ${res.status} ${text.slice(0, 300)}`).toBeUndefined();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
  }

  async stop(destroy = true): Promise<void> {
    if (this.server.child.exitCode === null) await this.server.stop();
    if (destroy) await this.database.destroy();
  }
}

/** A valid new article; override what the test is about. */
export function article(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const suffix = Math.random().toString(36).slice(2, 8);
  return {
    key: `testing.article-${suffix}`,
    lang: 'en',
    slug: `article-${suffix}`,
    title: 'How do I water a cactus?',
    body: 'Rarely: once a month in **summer**.',
    questions: ['cactus watering schedule'],
    category: null,
    tags: ['plants'],
    pages: ['garden'],
    next: ['testing.cactus-soil'],
    ...overrides,
  };
}
