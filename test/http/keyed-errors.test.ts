// Typed errors that carry a catalogue key are rendered by the edge in the request's language;
// fixed text stays byte-for-byte; services need no locale.
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessRule, msg, notFound, notFoundMessageOnly } from '../../src/core/errors.js';
import { registerMessages } from '../../src/core/i18n.js';
import { registerErrorHandling } from '../../src/http/error-handler.js';

registerMessages({
  'test.keyed.missing': { en: 'Item :id was not found.', fa: 'مورد :id پیدا نشد.' },
});

const app = Fastify();

beforeAll(async () => {
  registerErrorHandling(app);
  app.get('/keyed', async () => {
    throw notFound(msg('test.keyed.missing', { id: 7 }));
  });
  app.get('/keyed-bare', async () => {
    throw notFoundMessageOnly(msg('test.keyed.missing', { id: 8 }));
  });
  app.get('/fixed', async () => {
    throw businessRule('Fixed text.');
  });
  await app.ready();
});
afterAll(() => app.close());

describe('typed errors with message keys', () => {
  it('renders the key in English by default, with its parameters', async () => {
    const res = await app.inject({ url: '/keyed' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toBe('{"success":false,"message":"Item 7 was not found."}');
  });

  it("renders the key in the request's language", async () => {
    const res = await app.inject({ url: '/keyed', headers: { 'accept-language': 'fa-IR,fa;q=0.9' } });
    expect(res.json()).toEqual({ success: false, message: 'مورد 7 پیدا نشد.' });
  });

  it('keeps the body shape of the factory', async () => {
    const res = await app.inject({ url: '/keyed-bare', headers: { 'accept-language': 'fa' } });
    expect(res.body).toBe('{"message":"مورد 8 پیدا نشد."}');
  });

  it('leaves fixed text as it is, whatever the language', async () => {
    const res = await app.inject({ url: '/fixed', headers: { 'accept-language': 'fa' } });
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('{"success":false,"message":"Fixed text."}');
  });

  it('carries the English text as the error message, for logs', () => {
    expect(notFound(msg('test.keyed.missing', { id: 3 })).message).toBe('Item 3 was not found.');
  });
});
