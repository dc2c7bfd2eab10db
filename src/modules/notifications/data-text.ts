// The stored form of a notification's data: the JSON text that the data's schema serializer
// (fast-json-stringify, as every response serializer) writes for it, made once when the
// notification is written, after the data is checked against its type's schema. The list of
// unread notifications (list-json.ts) places this text in its answer as it is, instead of parsing
// 50 texts and serialising them again on every build: docs/decisions.md "Notification data is
// stored as its serializer's text" has the measurement.
import fastJson from 'fast-json-stringify';
import { Compile } from 'typebox/compile';
import type { TSchema } from 'typebox';
import type { NotificationDataOf, NotificationType, PendingNotification } from './events.js';
import { DATA_SCHEMA_OF } from './schemas.js';

declare const textOf: unique symbol;

/** JSON text of a data object of type K, written by dataText (and nothing else). */
export type DataText<K extends NotificationType = NotificationType> = string & { readonly [textOf]: K };

interface Writer {
  check: (value: unknown) => boolean;
  write: (value: unknown) => string;
}

function writer(schema: TSchema): Writer {
  const validator = Compile(schema);
  return { check: (value) => validator.Check(value), write: fastJson(schema as Parameters<typeof fastJson>[0]) };
}

// Each type's writer is compiled on its first notification, not when the service starts
// (docs/performance.md, "Start-up").
const WRITERS = new Map<NotificationType, Writer>();

function writerOf(type: NotificationType): Writer {
  let made = WRITERS.get(type);
  if (!made) {
    made = writer(DATA_SCHEMA_OF[type]);
    WRITERS.set(type, made);
  }
  return made;
}

/**
 * The text stored for `data`. Data that its type's schema refuses is a fault of the code that
 * built it (the builders in events.ts), never of a client's input, and is not written.
 */
export function dataText<K extends NotificationType>(type: K, data: NotificationDataOf[K]): DataText<K> {
  const w = writerOf(type);
  // The schema's `type` is the literal of its type, so the check also refuses data of another type.
  if (!w.check(data)) throw new TypeError(`notification data does not match the ${type} schema`);
  return w.write(data) as DataText<K>;
}

/** The stored text of a notification about to be written. */
export function pendingDataText(n: PendingNotification): DataText {
  return dataText<typeof n.type>(n.type, n.data as NotificationDataOf[typeof n.type]);
}
