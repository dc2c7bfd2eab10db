// No attachment row may point to a missing file, whatever happens to the request around its
// transaction: a client that hangs up while the ticket is being written, or a database connection
// lost while the commit is on its way (the outcome is then unknown to the server).
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createDatabase } from '../../src/db/index.js';
import { waitFor } from '../../harness/wait.js';
import { buildTestApp, createTestDatabase, testDialect, type TestApp } from '../helpers/app.js';
import { userWithToken, type TestUser } from '../helpers/factories.js';
import { multipart } from '../helpers/multipart.js';
import { uniqueFiles } from './helpers.js';
import { CommitCutter } from './pg-proxy.js';

async function rowsWithoutFile(db: TestApp['db'], dataDir: string): Promise<string[]> {
  const rows = await db.selectFrom('ticket_attachments').select('storage_key').execute();
  return rows
    .map((r) => r.storage_key)
    .filter((key) => !fs.existsSync(path.join(dataDir, 'attachments', key.slice(0, 2), key)));
}

describe('clients that hang up during the write', () => {
  let t: TestApp;
  let user: TestUser;
  let port: number;

  beforeAll(async () => {
    t = await buildTestApp();
    user = await t.makeUser();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => t.close());

  it('never leaves a ticket or comment row whose file was removed', async () => {
    const target = await t.app.inject({
      method: 'POST',
      url: '/api/tickets',
      headers: user.auth,
      payload: { subject: 'Target', message: 'Receives comments from clients that hang up.' },
    });
    const targetId = target.json().data.id as number;
    const hangUps: Array<Promise<void>> = [];
    for (let i = 0; i < 60; i++) {
      const body = multipart(
        i % 2
          ? [['message', `Comment ${i} from a client that hangs up.`]]
          : [
              ['subject', `Hang-up ${i}`],
              ['message', `Ticket ${i} from a client that hangs up.`],
            ],
        uniqueFiles(`h${i}`).map((f) => ({ name: f.name, content: f.content })),
      );
      const url = i % 2 ? `/api/tickets/${targetId}/comments` : '/api/tickets';
      hangUps.push(
        new Promise<void>((resolve) => {
          const socket = net.connect(port, '127.0.0.1', () => {
            socket.write(
              `POST ${url} HTTP/1.1\r\nHost: x\r\nAuthorization: ${user.auth.authorization}\r\nContent-Type: ` +
                `${body.headers['content-type']}\r\nContent-Length: ${body.payload.length}\r\n\r\n`,
            );
            // The whole body, then gone a moment later: while the server reads or writes it.
            socket.write(body.payload, () => setTimeout(() => socket.destroy(), (i * 7) % 60));
          });
          socket.on('close', () => resolve());
          socket.on('error', () => resolve());
        }),
      );
    }
    await Promise.all(hangUps);
    // Let every request the server accepted run to its end.
    await waitFor('the requests to settle', async () => {
      const { count } = await t.db
        .selectFrom('ticket_attachments')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      await new Promise((r) => setTimeout(r, 500));
      const again = await t.db
        .selectFrom('ticket_attachments')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      return Number(count) === Number(again.count);
    });
    // Some writes got through (the test saw the race), and each of those kept its files.
    expect((await t.db.selectFrom('ticket_attachments').select('id').execute()).length).toBeGreaterThan(0);
    expect(await rowsWithoutFile(t.db, t.dataDir)).toEqual([]);
  });
});

describe.runIf(testDialect === 'postgres')('database connection lost during the commit', () => {
  it('keeps the files when the outcome of the commit is unknown (503), so the committed rows find them', async () => {
    const t = await createTestDatabase();
    const target = new URL(t.config.DATABASE_URL!);
    const cutter = new CommitCutter(target.hostname, Number(target.port || 5432));
    const proxyPort = await cutter.start();
    const proxied = new URL(t.config.DATABASE_URL!);
    proxied.port = String(proxyPort);
    const schema = /search_path=(\S+)/.exec(t.env.PGOPTIONS!)![1]!;
    const config = {
      ...t.config,
      DATABASE_URL: proxied.toString(),
      LOG_LEVEL: 'silent' as const,
      RATE_LIMIT_PER_MINUTE: 0,
    };
    const handle = createDatabase(config, { pgSchema: schema });
    const app = await buildApp({ config, database: handle, logger: false, startWorkers: false, loadGeoData: false });
    try {
      await app.ready();
      const { auth } = await userWithToken(t.db);
      const files = uniqueFiles('cut');
      const body = multipart(
        [
          ['subject', 'Commit answer lost'],
          ['message', 'The commit reaches the database; its answer does not.'],
        ],
        files.map((f) => ({ name: f.name, content: f.content })),
      );

      cutter.armed = true;
      const res = await app.inject({
        method: 'POST',
        url: '/api/tickets',
        headers: { ...auth, ...body.headers },
        payload: body.payload,
      });
      expect(cutter.cuts).toBe(1);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ message: 'Service temporarily unavailable. Please try again shortly.' });

      // The ticket was in fact committed, with its three attachments: their files must all be there.
      const rows = await t.db
        .selectFrom('ticket_attachments')
        .innerJoin('tickets', 'tickets.id', 'ticket_attachments.ticket_id')
        .select(['storage_key', 'file_name'])
        .where('tickets.subject', '=', 'Commit answer lost')
        .execute();
      expect(rows.map((r) => r.file_name).sort()).toEqual(files.map((f) => f.name).sort());
      expect(await rowsWithoutFile(t.db, t.dataDir)).toEqual([]);
    } finally {
      await app.close();
      await cutter.stop();
      await t.destroy();
    }
  }, 60_000);
});
