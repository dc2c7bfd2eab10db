// Scratch and storage arrays numbered by a count that only grows (terms, trigrams, entries) are
// typed arrays made wider when a number reaches their end. One way to widen them, for every index.

/** A copy of a typed array with room for index `at`: its length doubled, or more when `at` needs it. */
export function grown<T extends Int32Array<ArrayBuffer> | Float64Array<ArrayBuffer>>(array: T, at: number): T {
  const wider = new (array.constructor as new (length: number) => T)(Math.max(array.length * 2, at + 1));
  wider.set(array);
  return wider;
}
