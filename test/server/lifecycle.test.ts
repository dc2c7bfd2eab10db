import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../../src/config.js';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/app.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { launchServer, runServerUntilExit } from '../../harness/server.js';
import { waitFor } from '../../harness/wait.js';

describe('configuration', () => {
  it('gives the documented defaults', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.HOST).toBe('127.0.0.1');
    expect(config.DATA_DIR).toBe(path.resolve('./data'));
    expect(config.APP_URL).toBe('http://localhost:5173');
    expect(config.RATE_LIMIT_PER_MINUTE).toBe(600);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.TRUST_PROXY).toBe(false);
    expect(config.CORS_ORIGINS).toEqual([]);
    expect(config.PUBLIC_URL).toBeUndefined();
    expect(config.CONSOLE_SESSION_IDLE_MINUTES).toBe(60);
    expect(config.CONSOLE_SESSION_MAX_HOURS).toBe(12);
    expect(config.SQLITE_CHECKPOINT_MS).toBe(100);
    expect(loadConfig({ PUBLIC_URL: 'https://api.example.com/' }).PUBLIC_URL).toBe('https://api.example.com');
  });

  it.each([
    ['PORT', 'eighty', 'PORT must be a whole number from 0 to 65535'],
    ['PORT', '70000', 'PORT must be a whole number from 0 to 65535'],
    ['DATABASE_URL', 'mysql://localhost/db', 'DATABASE_URL must be a postgres:// URL'],
    ['REDIS_URL', 'http://x', 'REDIS_URL must be a redis:// or rediss:// URL'],
    ['APP_URL', 'not a url', 'APP_URL must be an http:// or https:// URL'],
    ['LOG_LEVEL', 'loud', 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent'],
    ['TRUST_PROXY', 'maybe?', 'TRUST_PROXY must be true, false, a hop count'],
    ['CORS_ORIGINS', 'app.example.com', 'CORS_ORIGINS must be "*" or a comma-separated list of origins'],
    ['RATE_LIMIT_PER_MINUTE', '-1', 'RATE_LIMIT_PER_MINUTE must be a whole number'],
    ['PUBLIC_URL', 'https://api.example.com/platform', 'PUBLIC_URL must be an origin without a path'],
    ['PUBLIC_URL', 'ftp://x', 'PUBLIC_URL must be an http:// or https:// origin'],
    ['CONSOLE_SESSION_IDLE_MINUTES', '1', 'CONSOLE_SESSION_IDLE_MINUTES must be a whole number from 5 to 1440'],
    ['CONSOLE_SESSION_MAX_HOURS', '0', 'CONSOLE_SESSION_MAX_HOURS must be a whole number from 1 to 720'],
    ['SQLITE_CHECKPOINT_MS', '-5', 'SQLITE_CHECKPOINT_MS must be a whole number from 0 to 60000'],
  ])('rejects %s=%s naming the variable and the expected form', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  it('parses lists and trust settings', () => {
    const config = loadConfig({
      CORS_ORIGINS: 'https://a.example.com, https://b.example.com/',
      TRUST_PROXY: '10.0.0.0/8,127.0.0.1',
    });
    expect(config.CORS_ORIGINS).toEqual(['https://a.example.com', 'https://b.example.com']);
    expect(config.TRUST_PROXY).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ CORS_ORIGINS: '*' }).CORS_ORIGINS).toBe('*');
  });
});

describe('server process', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.destroy());

  it('exits 1 with one line when a variable is bad', async () => {
    const res = await runServerUntilExit({ PORT: 'abc' });
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe('configuration error: PORT must be a whole number from 0 to 65535 (got "abc")');
  });

  it('exits 1 naming the address when the port is taken', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const res = await runServerUntilExit({ ...t.env, PORT: String(port), LOG_LEVEL: 'silent' });
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(`cannot listen on 127.0.0.1:${port}: `);
    } finally {
      blocker.close();
    }
  }, 120_000);

  it('serves /health, then on SIGTERM stops accepting and exits 0', async () => {
    const server = await launchServer({ env: t.env });
    const health = await fetch(`${server.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect(health.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();
  }, 120_000);

  it('on SQLite checkpoints the WAL from a worker thread once listening (none when SQLITE_CHECKPOINT_MS=0), and still exits 0', async () => {
    const line = 'sqlite: the WAL is checkpointed by a worker thread';
    for (const [setting, expected] of [
      ['100', testDialect === 'sqlite'],
      ['0', false],
    ] as const) {
      const server = await launchServer({ env: { ...t.env, LOG_LEVEL: 'info', SQLITE_CHECKPOINT_MS: setting } });
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
      // The worker starts after the port opens: its line follows within moments, or never.
      if (expected) await waitFor('the checkpoint worker', async () => server.output().includes(line), 20_000, 50);
      else await sleep(2_000);
      expect(server.output().includes(line), `SQLITE_CHECKPOINT_MS=${setting}`).toBe(expected);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
  }, 120_000);
});
