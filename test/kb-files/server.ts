// One server process for the uploaded-documents tests (the built server, so the extraction worker
// is the compiled file production runs), on the database under test, with an administrator and a
// member, and requests that every answer goes through the OpenAPI contract.
import { launchServer, type ServerProcess } from '../../harness/server.js';
import { Contract } from '../helpers/contract.js';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';
import { userWithToken, type TestUser } from '../helpers/factories.js';
import { multipart, type FilePart } from '../helpers/multipart.js';

export interface Answer {
  status: number;
  body: any;
}

export class DocumentServer {
  database!: TestDatabase;
  server!: ServerProcess;
  contract!: Contract;
  admin!: TestUser;
  member!: TestUser;

  async start(): Promise<void> {
    this.database = await createTestDatabase();
    this.admin = await userWithToken(this.database.db, { admin: true });
    this.member = await userWithToken(this.database.db);
    this.server = await launchServer({ entry: 'built', env: { ...this.database.env, RATE_LIMIT_PER_MINUTE: '0' } });
    this.contract = new Contract((await (await fetch(`${this.server.url}/openapi.json`)).json()) as never, false);
  }

  async stop(): Promise<void> {
    if (this.server) await this.server.stop();
    if (this.database) await this.database.destroy();
  }

  /** A request whose answer must be one the OpenAPI document describes. */
  async call(
    method: string,
    path: string,
    options: { auth?: Record<string, string>; json?: unknown; body?: Buffer; headers?: Record<string, string> } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = { ...options.auth, ...options.headers };
    let body: Buffer | string | undefined = options.body;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    const res = await fetch(`${this.server.url}${path}`, { method, headers, body });
    const text = await res.text();
    const parsed = text === '' ? undefined : JSON.parse(text);
    const problem = this.contract.problem(method, path, {
      statusCode: res.status,
      headers: Object.fromEntries(res.headers),
      body: text,
    } as never);
    if (problem) throw new Error(`${method} ${path} ${res.status}: ${problem}\n${text}`);
    return { status: res.status, body: parsed };
  }

  upload(files: FilePart[], fields: Array<[string, string]> = [], auth = this.admin.auth): Promise<Answer> {
    const form = multipart(
      fields,
      files.map((f) => ({ field: 'file', ...f })),
    );
    return this.call('POST', '/api/admin/kb/files', { auth, body: form.payload, headers: form.headers });
  }

  /** The file once it is no longer processing. */
  async settled(id: number, timeoutMs = 60_000): Promise<any> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const { body } = await this.call('GET', `/api/admin/kb/files/${id}`, { auth: this.admin.auth });
      if (body.data.status !== 'processing') return body.data;
      if (Date.now() > until) throw new Error(`file ${id} still processing after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Uploads one document and waits until it is read. */
  async uploaded(name: string, content: Buffer, fields: Array<[string, string]> = []): Promise<any> {
    const answer = await this.upload([{ name, content }], fields);
    if (answer.status !== 202) throw new Error(`upload of ${name}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return this.settled(answer.body.data.id);
  }

  chat(message: string, auth = this.member.auth): Promise<Answer> {
    return this.call('POST', '/api/assistant/chat', { auth, json: { message } });
  }
}
