// The shared postings of both indexes (src/modules/assistant/postings.ts): runs that grow, move to
// a wider place in the last block, open new blocks and lose entries must always read back as plain
// lists given the same appends and removals would. The operations are drawn from a seeded
// generator, many enough that the runs spread over several blocks.
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../harness/random.js';
import {
  addRun,
  append,
  newPostings,
  type Postings,
  removeFrom,
  reserveAll,
} from '../../src/modules/assistant/postings.js';

/** A run read back: its entries and values, in order. */
function run(postings: Postings, g: number): Array<[number, number]> {
  const entries = postings.entries[postings.block[g]!]!;
  const values = postings.values[postings.block[g]!]!;
  const start = postings.start[g]!;
  return Array.from({ length: postings.length[g]! }, (_, k) => [entries[start + k]!, values[start + k]!]);
}

describe('shared postings', () => {
  it('read back as plain lists after appends, removals and reservations that span several blocks', () => {
    // Seeded: the same operations on every run of the test.
    const random = seededRandom(20261126);
    const postings = newPostings();
    const model: Array<Array<[number, number]>> = [];
    const RUNS = 3000;
    for (let g = 0; g < RUNS; g += 1) {
      addRun(postings);
      model.push([]);
    }
    // A build first: room for each run reserved at once, then filled, as PhrasingIndex.add does.
    const more = new Int32Array(RUNS);
    const held: number[] = [];
    for (let g = 0; g < RUNS; g += 2) {
      more[g] = 1 + Math.floor(random() * 20);
      held.push(g);
    }
    const planned = held.map((g) => [g, more[g]!] as const);
    reserveAll(postings, held, more);
    expect([...more].every((n) => n === 0)).toBe(true);
    let nextEntry = 0;
    for (const [g, count] of planned)
      for (let k = 0; k < count; k += 1) {
        const value = random();
        append(postings, g, nextEntry, value);
        model[g]!.push([nextEntry, value]);
        nextEntry += 1;
      }
    // Then edits: mostly appends (a few runs grow long, as common trigrams do), some removals.
    for (let step = 0; step < 400_000; step += 1) {
      const g = random() < 0.3 ? Math.floor(random() * 20) : Math.floor(random() * RUNS);
      const list = model[g]!;
      if (list.length > 0 && random() < 0.2) {
        const at = Math.floor(random() * list.length);
        removeFrom(postings, g, list[at]![0]);
        list[at] = list[list.length - 1]!;
        list.pop();
      } else {
        const value = random();
        append(postings, g, nextEntry, value);
        list.push([nextEntry, value]);
        nextEntry += 1;
      }
    }
    expect(postings.entries.length).toBeGreaterThan(2);
    for (let g = 0; g < RUNS; g += 1) expect(run(postings, g)).toEqual(model[g]);
  });

  it('keeps a run in place while it has room, and moves it whole when it outgrows it', () => {
    const postings = newPostings();
    addRun(postings);
    addRun(postings);
    const more = new Int32Array(2);
    more[0] = 2;
    more[1] = 1;
    reserveAll(postings, [0, 1], more);
    append(postings, 0, 10, 0.5);
    append(postings, 0, 11, 0.25);
    const placed = [postings.block[0], postings.start[0]];
    append(postings, 1, 12, 1);
    expect([postings.block[0], postings.start[0]]).toEqual(placed);
    // A third entry does not fit the two reserved: the run moves, its entries with it.
    append(postings, 0, 13, 0.125);
    expect([postings.block[0], postings.start[0]]).not.toEqual(placed);
    expect(run(postings, 0)).toEqual([
      [10, 0.5],
      [11, 0.25],
      [13, 0.125],
    ]);
    expect(run(postings, 1)).toEqual([[12, 1]]);
    removeFrom(postings, 0, 10);
    expect(run(postings, 0)).toEqual([
      [13, 0.125],
      [11, 0.25],
    ]);
    // An entry the run does not hold (the run's room past its end included) is refused, not searched for.
    expect(() => removeFrom(postings, 0, 10)).toThrow('postings: entry 10 is not in run 0');
    expect(() => removeFrom(postings, 1, 13)).toThrow('postings: entry 13 is not in run 1');
    expect(run(postings, 0)).toEqual([
      [13, 0.125],
      [11, 0.25],
    ]);
    expect(run(postings, 1)).toEqual([[12, 1]]);
  });
});
