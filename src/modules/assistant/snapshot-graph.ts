// One way to write a graph of objects to bytes and read it back, class instances included: the
// structured clone of v8.serialize (Maps, Sets, typed arrays, arrays, plain objects, shared
// references kept shared) plus, for each object that is an instance of a class, the class it was.
// Reading gives each such object its prototype back, then calls its class's hook. A class must be
// registered (a kind): an instance of any other class, or a function outside a field its kind
// omits, is an error, so a structure added to the index later cannot be written half.
import v8 from 'node:v8';

/** A class whose instances the graph may hold. */
export interface Kind {
  /** Written in the snapshot: a graph is read only with the same kinds. */
  name: string;
  prototype: object;
  /**
   * Fields not written (functions, which cannot be, and caches that need not be): undefined while
   * the graph is written, and in the graph read until `revive` sets them.
   */
  omit?: readonly string[];
  /** Called on each instance read, after every instance has its prototype back. */
  revive?: (instance: Record<string, unknown>) => void;
}

interface Written {
  root: unknown;
  kinds: string[];
  /** Every class instance of the graph, and the number of its kind. */
  instances: object[];
  kindOf: number[];
}

const isLeaf = (value: object): boolean =>
  ArrayBuffer.isView(value) || value instanceof ArrayBuffer || value instanceof Date || value instanceof RegExp;

/** The graph from `root` as bytes. Throws on an unregistered class or a function it would have to write. */
export function writeGraph(root: object, kinds: readonly Kind[]): Buffer {
  const byPrototype = new Map(kinds.map((kind, i) => [kind.prototype, i]));
  const seen = new Set<object>();
  const instances: object[] = [];
  const kindOf: number[] = [];
  const omitted: Array<[Record<string, unknown>, string, unknown]> = [];
  const stack: object[] = [root];
  const visit = (value: unknown, where: string): void => {
    if (typeof value === 'function') throw new Error(`snapshot: a function in ${where}`);
    if (typeof value === 'object' && value !== null && !seen.has(value)) stack.push(value);
  };
  try {
    while (stack.length > 0) {
      const object = stack.pop()!;
      if (seen.has(object)) continue;
      seen.add(object);
      if (isLeaf(object)) continue;
      if (Array.isArray(object)) {
        for (const item of object) visit(item, 'an array');
        continue;
      }
      if (object instanceof Map) {
        for (const [key, item] of object) {
          visit(key, 'a map');
          visit(item, 'a map');
        }
        continue;
      }
      if (object instanceof Set) {
        for (const item of object) visit(item, 'a set');
        continue;
      }
      const prototype = Object.getPrototypeOf(object) as object | null;
      const fields = object as Record<string, unknown>;
      let name = 'an object';
      if (prototype !== Object.prototype && prototype !== null) {
        const kind = byPrototype.get(prototype);
        name = (prototype as { constructor?: { name?: string } }).constructor?.name ?? 'a class';
        if (kind === undefined) throw new Error(`snapshot: ${name} is not a registered kind`);
        instances.push(object);
        kindOf.push(kind);
        for (const field of kinds[kind]!.omit ?? []) {
          omitted.push([fields, field, fields[field]]);
          fields[field] = undefined;
        }
      }
      for (const key of Object.keys(fields)) visit(fields[key], `${name}.${key}`);
    }
    const written: Written = { root, kinds: kinds.map((k) => k.name), instances, kindOf };
    // The plain Serializer, not v8.serialize's: it writes typed arrays itself (v8.serialize calls
    // back into JavaScript for each one, and the index holds tens of thousands) and keeps views of
    // one buffer sharing it.
    const serializer = new v8.Serializer();
    serializer.writeHeader();
    serializer.writeValue(written);
    return serializer.releaseBuffer();
  } finally {
    for (const [fields, field, value] of omitted) fields[field] = value;
  }
}

/** The graph writeGraph wrote, its instances with their prototypes and hooks. Throws when the kinds differ. */
export function readGraph(bytes: Uint8Array, kinds: readonly Kind[]): unknown {
  const deserializer = new v8.Deserializer(bytes);
  deserializer.readHeader();
  const written = deserializer.readValue() as Written;
  if (
    written === null ||
    typeof written !== 'object' ||
    !Array.isArray(written.kinds) ||
    written.kinds.join('\n') !== kinds.map((k) => k.name).join('\n') ||
    !Array.isArray(written.instances) ||
    !Array.isArray(written.kindOf) ||
    written.instances.length !== written.kindOf.length
  )
    throw new Error('snapshot: not a graph of these kinds');
  const { instances, kindOf } = written;
  instances.forEach((instance, i) => {
    const kind = kinds[kindOf[i]!];
    if (!kind) throw new Error('snapshot: an instance of an unknown kind');
    Object.setPrototypeOf(instance, kind.prototype);
  });
  for (const [i, instance] of instances.entries()) kinds[kindOf[i]!]!.revive?.(instance as Record<string, unknown>);
  return written.root;
}
