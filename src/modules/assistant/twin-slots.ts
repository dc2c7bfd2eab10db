// A passage has the same id in both languages' indexes but its own slot in each. A search in one
// language that adds each passage's score from the other (a Finglish message's English reading,
// understanding.ts) reads that score by slot, through a table from one index's slots to the
// other's, made once and kept until either index takes or frees a slot, or is another index.
import type { LanguageIndex } from './knowledge-index.js';

/** Per pair of indexes (a key the caller gives, "en>fa"): the table, the indexes and their slot versions it was made at. */
export type TwinTables = Map<
  string,
  { source: LanguageIndex; target: LanguageIndex; from: number; to: number; slots: Int32Array }
>;

/** Per slot of `target`: the slot of the passage with the same id in `source`, or -1 (kept in `tables`). */
export function twinSlots(tables: TwinTables, key: string, source: LanguageIndex, target: LanguageIndex): Int32Array {
  const kept = tables.get(key);
  // Versions count per index, so a table is kept only for the very indexes it was made from.
  const same = kept && kept.source === source && kept.target === target;
  if (same && kept.from === source.slotsVersion && kept.to === target.slotsVersion) return kept.slots;
  const slots = new Int32Array(target.bySlot.length).fill(-1);
  target.bySlot.forEach((passage, slot) => {
    if (passage) slots[slot] = source.slots.get(passage.id) ?? -1;
  });
  tables.set(key, { source, target, from: source.slotsVersion, to: target.slotsVersion, slots });
  return slots;
}

/** By table (its slots array, made anew when the table is): the array twinScores fills. */
const twinRoom = new WeakMap<Int32Array, Float64Array>();

/**
 * Per slot of a table's target index: the score `scores` (by slot of its source) gives the passage's
 * twin, 0 where it has none. The table's own array, valid until its next call.
 */
export function twinScores(slots: Int32Array, scores: Float64Array): Float64Array {
  const out = twinRoom.get(slots) ?? new Float64Array(slots.length);
  twinRoom.set(slots, out);
  for (let slot = 0; slot < slots.length; slot += 1) {
    const twin = slots[slot]!;
    out[slot] = twin < 0 ? 0 : (scores[twin] ?? 0);
  }
  return out;
}
