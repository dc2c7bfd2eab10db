// The serializer of a list whose items are a union told apart by a tag property (a notification's
// type): one fast-json-stringify serializer per member schema, compiled by the route's own
// serializer compiler (reply.compileSerializationSchema, which keeps it per route), picked per item
// by its tag. The route's response schema describes the same bytes with unions (anyOf), for which
// fast-json-stringify runs ajv checks while writing: each item against the members in turn, and
// each nullable value (`string | null`) against both halves. Here the member is picked by the tag,
// and each nullable primitive is written by a `type: [primitive, 'null']` list, which fast-json-
// stringify tells apart with typeof. test/notifications/list-serializer.test.ts holds the two to
// the same bytes for every member.
import type { FastifyReply } from 'fastify';
import type { TSchema } from 'typebox';

type Serialize = (item: object) => string;
type Schema = Record<string, unknown>;

const PRIMITIVES = new Set(['string', 'integer', 'number', 'boolean']);
const COMBINING = ['anyOf', 'oneOf', 'allOf', 'not', 'if', 'const', '$ref'];

/** `{type: 'x', …}` with no keyword that changes how a value is written. */
function isPlainPrimitive(schema: unknown): schema is Schema {
  const s = schema as Schema;
  return typeof s === 'object' && s !== null && PRIMITIVES.has(s.type as string) && COMBINING.every((k) => !(k in s));
}

function isNull(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && (schema as Schema).type === 'null';
}

/**
 * The schema with every `anyOf: [primitive, null]` (either order) written as one schema whose type
 * is the list [primitive, 'null']: the same values, the same bytes. Objects, arrays and other unions
 * are walked; anything else is kept as it is.
 */
export function nullablesAsTypeLists(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return schema;
  const s = schema as Schema;
  if (Array.isArray(s.anyOf) && s.anyOf.length === 2 && s.anyOf.some(isNull)) {
    const value = s.anyOf.find((member) => !isNull(member));
    if (isPlainPrimitive(value)) {
      const { anyOf: _members, ...rest } = s;
      return { ...rest, ...value, type: [value.type, 'null'] };
    }
  }
  const out: Schema = { ...s };
  if (s.properties) out.properties = Object.fromEntries(Object.entries(s.properties as Schema).map(([k, v]) => [k, nullablesAsTypeLists(v)]));
  if (s.items) out.items = nullablesAsTypeLists(s.items);
  if (Array.isArray(s.anyOf)) out.anyOf = s.anyOf.map(nullablesAsTypeLists);
  return out;
}

/**
 * `members` maps each tag value to the schema of an item with that tag (the response's item
 * schema narrowed to that member). An item whose tag names no member is refused, as the union's
 * serializer refuses an item that matches none of its members.
 */
export function taggedListSerializer(tag: string, members: Readonly<Record<string, TSchema>>): (reply: FastifyReply, list: unknown) => string {
  // Rewritten once: the route keeps compiled serializers by schema object.
  const schemas = new Map(Object.entries(members).map(([value, schema]) => [value, nullablesAsTypeLists(schema) as Schema]));
  return (reply, list) => {
    const items = list as ReadonlyArray<Record<string, unknown>>;
    const compiled = new Map<unknown, Serialize>();
    let json = '[';
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      const value = item[tag];
      let serialize = compiled.get(value);
      if (!serialize) {
        const schema = schemas.get(value as string);
        if (!schema) throw new TypeError(`list item ${i}: ${tag} ${JSON.stringify(value)} names no member of the union`);
        serialize = reply.compileSerializationSchema(schema, '200') as Serialize;
        compiled.set(value, serialize);
      }
      if (i > 0) json += ',';
      json += serialize(item);
    }
    return json + ']';
  };
}
