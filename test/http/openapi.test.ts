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
      if (op.security?.length === 1 && 'bearerAuth' in (op.security[0] as object))
        expect(statuses, where).toContain('401');
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
