// Queries built and compiled once, then run with each call's parameter values. Kysely builds and
// compiles a query on every call, which for the token lookup that every authenticated request
// makes took longer than SQLite takes to run it (docs/performance.md). The few queries on the hottest paths use this;
// the rest keep the plain builder. Each is registered under a name, and its SQL for both dialects is
// checked in under src/db/sql/ (npm run sql writes it; a test fails when it is stale), so a
// reviewer reads the statements these builders make.
import { createHash } from 'node:crypto';
import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './schema.js';

/** A registered statement: how to build it with stand-ins, for printing its SQL. */
export interface RegisteredStatement {
  name: string;
  /** Builds the statement once per example, with stand-ins for the values; a label says which example. */
  build(db: Kysely<Database>): Array<{ label: string; query: CompiledQuery<unknown> }>;
}

const registry = new Map<string, RegisteredStatement>();

function register(statement: RegisteredStatement): void {
  if (registry.has(statement.name)) throw new Error(`compiled statement ${statement.name} is registered twice`);
  registry.set(statement.name, statement);
}

/** Every compiled statement of the modules imported so far, by name. */
export function registeredStatements(): RegisteredStatement[] {
  return [...registry.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** Stands in for an argument while the query is built; its position in the compiled parameters says where the value goes. */
class Placeholder {
  constructor(readonly key: number | string) {}
}

interface Prepared<R> {
  query: CompiledQuery<R>;
  /** For each compiled parameter, the argument it takes, or undefined for a constant the builder put there. */
  sources: Array<number | string | undefined>;
}

const statementNames = new Map<string, string>();

/**
 * The name a compiled statement's SQL runs under on PostgreSQL (db/index.ts): a named prepared
 * statement is parsed once per connection and, after a few runs, planned once, where an unnamed
 * one is parsed and planned on every run (planning took 0.07–0.34 ms against 0.02–0.09 ms of
 * execution for the hot statements, docs/performance.md). Undefined for SQL not compiled here.
 */
export function statementName(sql: string): string | undefined {
  return statementNames.get(sql);
}

function prepared<R>(query: CompiledQuery<R>): Prepared<R> {
  if (!statementNames.has(query.sql))
    statementNames.set(query.sql, `c_${createHash('sha1').update(query.sql).digest('hex').slice(0, 20)}`);
  return { query, sources: query.parameters.map((p) => (p instanceof Placeholder ? p.key : undefined)) };
}

/** Runs the compiled query with each placeholder replaced by the value under its key. */
async function run<R>(db: Kysely<Database>, { query, sources }: Prepared<R>, values: object): Promise<R[]> {
  const parameters = sources.map((key, i) =>
    key === undefined ? query.parameters[i] : (values as Record<number | string, unknown>)[key],
  );
  return (await db.executeQuery<R>({ ...query, parameters })).rows;
}

/**
 * Returns a function that runs the query `build` describes with new argument values. Each argument
 * must reach the query as a single bound value (a comparison, a limit), never as a list or an
 * identifier. Compiled once per database handle, so each dialect gets its own SQL.
 */
export function compiledQuery<A extends unknown[], R>(
  name: string,
  build: (db: Kysely<Database>, ...args: A) => Compilable<R>,
): (db: Kysely<Database>, ...args: A) => Promise<R[]> {
  register({
    name,
    build: (db) => [
      {
        label: '',
        query: build(
          db,
          ...(Array.from({ length: build.length - 1 }, (_, i) => new Placeholder(i)) as unknown as A),
        ).compile() as CompiledQuery<unknown>,
      },
    ],
  });
  const byDb = new WeakMap<Kysely<Database>, Prepared<R>>();
  const prepare = (db: Kysely<Database>, arity: number): Prepared<R> => {
    const placeholders = Array.from({ length: arity }, (_, i) => new Placeholder(i)) as unknown as A;
    const entry = prepared(build(db, ...placeholders).compile());
    const used = new Set(entry.sources);
    for (let i = 0; i < arity; i++)
      if (!used.has(i)) throw new Error(`compiledQuery: argument ${i} does not reach the query as a bound value`);
    byDb.set(db, entry);
    return entry;
  };
  return async (db, ...args) => run(db, byDb.get(db) ?? prepare(db, args.length), args);
}

/**
 * For queries whose SQL depends on which options a call has (filters present or not, a literal
 * LIMIT): one compiled query per shape. `shapeOf` says everything the SQL depends on, as a string
 * key; `build` receives the shape and stand-ins for the values, so a value can only reach the
 * query bound, never baked into the SQL of the first call. At most `maxShapes` are kept (oldest
 * dropped first).
 */
export function compiledQueryByShape<V extends object, S extends { key: string }, R>(
  name: string,
  shapeOf: (values: V) => S,
  build: (db: Kysely<Database>, shape: S, values: { readonly [K in keyof V]-?: NonNullable<V[K]> }) => Compilable<R>,
  /** Values whose shapes the checked-in SQL shows (one statement per distinct shape). */
  examples: V[],
  maxShapes = 256,
): (db: Kysely<Database>, values: V) => Promise<R[]> {
  const standIns = () =>
    new Proxy({}, { get: (_, key) => new Placeholder(String(key)) }) as {
      readonly [K in keyof V]-?: NonNullable<V[K]>;
    };
  register({
    name,
    build: (db) => {
      const shapes = new Map(examples.map((v) => [shapeOf(v).key, shapeOf(v)]));
      return [...shapes.values()].map((shape) => ({
        label: shape.key,
        query: build(db, shape, standIns()).compile() as CompiledQuery<unknown>,
      }));
    },
  });
  const byDb = new WeakMap<Kysely<Database>, Map<string, Prepared<R>>>();
  return async (db, values) => {
    const shape = shapeOf(values);
    let shapes = byDb.get(db);
    if (!shapes) {
      shapes = new Map();
      byDb.set(db, shapes);
    }
    let entry = shapes.get(shape.key);
    if (!entry) {
      entry = prepared(build(db, shape, standIns()).compile());
      if (shapes.size >= maxShapes) shapes.delete(shapes.keys().next().value!);
      shapes.set(shape.key, entry);
    }
    return run(db, entry, values);
  };
}
