import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

// Every endpoint of the spec, as [method, OpenAPI path, needs a token].
const SPEC_ENDPOINTS: Array<[string, string, boolean]> = [
  ['get', '/api/assistant/welcome', false],
  ['post', '/api/assistant/chat', true],
  ['get', '/api/assistant/conversations', true],
  ['get', '/api/assistant/conversations/{id}', true],
  ['delete', '/api/assistant/conversations/{id}', true],
  ['put', '/api/assistant/conversations/{id}/archive', true],
  ['post', '/api/assistant/feedback', true],
  ['post', '/api/assistant/escalate', false],
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
  let doc: { paths: Record<string, Record<string, { security?: unknown[]; responses?: Record<string, unknown>; summary?: string }>> };

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
    if (needsToken) expect(operation!.security).toEqual([{ bearerAuth: [] }]);
    else expect(operation!.security).toBeUndefined();
  });

  it('documents the 401 body of every protected operation', () => {
    for (const [method, path, needsToken] of SPEC_ENDPOINTS) {
      if (!needsToken) continue;
      expect(Object.keys(doc.paths[path]![method]!.responses ?? {}), `${method} ${path}`).toContain('401');
    }
  });
});
