// Queries built and compiled once, then run with each call's parameter values. Kysely builds and
// compiles a query on every call: about 16 µs for the token lookup that every authenticated
// request makes, more than SQLite takes to run it. The few queries on the hottest paths use this;
// the rest keep the plain builder.
import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Stands in for an argument while the query is built; its position in the compiled parameters says where the value goes. */
class Placeholder {
  constructor(readonly argument: number | string) {}
}

interface Prepared<R> {
  query: CompiledQuery<R>;
  /** For each compiled parameter, the argument it takes, or -1 for a constant the builder put there. */
  sources: number[];
}

/**
 * Returns a function that runs the query `build` describes with new argument values. Each argument
 * must reach the query as a single bound value (a comparison, a limit), never as a list or an
 * identifier. Compiled once per database handle, so each dialect gets its own SQL.
 */
export function compiledQuery<A extends unknown[], R>(build: (db: Kysely<Database>, ...args: A) => Compilable<R>): (db: Kysely<Database>, ...args: A) => Promise<R[]> {
  const prepared = new WeakMap<Kysely<Database>, Prepared<R>>();
  const prepare = (db: Kysely<Database>, arity: number): Prepared<R> => {
    const placeholders = Array.from({ length: arity }, (_, i) => new Placeholder(i)) as unknown as A;
    const query = build(db, ...placeholders).compile();
    const sources = query.parameters.map((p) => (p instanceof Placeholder ? (p.argument as number) : -1));
    const used = new Set(sources);
    for (let i = 0; i < arity; i++) if (!used.has(i)) throw new Error(`compiledQuery: argument ${i} does not reach the query as a bound value`);
    const entry = { query, sources };
    prepared.set(db, entry);
    return entry;
  };
  return async (db, ...args) => {
    const { query, sources } = prepared.get(db) ?? prepare(db, args.length);
    const parameters = sources.map((source, i) => (source < 0 ? query.parameters[i] : args[source]));
    const result = await db.executeQuery<R>({ ...query, parameters });
    return result.rows;
  };
}

/**
 * For queries whose SQL depends on which options a call has (filters present or not, a literal
 * LIMIT): one compiled query per shape. `shapeOf` says everything the SQL depends on, as a string
 * key; `build` receives the shape and stand-ins for the values, so a value can only reach the
 * query bound, never baked into the SQL of the first call. At most `maxShapes` are kept (oldest
 * dropped first).
 */
export function compiledQueryByShape<V extends object, S extends { key: string }, R>(
  shapeOf: (values: V) => S,
  build: (db: Kysely<Database>, shape: S, values: { readonly [K in keyof V]-?: NonNullable<V[K]> }) => Compilable<R>,
  maxShapes = 256,
): (db: Kysely<Database>, values: V) => Promise<R[]> {
  const prepared = new WeakMap<Kysely<Database>, Map<string, { query: CompiledQuery<R>; sources: Array<string | undefined> }>>();
  return async (db, values) => {
    const shape = shapeOf(values);
    let shapes = prepared.get(db);
    if (!shapes) prepared.set(db, (shapes = new Map()));
    let entry = shapes.get(shape.key);
    if (!entry) {
      const standIns = new Proxy({}, { get: (_, name) => new Placeholder(String(name)) }) as { readonly [K in keyof V]-?: NonNullable<V[K]> };
      const query = build(db, shape, standIns).compile();
      entry = { query, sources: query.parameters.map((p) => (p instanceof Placeholder ? (p.argument as string) : undefined)) };
      if (shapes.size >= maxShapes) shapes.delete(shapes.keys().next().value!);
      shapes.set(shape.key, entry);
    }
    const { query, sources } = entry;
    const parameters = sources.map((source, i) => (source === undefined ? query.parameters[i] : values[source as keyof V]));
    return (await db.executeQuery<R>({ ...query, parameters })).rows;
  };
}
