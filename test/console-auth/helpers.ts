// A real server (its own process, real sockets) on the database under test, and the requests a
// browser makes to it: the staff console's link, cookie, anti-forgery header and Origin.
import { createHash } from 'node:crypto';
import { launchServer, type ServerProcess } from '../../harness/server.js';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';
import { userWithToken, type TestUser } from '../helpers/factories.js';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

export interface Signed {
  cookie: string;
  csrf: string;
  setCookie: string;
}

export class ConsoleServer {
  constructor(
    readonly server: ServerProcess,
    readonly database: TestDatabase,
  ) {}

  static async start(env: Record<string, string> = {}): Promise<ConsoleServer> {
    const database = await createTestDatabase();
    const server = await launchServer({ env: { ...database.env, RATE_LIMIT_PER_MINUTE: '0', ...env } });
    return new ConsoleServer(server, database);
  }

  get url(): string {
    return this.server.url;
  }

  get db() {
    return this.database.db;
  }

  async close(): Promise<void> {
    await this.server.stop(10_000);
    await this.database.destroy();
  }

  /** A user with a token, given the role. */
  async person(role: 'member' | 'support' | 'admin'): Promise<TestUser> {
    const user = await userWithToken(this.db, { admin: role === 'admin' });
    if (role === 'support') await this.db.updateTable('users').set({ role }).where('id', '=', user.id).execute();
    return { ...user, role, is_admin: role === 'admin' };
  }

  async request(
    method: string,
    path: string,
    options: { headers?: Record<string, string>; body?: unknown; form?: boolean } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = { ...options.headers };
    let body: string | undefined;
    if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = '';
    } else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const res = await fetch(`${this.url}${path}`, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  }

  /** A link for the user, asked for by an administrator's token. */
  async link(admin: TestUser, userId: number): Promise<string> {
    const res = await this.request('POST', `/api/admin/users/${userId}/console-links`, { headers: admin.auth });
    if (res.status !== 201) throw new Error(`console-links answered ${res.status}: ${res.text}`);
    return new URL(res.json.data.url).pathname;
  }

  /** What the link page's form sends: an empty form from the service's own origin. */
  useLink(path: string, origin: string | null = this.url): Promise<Answer> {
    return this.request('POST', path, { form: true, headers: origin === null ? {} : { origin } });
  }

  /** Signs the user in through a link: the session cookie and its anti-forgery token. */
  async signIn(admin: TestUser, userId: number): Promise<Signed> {
    const used = await this.useLink(await this.link(admin, userId));
    if (used.status !== 303) throw new Error(`sign-in answered ${used.status}: ${used.text}`);
    const setCookie = used.headers.get('set-cookie') ?? '';
    const cookie = setCookie.split(';')[0]!;
    const session = await this.request('GET', '/api/console/session', { headers: { cookie } });
    return { cookie, csrf: session.json.data.csrf_token, setCookie };
  }

  /** Headers of a console request that changes something. */
  consoleHeaders(signed: Signed): Record<string, string> {
    return { cookie: signed.cookie, 'x-csrf-token': signed.csrf, origin: this.url };
  }
}

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
export const secretOf = (path: string) => path.split('/').pop()!;
