// The serializer of a list whose items are a union told apart by a tag property (a notification's
// type): one fast-json-stringify serializer per member schema, compiled by the route's own
// serializer compiler (reply.compileSerializationSchema, which keeps it per route), picked per item
// by its tag. The route's response schema describes the same bytes with a union (anyOf), for which
// fast-json-stringify runs an ajv check of each item against the members in turn before writing it;
// picking the member by the tag skips that check. test/notifications/list-serializer.test.ts holds
// the two to the same bytes for every member.
import type { FastifyReply } from 'fastify';
import type { TSchema } from 'typebox';

type Serialize = (item: object) => string;

/**
 * `members` maps each tag value to the schema of an item with that tag (the response's item
 * schema narrowed to that member). An item whose tag names no member is refused, as the union's
 * serializer refuses an item that matches none of its members.
 */
export function taggedListSerializer(tag: string, members: Readonly<Record<string, TSchema>>): (reply: FastifyReply, list: unknown) => string {
  return (reply, list) => {
    const items = list as ReadonlyArray<Record<string, unknown>>;
    const compiled = new Map<unknown, Serialize>();
    let json = '[';
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      const value = item[tag];
      let serialize = compiled.get(value);
      if (!serialize) {
        const schema = typeof value === 'string' && Object.hasOwn(members, value) ? members[value] : undefined;
        if (!schema) throw new TypeError(`list item ${i}: ${tag} ${JSON.stringify(value)} names no member of the union`);
        serialize = reply.compileSerializationSchema(schema as Record<string, unknown>, '200') as Serialize;
        compiled.set(value, serialize);
      }
      if (i > 0) json += ',';
      json += serialize(item);
    }
    return json + ']';
  };
}
