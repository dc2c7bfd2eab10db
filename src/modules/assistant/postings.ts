// Postings: per number (a trigram of the phrasing index, ngrams.ts; a term's field in the word
// index, word-index.ts), the entries holding it and a value for each (the trigram's weight in the
// phrasing, how often the term occurs in the field). They live side by side in a few large typed arrays (blocks), each
// trigram's run at its own place with its own room, rather than in two typed arrays per trigram:
// tens of thousands of small arrays cost an allocation each at a build and a few hundred bytes each
// of collected heap for as long as the index lives. A full block is never copied into a wider one
// (copying, and touching the fresh memory, cost more than the build itself saved): a new block is
// opened beside it.

/** The size of a block opened for the adds after a build (a build's block holds exactly its runs). */
const BLOCK = 1 << 18;

export interface Postings {
  /** Per block: the entries and the values of the runs in it. */
  readonly entries: Int32Array[];
  readonly values: Float64Array[];
  /** How much of the last block the runs take, the gaps left by moved runs included. */
  used: number;
  /** Per trigram number: its run's block, where the run starts, how long it may grow in place, how long it is. */
  readonly block: number[];
  readonly start: number[];
  readonly room: number[];
  readonly length: number[];
}

export function newPostings(): Postings {
  return { entries: [], values: [], used: 0, block: [], start: [], room: [], length: [] };
}

/** Numbers a new trigram's run: empty, without room. */
export function addRun(postings: Postings): void {
  postings.block.push(0);
  postings.start.push(0);
  postings.room.push(0);
  postings.length.push(0);
}

/**
 * Room in a trigram's run for `more` entries: exactly in an empty run (a build), else by doubling.
 * A run that must grow moves to the end of the last block; the gap it leaves is not reused (a run
 * only moves to twice its size, so the gaps stay below the size of the runs).
 */
function reserve(postings: Postings, g: number, more: number): void {
  const length = postings.length[g]!;
  const room = postings.room[g]!;
  if (length + more <= room) return;
  const size = length === 0 ? more : Math.max(room * 2, length + more);
  openRoom(postings, size, BLOCK);
  const last = postings.entries.length - 1;
  const at = postings.used;
  // A plain loop: most runs are short, and an empty one (a build's) copies nothing.
  const entries = postings.entries[last]!;
  const values = postings.values[last]!;
  const from = postings.entries[postings.block[g]!]!;
  const fromValues = postings.values[postings.block[g]!]!;
  const start = postings.start[g]!;
  for (let k = 0; k < length; k += 1) {
    entries[at + k] = from[start + k]!;
    values[at + k] = fromValues[start + k]!;
  }
  postings.block[g] = last;
  postings.start[g] = at;
  postings.room[g] = size;
  postings.used = at + size;
}

/** Puts an entry and its value at the end of a trigram's run (moved to a wider place when full). */
export function append(postings: Postings, g: number, entry: number, value: number): void {
  const at = postings.length[g]!;
  if (at === postings.room[g]) reserve(postings, g, 1);
  const block = postings.block[g]!;
  postings.entries[block]![postings.start[g]! + at] = entry;
  postings.values[block]![postings.start[g]! + at] = value;
  postings.length[g] = at + 1;
}

/**
 * Takes an entry out of a run: the run's last entry takes its place (the order of the rest is kept
 * otherwise). An entry the run does not hold is an index's bug: it throws, leaving the run as it
 * was, rather than search on past the run's end.
 */
export function removeFrom(postings: Postings, g: number, entry: number): void {
  const entries = postings.entries[postings.block[g]!]!;
  const values = postings.values[postings.block[g]!]!;
  const start = postings.start[g]!;
  const last = start + postings.length[g]! - 1;
  let at = start;
  while (at <= last && entries[at] !== entry) at += 1;
  if (at > last) throw new Error(`postings: entry ${entry} is not in run ${g}`);
  entries[at] = entries[last]!;
  values[at] = values[last]!;
  postings.length[g] = last - start;
}

/** Room in the run of each trigram `held` lists for `more[g]` entries, in one step; `more` is left all 0. */
export function reserveAll(postings: Postings, held: number[], more: Int32Array): void {
  let total = 0;
  for (const g of held) total += more[g]!;
  // A build's runs in one block of just their size (the runs of later adds open blocks of BLOCK).
  openRoom(postings, total, total);
  for (const g of held) {
    reserve(postings, g, more[g]!);
    more[g] = 0;
  }
}

/** Opens a block of at least `size` (of `block` when that is more) unless the last one has room for `size`. */
function openRoom(postings: Postings, size: number, block: number): void {
  const last = postings.entries.at(-1);
  if (last && postings.used + size <= last.length) return;
  postings.entries.push(new Int32Array(Math.max(size, block)));
  postings.values.push(new Float64Array(Math.max(size, block)));
  postings.used = 0;
}
