import fs from 'node:fs';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract } from '../helpers/contract.js';
import { projectRoot } from '../../harness/server.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

// Every endpoint of the spec, as [method, OpenAPI path, needs a token (optional: either)].
const SPEC_ENDPOINTS: Array<[string, string, boolean | 'optional']> = [
  ['get', '/api/assistant/welcome', false],
  ['post', '/api/assistant/chat', true],
  ['get', '/api/assistant/conversations', true],
  ['get', '/api/assistant/conversations/{id}', true],
  ['delete', '/api/assistant/conversations/{id}', true],
  ['put', '/api/assistant/conversations/{id}/archive', true],
  ['post', '/api/assistant/feedback', true],
  ['post', '/api/assistant/escalate', 'optional'],
  ['get', '/api/tickets', true],
  ['get', '/api/tickets/stats', true],
  ['post', '/api/tickets', true],
  ['get', '/api/tickets/{id}', true],
  ['put', '/api/tickets/{id}', true],
  ['put', '/api/tickets/{id}/close', true],
  ['post', '/api/tickets/{id}/comments', true],
  ['get', '/api/tickets/{id}/attachments/{attachment_id}/download', true],
  ['get', '/api/provinces', false],
  ['get', '/api/counties/{id}', false],
  ['get', '/api/districts/{id}', false],
  ['get', '/api/cities/{id}', false],
  ['get', '/api/villages/{id}', false],
  ['get', '/api/geographic/continents', false],
  ['get', '/api/geographic/{level}/{parentId}/children', false],
  ['get', '/api/notifications', true],
  ['post', '/api/notifications/{id}', true],
  ['delete', '/api/notifications/{id}', true],
];

describe('OpenAPI document', () => {
  let t: TestApp;
  let doc: {
    paths: Record<
      string,
      Record<string, { security?: unknown[]; responses?: Record<string, unknown>; summary?: string }>
    >;
  };

  beforeAll(async () => {
    t = await buildTestApp();
    doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  });
  afterAll(() => t.close());

  it.each(SPEC_ENDPOINTS)('documents %s %s with its success response and security', (method, path, needsToken) => {
    const operation = doc.paths[path]?.[method];
    expect(operation, `${method} ${path} is missing`).toBeDefined();
    const statuses = Object.keys(operation!.responses ?? {});
    expect(statuses.some((s) => s === '200' || s === '201')).toBe(true);
    if (needsToken === 'optional') expect(operation!.security).toEqual([{}, { bearerAuth: [] }]);
    else if (needsToken) expect(operation!.security).toEqual([{ bearerAuth: [] }]);
    else expect(operation!.security).toEqual([]);
  });

  it('documents the 401 body of every protected operation', () => {
    for (const [method, path, needsToken] of SPEC_ENDPOINTS) {
      if (needsToken !== true) continue;
      expect(Object.keys(doc.paths[path]![method]!.responses ?? {}), `${method} ${path}`).toContain('401');
    }
  });
});

describe('OpenAPI document as a contract', () => {
  type Operation = {
    operationId?: string;
    parameters?: Array<{ in: string; name: string }>;
    responses: Record<
      string,
      { content?: Record<string, { schema: Record<string, unknown> }>; headers?: Record<string, unknown> }
    >;
    requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
    security?: unknown[];
  };
  let t: TestApp;
  let doc: {
    openapi: string;
    info: { version: string };
    servers: Array<{ url: string }>;
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, unknown> };
  };
  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ path, method, op })),
    );

  beforeAll(async () => {
    t = await buildTestApp({ config: { HOST: '127.0.0.1', PORT: 41399, RATE_LIMIT_PER_MINUTE: 600 } });
    doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  });
  afterAll(() => t.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("carries package.json's version and the configured address", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string };
    expect(doc.info.version).toBe(pkg.version);
    expect(doc.servers[0]!.url).toBe('http://127.0.0.1:41399');
  });

  it('names every operation once, readably', () => {
    const ids = operations().map(({ op }) => op.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/api/tickets']!.get!.operationId).toBe('listTickets');
    expect(doc.paths['/api/assistant/conversations/{id}']!.get!.operationId).toBe('showConversation');
  });

  it("documents the error answers every route can give, in the route's form", () => {
    for (const { path, method, op } of operations()) {
      const statuses = Object.keys(op.responses);
      const where = `${method} ${path}`;
      expect(statuses, where).toEqual(expect.arrayContaining(['400', '405', '503']));
      if (method !== 'get') expect(statuses, where).toEqual(expect.arrayContaining(['413', '415']));
      // A sign-in is required when no entry of security is the empty one (anonymous).
      const signedIn =
        op.security && op.security.length > 0 && op.security.every((s) => Object.keys(s as object).length > 0);
      if (signedIn) expect(statuses, where).toContain('401');
      if (path.startsWith('/api/admin/'))
        expect(op.security, where).toEqual([{ bearerAuth: [] }, { consoleSession: [] }]);
      if (path.startsWith('/api/admin/')) expect(statuses, where).toContain('403');
      if (path.includes('{')) expect(statuses, where).toEqual(expect.arrayContaining(['414', '422']));
      const form =
        path.startsWith('/api/assistant') || path === '/api/admin/feedback'
          ? 'AssistantValidationError'
          : path.includes('tickets')
            ? 'TicketValidationError'
            : 'GeneralValidationError';
      if (op.responses['422'])
        expect(op.responses['422'].content!['application/json']!.schema, where).toEqual({
          $ref: `#/components/schemas/${form}`,
        });
      for (const [status, answer] of Object.entries(op.responses)) {
        expect(answer.headers, `${where} ${status}`).toHaveProperty('x-request-id');
        if (status === '429' || status === '503')
          expect(answer.headers, `${where} ${status}`).toHaveProperty('retry-after');
        if (status === '405') expect(answer.headers).toHaveProperty('allow');
      }
      expect(
        op.parameters?.some((p) => p.in === 'header' && p.name === 'Accept-Language'),
        where,
      ).toBe(true);
    }
    expect(doc.paths['/api/tickets']!.get!.responses['429']).toBeDefined();
    expect(doc.paths['/api/tickets']!.get!.responses['200']!.headers).toHaveProperty('x-ratelimit-remaining');
  });

  it('puts the named schemas in components and refers to them', () => {
    for (const name of [
      'Ticket',
      'TicketSummary',
      'TicketDetail',
      'Comment',
      'Attachment',
      'Conversation',
      'Notification',
      'ErrorMessage',
      'Failure',
      'TicketValidationError',
    ]) {
      expect(doc.components.schemas, name).toHaveProperty(name);
    }
    const created = doc.paths['/api/tickets']!.post!.responses['201']!.content!['application/json']!.schema as {
      properties: { data: unknown };
    };
    expect(created.properties.data).toEqual({ $ref: '#/components/schemas/Ticket' });
  });

  it('describes the download (file, JSON errors), the upload forms, the geographic caching and the query bounds', () => {
    const download = doc.paths['/api/tickets/{id}/attachments/{attachment_id}/download']!.get!;
    expect(download.responses['200']!.content!['application/octet-stream']!.schema).toMatchObject({
      type: 'string',
      format: 'binary',
    });
    for (const status of ['401', '404', '422'])
      expect(Object.keys(download.responses[status]!.content!)).toEqual(['application/json']);
    for (const [p, m] of [
      ['/api/tickets', 'post'],
      ['/api/tickets/{id}/comments', 'post'],
      ['/api/admin/tickets/{id}/comments', 'post'],
    ] as const) {
      const form = doc.paths[p]![m]!.requestBody!.content['multipart/form-data']!.schema;
      expect(form.properties!['attachments[]'], p).toEqual(
        expect.objectContaining({ type: 'array', items: { type: 'string', format: 'binary' } }),
      );
      expect(form.properties, p).toHaveProperty('message');
    }
    const provinces = doc.paths['/api/provinces']!.get!;
    expect(provinces.parameters!.some((p) => p.name === 'If-None-Match')).toBe(true);
    expect(provinces.responses['200']!.headers).toHaveProperty('etag');
    expect(provinces.responses['304']).toBeDefined();
    const perPage = doc.paths['/api/tickets']!.get!.parameters!.find((p) => p.name === 'per_page') as unknown as {
      schema: { minimum: number; maximum: number };
    };
    expect(perPage.schema).toMatchObject({ minimum: 1, maximum: 100 });
  });

  it('refuses an answer it does not describe (the check every test gets)', () => {
    const contract = new Contract(doc as never);
    const json = { 'content-type': 'application/json; charset=utf-8' };
    const ok = {
      statusCode: 200,
      headers: json,
      body: JSON.stringify({ success: true, data: { total: 1, open: 1, in_progress: 0, closed: 0 } }),
    };
    expect(contract.problem('GET', '/api/tickets/stats', ok)).toBeUndefined();
    expect(contract.problem('GET', '/api/tickets/stats', { ...ok, statusCode: 418 })).toMatch(
      /status 418 is not documented/,
    );
    expect(
      contract.problem('GET', '/api/tickets/stats', {
        ...ok,
        body: JSON.stringify({ success: true, data: { total: 'one' } }),
      }),
    ).toMatch(/does not match/);
    expect(contract.problem('GET', '/api/tickets/stats', { ...ok, headers: { 'content-type': 'text/html' } })).toMatch(
      /content type text\/html/,
    );
    expect(
      contract.problem('GET', '/api/tickets/7', {
        statusCode: 404,
        headers: json,
        body: '{"message":"No query results for model [Ticket] 7"}',
      }),
    ).toBeUndefined();
    expect(
      contract.problem('DELETE', '/api/nowhere', { statusCode: 404, headers: json, body: '{"message":"x"}' }),
    ).toBeUndefined();
    expect(contract.problem('DELETE', '/api/nowhere', { statusCode: 200, headers: json, body: '{}' })).toMatch(
      /no operation/,
    );
  });
});

describe('OpenAPI document for generated clients', () => {
  type Schema = Record<string, unknown> & { properties?: Record<string, Schema> };
  type Operation = {
    operationId?: string;
    description?: string;
    summary?: string;
    tags?: string[];
    security?: unknown[];
    parameters?: Array<{ in: string; name: string; schema: Schema }>;
    requestBody?: { content: Record<string, { schema: Schema }> };
    responses: Record<
      string,
      { description: string; content?: Record<string, { schema: Schema }>; 'x-negotiated-content'?: unknown }
    >;
  };
  let t: TestApp;
  let doc: {
    tags: Array<{ name: string; description: string }>;
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, Schema> };
  };
  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ path, method, op })),
    );
  const schemaOf = (name: string) => doc.components.schemas[name]!;

  beforeAll(async () => {
    t = await buildTestApp();
    doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  });
  afterAll(() => t.close());

  it('gives every operation its own operationId, description and declared tags, and every answer a description', () => {
    const declared = new Map(doc.tags.map((tag) => [tag.name, tag.description]));
    for (const { path, method, op } of operations()) {
      const where = `${method} ${path}`;
      expect(op.operationId, where).toMatch(/^[a-z][A-Za-z]+$/);
      expect(op.description, where).toBeTruthy();
      expect(op.tags?.length, where).toBeGreaterThan(0);
      for (const tag of op.tags ?? []) expect(declared.get(tag), `${where} tag ${tag}`).toBeTruthy();
      for (const [status, answer] of Object.entries(op.responses))
        expect(answer.description, `${where} ${status}`).not.toBe('Default Response');
      expect(op.security, where).toBeDefined();
    }
  });

  it('types the ticket, attachment and conversation ids in paths as integers', () => {
    for (const [path, method, names] of [
      ['/api/tickets/{id}', 'get', ['id']],
      ['/api/admin/tickets/{id}', 'put', ['id']],
      ['/api/tickets/{id}/attachments/{attachment_id}/download', 'get', ['id', 'attachment_id']],
      ['/api/assistant/conversations/{id}', 'get', ['id']],
    ] as const) {
      for (const name of names) {
        const parameter = doc.paths[path]![method]!.parameters!.find((p) => p.in === 'path' && p.name === name)!;
        expect(parameter.schema, `${path} ${name}`).toMatchObject({ type: 'integer', minimum: 1 });
        expect(JSON.stringify(parameter.schema)).not.toContain('x-document-as');
      }
    }
  });

  it('uses the same named enums in answers and filters, and marks sla.status deprecated', () => {
    expect(schemaOf('TicketStatus')).toMatchObject({ type: 'string', enum: ['open', 'in-progress', 'closed'] });
    expect(schemaOf('TicketPriority')).toMatchObject({ type: 'string', enum: ['low', 'normal', 'high'] });
    expect(schemaOf('SlaStatus')).toMatchObject({
      type: 'string',
      enum: ['on_time', 'warning', 'overdue', 'met', 'missed'],
    });
    expect(schemaOf('LegacySlaStatus')).toMatchObject({ type: 'string', deprecated: true });
    const filter = (name: string) =>
      doc.paths['/api/tickets']!.get!.parameters!.find((p) => p.in === 'query' && p.name === name)!.schema;
    expect(filter('status')).toEqual({ $ref: '#/components/schemas/TicketStatus' });
    expect(filter('priority')).toEqual({ $ref: '#/components/schemas/TicketPriority' });
    for (const name of ['TicketSummary', 'Ticket', 'TicketDetail']) {
      const properties = schemaOf(name).properties!;
      expect(properties.status, name).toEqual({ $ref: '#/components/schemas/TicketStatus' });
      expect(properties.priority, name).toEqual({ $ref: '#/components/schemas/TicketPriority' });
      expect(properties.sla_status, name).toEqual({ $ref: '#/components/schemas/SlaStatus' });
    }
    expect(schemaOf('Ticket').properties!.sla!.properties!.status).toEqual({
      $ref: '#/components/schemas/LegacySlaStatus',
      deprecated: true,
    });
    // Every enum in the document says its type.
    const untyped: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (!node || typeof node !== 'object') return;
      const record = node as Record<string, unknown>;
      if (Array.isArray(record.enum) && record.type === undefined) untyped.push(at);
      for (const [key, value] of Object.entries(record)) walk(value, `${at}/${key}`);
    };
    walk(doc, '#');
    expect(untyped).toEqual([]);
  });

  it('answers the chat in JSON for a default client and documents the stream under x-negotiated-content', () => {
    const ok = doc.paths['/api/assistant/chat']!.post!.responses['200']!;
    expect(Object.keys(ok.content!)).toEqual(['application/json']);
    expect(ok.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/ChatAnswer' });
    expect(ok['x-negotiated-content']).toEqual({
      'text/event-stream': { schema: { $ref: '#/components/schemas/ChatStreamData' } },
    });
    expect(Object.keys(schemaOf('ChatStreamData')['x-sse-events'] as object)).toEqual([
      'start',
      'delta',
      'done',
      'error',
    ]);
  });

  it('describes the data of each event type of the notification stream', () => {
    const stream = doc.paths['/api/notifications/stream']!.get!.responses['200']!;
    expect(stream.content!['text/event-stream']!.schema).toEqual({
      $ref: '#/components/schemas/NotificationStreamData',
    });
    expect(schemaOf('NotificationStreamData')['x-sse-events']).toEqual({
      unread_count: { $ref: '#/components/schemas/UnreadCountEvent' },
      notification: { $ref: '#/components/schemas/Notification' },
    });
  });

  it("takes the upload form's limits from the tickets module", async () => {
    const { ALLOWED_EXTENSIONS, MAX_FILES, MAX_FILE_BYTES } = await import('../../src/modules/tickets/file-check.js');
    const form = doc.paths['/api/tickets']!.post!.requestBody!.content['multipart/form-data']!.schema;
    const files = form.properties!['attachments[]']!;
    expect(files.maxItems).toBe(MAX_FILES);
    expect(files.description).toContain(ALLOWED_EXTENSIONS.join(', '));
    expect(files.description).toContain(String(MAX_FILE_BYTES));
    expect(doc.paths['/api/tickets']!.post!).not.toHaveProperty('x-multipart-body');
  });

  it("still answers the spec's 404 bodies to ids that are not integers, over the real routes", async () => {
    const user = await t.makeUser();
    const ticket = await t.app.inject({
      method: 'POST',
      url: '/api/tickets',
      headers: user.auth,
      payload: { subject: 'Integer ids', message: 'A ticket to download from.' },
    });
    const id = ticket.json().data.id as number;
    for (const raw of ['abc', '1.5', '-1', '0', '99999999999', '1e3']) {
      const show = await t.app.inject({ method: 'GET', url: `/api/tickets/${raw}`, headers: user.auth });
      expect(show.statusCode, raw).toBe(404);
      expect(show.json(), raw).toEqual({ message: `No query results for model [Ticket] ${raw}` });
      const download = await t.app.inject({
        method: 'GET',
        url: `/api/tickets/${id}/attachments/${raw}/download`,
        headers: user.auth,
      });
      expect(download.statusCode, raw).toBe(404);
      expect(download.json(), raw).toEqual({ success: false, message: 'Attachment not found.' });
      const conversation = await t.app.inject({
        method: 'GET',
        url: `/api/assistant/conversations/${raw}`,
        headers: user.auth,
      });
      expect(conversation.statusCode, raw).toBe(404);
      expect(conversation.json(), raw).toEqual({ success: false, message: 'Conversation not found.' });
    }
  });
});
