// A Finglish message's English reading adds each passage's English score to its Persian one; the
// score is read by slot through a table from the Persian index's slots to the English index's
// (twin-slots.ts), kept until either index takes or frees a slot.
import { describe, expect, it } from 'vitest';
import type { Passage } from '../../src/modules/assistant/knowledge.js';
import { LanguageIndex } from '../../src/modules/assistant/knowledge-index.js';
import { type TwinTables, twinSlots } from '../../src/modules/assistant/twin-slots.js';

const passage = (lang: 'en' | 'fa', id: string): Passage => ({
  id,
  lang,
  topic: id.split('.')[0]!,
  question: `${lang} question ${id}`,
  alternates: [],
  answer: `${lang} answer ${id}`,
});

function indexOf(lang: 'en' | 'fa', ids: string[]): LanguageIndex {
  const index = new LanguageIndex(
    lang,
    ids.map((id) => passage(lang, id)),
    [],
    (text) => text.split(' '),
  );
  index.indexPhrasings();
  return index;
}

/** What the table says, as pairs of ids: each Persian passage's English twin (or null). */
function pairs(tables: TwinTables, en: LanguageIndex, fa: LanguageIndex): Array<[string, string | null]> {
  const slots = twinSlots(tables, 'en>fa', en, fa);
  return [...fa.passages.keys()].map((id) => {
    const twin = slots[fa.slots.get(id)!]!;
    return [id, twin < 0 ? null : en.bySlot[twin]!.id];
  });
}

describe('the table from one index’s slots to the other’s', () => {
  it('pairs the passages of the same id, whatever their slots, and -1 where one language has none', () => {
    const en = indexOf('en', ['a.one', 'b.two', 'c.three']);
    const fa = indexOf('fa', ['c.three', 'a.one', 'd.four']);
    const tables: TwinTables = new Map();
    expect(pairs(tables, en, fa)).toEqual([
      ['c.three', 'c.three'],
      ['a.one', 'a.one'],
      ['d.four', null],
    ]);
    // Free slots have no twin.
    expect([...twinSlots(tables, 'en>fa', en, fa)].filter((slot, at) => at > 0 && !fa.bySlot[at] && slot >= 0)).toEqual(
      [],
    );
  });

  it('is kept while neither index changes, and made again when either takes or frees a slot', () => {
    const en = indexOf('en', ['a.one', 'b.two']);
    const fa = indexOf('fa', ['b.two', 'a.one']);
    const tables: TwinTables = new Map();
    const first = twinSlots(tables, 'en>fa', en, fa);
    expect(twinSlots(tables, 'en>fa', en, fa)).toBe(first);

    en.remove('a.one');
    expect(pairs(tables, en, fa)).toEqual([
      ['b.two', 'b.two'],
      ['a.one', null],
    ]);
    en.add(passage('en', 'a.one'));
    fa.add(passage('fa', 'e.five'));
    expect(pairs(tables, en, fa)).toEqual([
      ['b.two', 'b.two'],
      ['a.one', 'a.one'],
      ['e.five', null],
    ]);
    // A replaced passage frees its slot and takes one again: still its own twin.
    en.add(passage('en', 'b.two'));
    expect(pairs(tables, en, fa)[0]).toEqual(['b.two', 'b.two']);
  });

  it('is made again for another index at the same slot version', () => {
    const tables: TwinTables = new Map();
    const fa = indexOf('fa', ['a.one', 'b.two']);
    expect(pairs(tables, indexOf('en', ['a.one', 'b.two']), fa)).toEqual([
      ['a.one', 'a.one'],
      ['b.two', 'b.two'],
    ]);
    // A new index of the same size has the same slot version as the one the table was made from.
    const other = indexOf('en', ['b.two', 'c.three']);
    expect(pairs(tables, other, fa)).toEqual([
      ['a.one', null],
      ['b.two', 'b.two'],
    ]);
  });
});
