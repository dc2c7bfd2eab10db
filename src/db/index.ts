import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type SqliteDatabase,
  type SqliteDialectConfig,
  type SqliteStatement,
} from 'kysely';
import type pg from 'pg';
import type { Config } from '../config.js';
import { statementName } from './compiled.js';
import { pgDriver } from './pg.js';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Where the SQLite file lives; undefined on PostgreSQL. */
  sqliteFile?: string;
  /** The PostgreSQL pool (for its metrics); undefined on SQLite. */
  pool?: pg.Pool;
  /** SQLite only: runs a pragma on the connection (db/checkpointer.ts). */
  pragma?: (source: string) => unknown;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL only: the schema to use (tests give each file its own). */
  pgSchema?: string;
  /** SQLite only: a file to use instead of DATA_DIR/platform.sqlite. */
  sqliteFile?: string;
}

const PG_TIMESTAMPTZ = 1184;
const PG_TIMESTAMP = 1114;
const PG_INT8 = 20;
const PG_NUMERIC = 1700;

// Both dialects hand rows back in one shape: timestamps as ISO 8601 strings with a Z, 64-bit
// integers and counts as numbers (the service never stores integers above 2^53 - 1).
function pgTypes(): pg.CustomTypesConfig {
  const { types } = pgDriver();
  const parseTimestampTz = types.getTypeParser(PG_TIMESTAMPTZ) as (v: string) => Date;
  const toIso = (value: string) => parseTimestampTz(value).toISOString();
  return {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
      if (oid === PG_TIMESTAMPTZ) return toIso;
      if (oid === PG_TIMESTAMP) return (value: string) => toIso(`${value}+00`);
      if (oid === PG_INT8 || oid === PG_NUMERIC) return (value: string) => Number(value);
      return types.getTypeParser(oid, format);
    }) as pg.CustomTypesConfig['getTypeParser'],
  };
}

/**
 * The statements compiled once (db/compiled.ts) run as named prepared statements on this
 * connection: parsed once per connection, and planned once PostgreSQL settles on a generic plan.
 * Kysely calls `client.query(sql, parameters)`; every other statement stays unnamed.
 */
function runCompiledAsNamed(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (config: unknown, values?: unknown) => unknown;
  client.query = ((text: unknown, values?: unknown) => {
    const name = typeof text === 'string' && Array.isArray(values) ? statementName(text) : undefined;
    return name ? query({ name, text, values }) : query(text, values);
  }) as typeof client.query;
}

export function createDatabase(config: Config, options: DatabaseOptions = {}): DatabaseHandle {
  if (config.DATABASE_URL) {
    const pool = new (pgDriver().Pool)({
      connectionString: config.DATABASE_URL,
      max: config.DATABASE_POOL_SIZE,
      connectionTimeoutMillis: 5_000,
      // A dead server must not leave requests hanging: queries give up after 15 s.
      query_timeout: 15_000,
      // The server cancels a statement that runs longer (SQLSTATE 57014, answered 503), so one
      // slow query cannot hold a pooled connection; 0 leaves it to the server's default.
      ...(config.DATABASE_STATEMENT_TIMEOUT_MS > 0 ? { statement_timeout: config.DATABASE_STATEMENT_TIMEOUT_MS } : {}),
      types: pgTypes(),
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    // An idle client losing its connection (server restart) must not crash the process.
    pool.on('error', () => {});
    // Nor may a client losing it in the middle of a query or transaction: pg then also emits
    // 'error' on the client, which the pool does not listen to while the client is checked out (an
    // 'error' nobody listens to is thrown). The query itself fails with the error, and answers 503.
    pool.on('connect', (client) => {
      client.on('error', () => {});
      runCompiledAsNamed(client);
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', pool, close: () => db.destroy() };
  }

  const file = options.sqliteFile ?? path.join(config.DATA_DIR, 'platform.sqlite');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  // WAL lets the CLI and the server work on the same file at once; the busy timeout makes a
  // writer wait for another instead of failing at once.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  // Temporary b-trees (a materialized subquery, an ORDER BY the index cannot give) in memory: with
  // the default, each one opened a temporary file's pager, even for a few rows (the ticket search
  // statement was slower for it). Large sorts then use memory instead of spilling.
  sqlite.pragma('temp_store = MEMORY');
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }) });
  return {
    db,
    dialect: 'sqlite',
    sqliteFile: file,
    pragma: (source) => sqlite.pragma(source),
    close: () => db.destroy(),
  };
}

/**
 * Transactions take SQLite's write lock when they begin (BEGIN IMMEDIATE). A deferred transaction
 * that reads and then writes while another process (the CLI, a second server) holds the lock fails
 * at once with SQLITE_BUSY; an immediate one waits for the lock up to busy_timeout instead. Every
 * transaction of this service writes, so nothing is lost by taking the lock up front.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver(): SqliteDriver {
    return new ImmediateSqliteDriver(this.settings);
  }
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * better-sqlite3 keeping its prepared statements: Kysely prepares every query afresh, which costs
 * more than running a small indexed query. Least recently used statements are dropped past 500.
 * Safe because Kysely runs one query at a time on the one SQLite connection.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (statement) {
        cache.delete(sql);
      } else {
        statement = withRowsFromArrays(sqlite.prepare(sql));
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, statement);
      return statement;
    },
  };
}

/**
 * A statement that returns rows reads them from better-sqlite3 as arrays and makes the objects in
 * JavaScript, with a function made once per statement from its column names. better-sqlite3 makes
 * each row object through V8's C++ API, one property at a time with the name looked up afresh:
 * for a page of 15 tickets that took about a quarter of the statement's time. The objects are the same: own properties in column order, the last of two equal names
 * winning. Statements without rows, and the rare column named __proto__, go through unchanged.
 */
function withRowsFromArrays(statement: SQLite.Statement): SqliteStatement {
  if (!statement.reader) return statement;
  const names = statement.columns().map((column) => column.name);
  if (names.includes('__proto__')) return statement;
  // Each name is written as a JSON string literal, so no name can be read as code.
  const toObject = new Function(
    'row',
    `return { ${names.map((name, i) => `${JSON.stringify(name)}: row[${i}]`).join(', ')} };`,
  ) as (row: unknown[]) => object;
  statement.raw(true);
  return {
    reader: true,
    all: (parameters) => (statement.all(parameters) as unknown[][]).map(toObject),
    run: (parameters) => statement.run(parameters),
    *iterate(parameters) {
      for (const row of statement.iterate(parameters) as IterableIterator<unknown[]>) yield toObject(row);
    },
  };
}

/** True when the database answers a trivial query. */
export async function databaseIsUp(db: Kysely<Database>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}

/** The current time as the ISO 8601 UTC string every timestamp column holds. */
/** The database for logs and the CLI: the PostgreSQL URL without user and password, or the SQLite file. */
export function describeDatabase(config: Config, sqliteFile: string | undefined): string {
  if (!config.DATABASE_URL) return sqliteFile ?? 'sqlite';
  const url = new URL(config.DATABASE_URL);
  return `${url.protocol}//${url.host}${url.pathname}`;
}

export function nowIso(): string {
  return new Date().toISOString();
}
