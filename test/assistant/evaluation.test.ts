import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  here as EVAL_DIR,
  KINDS,
  OUT_OF_SCOPE,
  parseCases,
  readCases,
  readQuestions,
  readSplit,
} from '../../eval/assistant/questions.js';
import { PARAPHRASES } from '../../eval/assistant/paraphrases.js';
import { NEAR_COPY, NEAR_DUPLICATE, SEED, similarity, split } from '../../eval/assistant/split.js';
import { DEFAULT_THESAURUS_DIR, loadOutside, loadPassages } from '../../src/modules/assistant/knowledge.js';
import { normalizeText } from '../../src/modules/assistant/text.js';

// Words only, one space apart: punctuation, case, ZWNJ and Arabic letters cannot hide a copy.
const words = (text: string): string =>
  ` ${normalizeText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .join(' ')} `;

describe('assistant evaluation set', () => {
  const stored = readSplit();
  // Every question a figure is reported on: the held-out half, the later sets and the older paraphrases.
  const measuredQuestions = (lang: 'en' | 'fa') => [
    ...stored.sets[lang].heldout,
    ...(['fresh', 'unseen', 'sealed'] as const).flatMap((file) => readQuestions(lang, file)),
    ...PARAPHRASES.filter((p) => p.lang === lang),
  ];

  it('is the split the fixed seed makes, and every question is in exactly one half', () => {
    expect(stored.seed).toBe(SEED);
    expect(split(SEED)).toEqual(stored);
    for (const lang of ['en', 'fa'] as const) {
      const { tuning, heldout } = stored.sets[lang];
      const all = readQuestions(lang).length + readQuestions(lang, 'tuning').length;
      expect(tuning.length + heldout.length).toBe(all);
      expect(new Set([...tuning, ...heldout].map((q) => q.query)).size).toBe(all);
      // The later out-of-scope questions are in the tuning half only, after the seeded split.
      expect(tuning.slice(-readQuestions(lang, 'tuning').length)).toEqual(readQuestions(lang, 'tuning'));
    }
  });

  it('holds at least 150 questions and 30 out-of-scope ones per language, covering every passage in both halves', () => {
    const passages = loadPassages();
    for (const lang of ['en', 'fa'] as const) {
      const questions = readQuestions(lang);
      const ids = new Set(passages.filter((p) => p.lang === lang).map((p) => p.id));
      expect(questions.filter((q) => q.expected !== OUT_OF_SCOPE).length).toBeGreaterThanOrEqual(150);
      expect(questions.filter((q) => q.expected === OUT_OF_SCOPE).length).toBeGreaterThanOrEqual(30);
      for (const q of questions) if (q.expected !== OUT_OF_SCOPE) expect(ids.has(q.expected), q.expected).toBe(true);
      for (const half of [stored.sets[lang].tuning, stored.sets[lang].heldout]) {
        expect(new Set(half.map((q) => q.expected).filter((e) => e !== OUT_OF_SCOPE))).toEqual(ids);
      }
    }
  });

  // Each heading, alternate question and answer line on its own, so no match spans two of them.
  const knowledgeLines = (lang: 'en' | 'fa'): string[] =>
    loadPassages()
      .filter((p) => p.lang === lang)
      .flatMap((p) => [p.question, ...p.alternates, ...p.answer.split('\n')].map(words));
  const thesaurusLines = (lang: 'en' | 'fa'): string[] =>
    fs
      .readFileSync(path.join(DEFAULT_THESAURUS_DIR, `${lang}.txt`), 'utf8')
      .split('\n')
      .map(words);

  it('keeps every held-out question out of the knowledge base and the thesaurus', () => {
    for (const lang of ['en', 'fa'] as const) {
      const knowledge = knowledgeLines(lang);
      const thesaurus = thesaurusLines(lang);
      for (const { query } of stored.sets[lang].heldout) {
        const needle = words(query);
        expect(
          knowledge.some((text) => text.includes(needle)),
          `held-out "${query}" is in the knowledge base`,
        ).toBe(false);
        expect(
          thesaurus.some((line) => line.includes(needle)),
          `held-out "${query}" is in the thesaurus`,
        ).toBe(false);
      }
    }
  });

  it('has a fresh set of two questions per passage and 24 out-of-scope ones per language, none of them in the other sets', () => {
    const passages = loadPassages();
    for (const lang of ['en', 'fa'] as const) {
      const fresh = readQuestions(lang, 'fresh');
      const perPassage = new Map<string, number>();
      for (const q of fresh) perPassage.set(q.expected, (perPassage.get(q.expected) ?? 0) + 1);
      for (const p of passages.filter((p) => p.lang === lang))
        expect(perPassage.get(p.id) ?? 0, p.id).toBeGreaterThanOrEqual(2);
      expect(perPassage.get(OUT_OF_SCOPE) ?? 0).toBeGreaterThanOrEqual(24);
      const older = new Set(readQuestions(lang).map((q) => words(q.query)));
      expect(new Set(fresh.map((q) => words(q.query))).size).toBe(fresh.length);
      for (const { query } of fresh)
        expect(older.has(words(query)), `fresh "${query}" is also in questions.${lang}.txt`).toBe(false);
    }
  });

  for (const set of ['fresh', 'unseen', 'sealed'] as const) {
    it(`keeps every ${set} question out of the knowledge base and the thesaurus`, () => {
      for (const lang of ['en', 'fa'] as const) {
        const knowledge = knowledgeLines(lang);
        const thesaurus = thesaurusLines(lang);
        for (const { query } of readQuestions(lang, set)) {
          const needle = words(query);
          expect(
            knowledge.some((text) => text.includes(needle)),
            `${set} "${query}" is in the knowledge base`,
          ).toBe(false);
          expect(
            thesaurus.some((line) => line.includes(needle)),
            `${set} "${query}" is in the thesaurus`,
          ).toBe(false);
        }
      }
    });
  }

  // The later sets, each written before the changes it measured: none of their questions may be in
  // a file written before them or tuned on, either way round (one containing the other).
  const laterSets = [
    { set: 'unseen', others: ['questions', 'fresh', 'tuning'] },
    { set: 'sealed', others: ['questions', 'fresh', 'unseen', 'tuning'] },
  ] as const;
  for (const { set, others } of laterSets) {
    it(`has a ${set} set of at least a question per passage and 30 out-of-scope ones per language, none of them in any other question file`, () => {
      const passages = loadPassages();
      for (const lang of ['en', 'fa'] as const) {
        const questions = readQuestions(lang, set);
        const perPassage = new Map<string, number>();
        for (const q of questions) perPassage.set(q.expected, (perPassage.get(q.expected) ?? 0) + 1);
        for (const p of passages.filter((p) => p.lang === lang))
          expect(perPassage.get(p.id) ?? 0, p.id).toBeGreaterThanOrEqual(1);
        expect(perPassage.get(OUT_OF_SCOPE) ?? 0).toBeGreaterThanOrEqual(30);
        expect(
          [...perPassage.keys()].filter(
            (id) => id !== OUT_OF_SCOPE && !passages.some((p) => p.lang === lang && p.id === id),
          ),
        ).toEqual([]);
        expect(new Set(questions.map((q) => words(q.query))).size).toBe(questions.length);
        const earlier = others
          .flatMap((file) => readQuestions(lang, file).map((q) => q.query))
          .concat(PARAPHRASES.filter((p) => p.lang === lang).map((p) => p.query))
          .map(words);
        for (const { query } of questions) {
          const needle = words(query);
          expect(
            earlier.some((other) => other.includes(needle) || needle.includes(other)),
            `${set} "${query}" is in another question file`,
          ).toBe(false);
        }
      }
    });
  }

  it('adds at least 30 out-of-scope questions and one per passage per language to the tuning half, none of them in a measured set', () => {
    const passages = loadPassages();
    for (const lang of ['en', 'fa'] as const) {
      const extra = readQuestions(lang, 'tuning');
      const ids = new Set(passages.filter((p) => p.lang === lang).map((p) => p.id));
      expect(extra.filter((q) => q.expected === OUT_OF_SCOPE).length).toBeGreaterThanOrEqual(30);
      expect(new Set(extra.map((q) => q.expected).filter((e) => e !== OUT_OF_SCOPE))).toEqual(ids);
      const measured = measuredQuestions(lang).map((q) => words(q.query));
      for (const { query } of extra) {
        const needle = words(query);
        expect(
          measured.some((other) => other.includes(needle) || needle.includes(other)),
          `tuning "${query}" is in a measured set`,
        ).toBe(false);
      }
    }
  });

  it('keeps every measured question out of the questions outside the scope', () => {
    const outside = loadOutside();
    for (const lang of ['en', 'fa'] as const) {
      expect(outside[lang].length).toBeGreaterThanOrEqual(60);
      const lines = outside[lang].map(words);
      const measured = measuredQuestions(lang);
      for (const { query } of measured) {
        const needle = words(query);
        expect(
          lines.some((line) => line.includes(needle)),
          `measured "${query}" is in outside/${lang}.txt`,
        ).toBe(false);
      }
    }
  });

  describe('the later kinds', () => {
    const passageIds = (lang: 'en' | 'fa') =>
      new Set(
        loadPassages()
          .filter((p) => p.lang === lang)
          .map((p) => p.id),
      );

    it('are split once per kind and language: every case in exactly one half, near-duplicates in the same one', () => {
      for (const kind of KINDS) {
        for (const lang of ['en', 'fa'] as const) {
          const cases = readCases(kind, lang);
          const halves = stored.kinds[kind][lang];
          if (cases.length === 0) {
            expect(halves).toBeUndefined();
            continue;
          }
          const { tuning: withExtra, heldout } = halves!;
          // The tuning-only lines come last in the tuning half, after the seeded split of the others.
          const extra = readCases(kind, lang, 'tuning');
          const tuning = withExtra.slice(0, withExtra.length - extra.length);
          expect(withExtra.slice(tuning.length)).toEqual(extra);
          for (const c of extra)
            expect(
              heldout.some((h) => similarity(h.query, c.query) >= NEAR_COPY),
              `tuning-only ${kind}.${lang} "${c.query}" nearly repeats a held-out case`,
            ).toBe(false);
          expect([...tuning, ...heldout].map((c) => c.query).sort()).toEqual(cases.map((c) => c.query).sort());
          expect(Math.abs(tuning.length - heldout.length), `${kind}.${lang}`).toBeLessThanOrEqual(2);
          const side = new Map([
            ...tuning.map((c) => [c, 'tuning'] as const),
            ...heldout.map((c) => [c, 'heldout'] as const),
          ]);
          const all = [...side.keys()];
          for (const [i, a] of all.entries())
            for (const b of all.slice(i + 1))
              if (a.expected.join() === b.expected.join() && similarity(a.query, b.query) >= NEAR_DUPLICATE)
                expect(side.get(a), `"${a.query}" and "${b.query}"`).toBe(side.get(b));
        }
      }
    });

    it('hold what members write: 100 Finglish questions over every passage and 30 out of scope, 30 conversations, 40 page, long and near-topic questions per language', () => {
      const finglish = readCases('finglish', 'fa');
      expect(finglish.filter((c) => c.expected[0] !== OUT_OF_SCOPE).length).toBeGreaterThanOrEqual(100);
      expect(finglish.filter((c) => c.expected[0] === OUT_OF_SCOPE).length).toBeGreaterThanOrEqual(30);
      expect(new Set(finglish.flatMap((c) => c.expected).filter((e) => e !== OUT_OF_SCOPE))).toEqual(passageIds('fa'));
      expect(readCases('finglish', 'en')).toEqual([]);
      for (const lang of ['en', 'fa'] as const) {
        const ids = passageIds(lang);
        const conversations = readCases('conversations', lang);
        expect(conversations.length).toBeGreaterThanOrEqual(30);
        for (const c of conversations) expect(c.earlier!.length, c.query).toBeGreaterThanOrEqual(1);
        expect(readCases('page', lang).length).toBeGreaterThanOrEqual(40);
        expect(readCases('long', lang).length).toBeGreaterThanOrEqual(40);
        const nearTopic = readCases('neartopic', lang);
        expect(nearTopic.length).toBeGreaterThanOrEqual(40);
        expect(nearTopic.every((c) => c.expected[0] === OUT_OF_SCOPE)).toBe(true);
        for (const kind of KINDS)
          for (const c of readCases(kind, lang))
            for (const id of [...c.expected, ...(c.earlier ?? []).map((t) => t.expected)])
              if (id !== OUT_OF_SCOPE) expect(ids.has(id), `${kind}.${lang}: ${id}`).toBe(true);
      }
    });

    it('have a sealed batch per kind and language, never split, over real passages (Finglish: nearly every one), none of it in the first batch', () => {
      const first = (kind: (typeof KINDS)[number], lang: 'en' | 'fa') =>
        [...readCases(kind, lang), ...readCases(kind, lang, 'tuning')].map((c) => words(c.query));
      const drawn = JSON.stringify(stored);
      const finglish = readCases('finglish', 'fa', 'sealed');
      // One message per passage was written; the intake drops by rule a line that repeats another batch's.
      const covered = new Set(finglish.flatMap((c) => c.expected).filter((e) => e !== OUT_OF_SCOPE));
      expect(covered.size).toBeGreaterThanOrEqual(passageIds('fa').size - 2);
      expect(finglish.filter((c) => c.expected[0] === OUT_OF_SCOPE).length).toBeGreaterThanOrEqual(10);
      expect(readCases('finglish', 'en', 'sealed')).toEqual([]);
      for (const lang of ['en', 'fa'] as const) {
        const ids = passageIds(lang);
        for (const kind of KINDS) {
          const sealed = readCases(kind, lang, 'sealed');
          if (kind !== 'finglish') expect(sealed.length, `${kind}.${lang}`).toBeGreaterThanOrEqual(14);
          if (kind === 'neartopic') expect(sealed.every((c) => c.expected[0] === OUT_OF_SCOPE)).toBe(true);
          if (kind === 'conversations')
            for (const c of sealed) expect(c.earlier!.length, c.query).toBeGreaterThanOrEqual(1);
          const earlier = first(kind, lang);
          for (const c of sealed) {
            for (const id of [...c.expected, ...(c.earlier ?? []).map((t) => t.expected)])
              if (id !== OUT_OF_SCOPE) expect(ids.has(id), `${kind}.${lang}: ${id}`).toBe(true);
            expect(
              drawn.includes(JSON.stringify(c.query)),
              `sealed ${kind}.${lang} "${c.query}" is in split.json`,
            ).toBe(false);
            expect(
              earlier.some((line) => line.includes(words(c.query))),
              `sealed ${kind}.${lang} "${c.query}" repeats the first batch`,
            ).toBe(false);
          }
        }
      }
    });

    // The batches written after the sealed batch: their marker, and the files that hold it.
    const laterBatches = [
      {
        marker: "# Added 2026-11-26 after the sealed batch's first reading",
        files: (['long', 'conversations'] as const).flatMap((kind) =>
          (['en', 'fa'] as const).map((lang) => ({ kind, lang, file: `${kind}.tuning.${lang}.txt` })),
        ),
        least: 70,
      },
      {
        marker: '# Added 2026-11-27 (fourth batch)',
        files: [
          ...(['long', 'conversations', 'page'] as const).flatMap((kind) =>
            (['en', 'fa'] as const).map((lang) => ({ kind, lang, file: `${kind}.tuning.${lang}.txt` })),
          ),
          { kind: 'neartopic' as const, lang: 'en' as const, file: 'neartopic.tuning.en.txt' },
          { kind: 'finglish' as const, lang: 'fa' as const, file: 'finglish.tuning.txt' },
        ],
        least: 150,
      },
    ];
    it.each(laterBatches)(
      'keep the tuning-only lines of "$marker" away from the sealed cases, as from the held-out ones',
      ({ marker, files, least }) => {
        let checked = 0;
        for (const { kind, lang, file } of files) {
          const text = fs.readFileSync(path.join(EVAL_DIR, file), 'utf8');
          expect(text.includes(marker), file).toBe(true);
          const next = text.indexOf('\n# Added', text.indexOf(marker) + marker.length);
          const lines = text
            .slice(text.indexOf(marker), next < 0 ? undefined : next)
            .split('\n')
            .map((l) => l.trim())
            .filter((l) => l && !l.startsWith('#'));
          const guarded = [...stored.kinds[kind][lang]!.heldout, ...readCases(kind, lang, 'sealed')].map(
            (c) => c.query,
          );
          for (const { query } of parseCases(kind, lines, file)) {
            checked += 1;
            expect(
              guarded.some((g) => similarity(g, query) >= NEAR_COPY),
              `${file} "${query}" nearly repeats a held-out or sealed case`,
            ).toBe(false);
          }
        }
        expect(checked).toBeGreaterThanOrEqual(least);
      },
    );

    it('keep every measured case, sealed one and tuning-only line out of the knowledge base, the thesaurus and the questions outside the scope', () => {
      const outside = loadOutside();
      for (const lang of ['en', 'fa'] as const) {
        const assets = [...knowledgeLines(lang), ...thesaurusLines(lang), ...outside[lang].map(words)];
        for (const kind of KINDS)
          for (const c of [
            ...(stored.kinds[kind][lang]?.heldout ?? []),
            ...readCases(kind, lang, 'tuning'),
            ...readCases(kind, lang, 'sealed'),
          ]) {
            const needle = words(c.query);
            // Finglish carries English words: it may repeat neither language's assets.
            const others = kind === 'finglish' ? [...knowledgeLines('en'), ...thesaurusLines('en')] : [];
            expect(
              [...assets, ...others].some((line) => line.includes(needle)),
              `${kind} "${c.query}" repeats an asset line`,
            ).toBe(false);
          }
      }
    });
  });
});
