// Migrations started by several processes at once apply exactly once: two servers started together
// on an EMPTY PostgreSQL schema, migrateToLatest from several connections at once, and two servers
// on one new SQLite file (the second waits for the first through busy_timeout).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { configWith } from '../../src/config.js';
import { createDatabase, type DatabaseHandle } from '../../src/db/index.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { projectRoot, type ServerProcess } from '../../harness/server.js';
import {
  call,
  pgUrl,
  sharedPostgres,
  sharedSqlite,
  skipReason,
  startTogether,
  stopAll,
  type SharedDatabase,
} from './helpers.js';

const migrationsDir = path.resolve(import.meta.dirname, '../../src/db/migrations');
const allMigrations = fs
  .readdirSync(migrationsDir)
  .filter((f) => /^\d{12}_[a-z0-9_]+\.ts$/.test(f))
  .map((f) => f.replace(/\.ts$/, ''))
  .sort();

async function appliedMigrations(handle: DatabaseHandle): Promise<string[]> {
  const rows = await handle.db
    .selectFrom('kysely_migration' as never)
    .select('name' as never)
    .orderBy('name' as never)
    .execute();
  return (rows as Array<{ name: string }>).map((r) => r.name);
}

/** Starts `count` processes that all call migrateToLatest at the same moment (once all have loaded). */
async function migrateInChildren(
  count: number,
  env: Record<string, string>,
): Promise<Array<{ code: number; applied: string[] }>> {
  const tsx = path.join(projectRoot, 'node_modules', '.bin', 'tsx');
  const script = path.join(projectRoot, 'test', 'instances', 'migrate-at.ts');
  // Far enough ahead for tsx to start all of them on a busy machine.
  const at = Date.now() + 8_000;
  return Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<{ code: number; applied: string[] }>((resolve, reject) => {
          const child = spawn(tsx, [script, String(at)], {
            cwd: projectRoot,
            env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
          });
          let out = '';
          let err = '';
          child.stdout.on('data', (d: Buffer) => (out += d.toString()));
          child.stderr.on('data', (d: Buffer) => (err += d.toString()));
          child.on('error', reject);
          child.on('close', (code) => {
            const parsed = out ? (JSON.parse(out) as string[] | { error: string }) : { error: err };
            resolve({ code: code ?? -1, applied: Array.isArray(parsed) ? parsed : [`error: ${parsed.error}`] });
          });
        }),
    ),
  );
}

/** Both servers answer, and what one writes the other reads. */
async function bothServe(servers: ServerProcess[], handle: DatabaseHandle): Promise<void> {
  for (const server of servers) {
    expect((await call(`${server.url}/health`)).body).toEqual({ status: 'ok' });
    expect((await call(`${server.url}/api/provinces`)).status).toBe(200);
  }
  const escalated = await call(`${servers[0]!.url}/api/assistant/escalate`, {
    method: 'POST',
    json: { reason: 'After a concurrent start' },
  });
  expect(escalated.status).toBe(201);
  const row = await handle.db
    .selectFrom('tickets')
    .select('subject')
    .where('id', '=', escalated.body.ticket_id)
    .executeTakeFirst();
  expect(row?.subject).toBe('After a concurrent start');
}

describe('migrations started by several processes at once', () => {
  let shared: SharedDatabase | undefined;
  let servers: ServerProcess[] = [];

  afterEach(async () => {
    await stopAll(servers);
    servers = [];
    await shared?.destroy();
    shared = undefined;
  }, 60_000);

  it.skipIf(skipReason)(
    'PostgreSQL: two servers started together on an empty schema apply each migration once and both serve',
    async () => {
      shared = await sharedPostgres({ migrate: false });
      // Introspection lists every schema of the database (other test files have theirs): look at ours.
      const ownTables = (await shared.handle.db.introspection.getTables()).filter(
        (table) => table.schema === shared!.schema,
      );
      expect(ownTables).toEqual([]);
      servers = await startTogether([{ ...shared.env }, { ...shared.env }]);
      expect(await appliedMigrations(shared.handle)).toEqual(allMigrations);
      await bothServe(servers, shared.handle);
    },
    240_000,
  );

  it.skipIf(skipReason)(
    'PostgreSQL: migrateToLatest from four connections at once applies each migration once',
    async () => {
      shared = await sharedPostgres({ migrate: false });
      const handles = Array.from({ length: 4 }, () =>
        createDatabase(configWith({ DATA_DIR: shared!.dataDir, DATABASE_URL: pgUrl, DATABASE_POOL_SIZE: 2 }), {
          pgSchema: shared!.schema,
        }),
      );
      try {
        const applied = await Promise.all(handles.map((h) => migrateToLatest(h.db)));
        // Exactly one of them did the work; the others found nothing left to do.
        expect(applied.flat().sort()).toEqual(allMigrations);
        expect(applied.filter((names) => names.length > 0)).toHaveLength(1);
        expect(await appliedMigrations(shared.handle)).toEqual(allMigrations);
        const { rows } = await sql<{
          n: number;
        }>`select count(*)::int as n from information_schema.tables where table_schema = ${shared.schema!} and table_name = 'tickets'`.execute(
          shared.handle.db,
        );
        expect(rows[0]!.n).toBe(1);
      } finally {
        await Promise.all(handles.map((h) => h.close()));
      }
    },
    120_000,
  );

  it('SQLite: two servers started together on one new file apply each migration once and both serve', async () => {
    shared = await sharedSqlite();
    servers = await startTogether([{ ...shared.env }, { ...shared.env }]);
    expect(await appliedMigrations(shared.handle)).toEqual(allMigrations);
    await bothServe(servers, shared.handle);
  }, 240_000);

  it('SQLite: four processes migrating one new file in the same instant: one applies everything, the others wait and find it done', async () => {
    shared = await sharedSqlite();
    const results = await migrateInChildren(4, shared.env);
    expect(results.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    expect(results.map((r) => r.applied.length).sort()).toEqual([0, 0, 0, allMigrations.length]);
    expect(await appliedMigrations(shared.handle)).toEqual(allMigrations);
  }, 120_000);

  it.skipIf(skipReason)(
    'PostgreSQL: four processes migrating one empty schema in the same instant apply each migration once',
    async () => {
      shared = await sharedPostgres({ migrate: false });
      const results = await migrateInChildren(4, shared.env);
      expect(results.map((r) => r.code)).toEqual([0, 0, 0, 0]);
      expect(results.map((r) => r.applied.length).sort()).toEqual([0, 0, 0, allMigrations.length]);
      expect(await appliedMigrations(shared.handle)).toEqual(allMigrations);
    },
    120_000,
  );
});
