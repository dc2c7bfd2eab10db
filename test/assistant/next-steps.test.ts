// The next steps of a passage (its "<!-- next: … -->" line): what a member usually asks after
// reading it, in any topic, and a vague follow-up leaning to them (vague-turns.ts nextSteps,
// understanding.ts).
import { describe, expect, it } from 'vitest';
import {
  bundledKnowledgeBase,
  DEFAULT_RANKING,
  KnowledgeBase,
  KnowledgeBaseError,
  loadOutside,
  loadPassages,
  loadThesaurus,
  parseKnowledgeFile,
} from '../../src/modules/assistant/knowledge.js';
import { DEFAULT_READING, understand } from '../../src/modules/assistant/understanding.js';
import { asksForTime, nextSteps } from '../../src/modules/assistant/vague-turns.js';

const kb = bundledKnowledgeBase();
/** The bundled passages without their next lines: the topics' order alone, as before them. */
const withoutNext = new KnowledgeBase(
  loadPassages().map(({ next: _next, ...passage }) => passage),
  loadThesaurus(),
  DEFAULT_RANKING,
  loadOutside(),
);
const ids = (knowledge: KnowledgeBase, message: string, earlier: Array<{ message: string; sources: string[] }>) =>
  understand(knowledge, { message, earlier }).passages.map((p) => p.id);

describe('the next line of a passage', () => {
  it('reads one next line per passage and refuses a second', () => {
    const [passage] = parseKnowledgeFile(
      '## Q\n<!-- id: t.q -->\n<!-- next: payments.refund-time, t.other -->\n<!-- also: another way -->\nThe answer.',
      't',
      'en',
      't.en.md',
    );
    expect(passage).toMatchObject({
      alternates: ['another way'],
      next: ['payments.refund-time', 't.other'],
      answer: 'The answer.',
    });
    expect(() =>
      parseKnowledgeFile(
        '## Q\n<!-- id: t.q -->\n<!-- next: t.a -->\n<!-- next: t.b -->\nThe answer.',
        't',
        'en',
        't.en.md',
      ),
    ).toThrow(KnowledgeBaseError);
    expect(parseKnowledgeFile('## Q\n<!-- id: t.q -->\nThe answer.', 't', 'en', 't.en.md')[0]!.next).toBeUndefined();
  });

  it('names passages that exist, the same in both languages, never the passage itself', () => {
    const passages = kb.passages;
    expect(passages.filter((p) => p.next).length).toBeGreaterThan(0);
    for (const passage of passages) {
      const other = passages.find((p) => p.id === passage.id && p.lang !== passage.lang)!;
      expect(other.next, passage.id).toEqual(passage.next);
      for (const step of passage.next ?? []) {
        expect(kb.passage(passage.lang, step), `${passage.id} → ${step}`).toBeDefined();
        expect(step).not.toBe(passage.id);
      }
    }
  });

  it('gives the declared steps, else the passage after it in its topic, else none', () => {
    expect(nextSteps(kb, 'en', 'investing.cancel').map((p) => p.id)).toEqual(['payments.refund-time']);
    expect(nextSteps(kb, 'fa', 'projects.review').map((p) => p.id)).toEqual(['projects.revision', 'projects.rejected']);
    expect(nextSteps(kb, 'en', 'payments.refund-request').map((p) => p.id)).toEqual(['payments.refund-time']);
    expect(nextSteps(kb, 'en', 'payments.receipt')).toEqual([]);
    expect(nextSteps(kb, 'en', 'no.such-passage')).toEqual([]);
  });
});

describe('a follow-up after a passage with next steps', () => {
  const cancelled = [{ message: 'Can I cancel an investment after paying?', sources: ['investing.cancel'] }];
  const unfunded = [{ message: 'اگه پروژه به هدفش نرسه چی میشه', sources: ['projects.not-funded'] }];

  it('leans to the next step in another topic', () => {
    expect(ids(kb, 'ok, and how long till i have it back?', cancelled)).toEqual(['payments.refund-time']);
    expect(ids(kb, 'پولم کی برمیگرده؟', unfunded)).toEqual(['payments.refund-time']);
    // Without the next lines, the passage just answered stays first.
    expect(ids(withoutNext, 'ok, and how long till i have it back?', cancelled)).toEqual(['investing.cancel']);
    expect(ids(withoutNext, 'پولم کی برمیگرده؟', unfunded)).toEqual(['projects.not-funded']);
  });

  it('leads from paying for an investment to its receipt and a failed payment', () => {
    const invested = [{ message: 'How do I invest in a project?', sources: ['investing.how-to-invest'] }];
    expect(ids(kb, 'will i get a receipt after paying', invested)[0]).toBe('payments.receipt');
    expect(ids(kb, 'what if the payment fails', invested)[0]).toBe('payments.failed');
    // Without the next lines the investing topic keeps the first place.
    expect(ids(withoutNext, 'will i get a receipt after paying', invested)[0]).toBe('investing.how-to-invest');
  });

  it('answers an unanswered "and then?" with the first declared step', () => {
    const deleted = [{ message: 'How do I close my account?', sources: ['accounts.delete'] }];
    expect(ids(kb, 'k and then??', deleted)).toEqual(['tickets.open']);
    expect(ids(withoutNext, 'k and then??', deleted)).toEqual([]);
  });

  it('still answers a clear question of its own, and "I don\'t know" to one nobody answers', () => {
    expect(ids(kb, 'How do I open a support ticket?', cancelled)).toEqual(['tickets.open']);
    expect(ids(kb, 'what is the weather tomorrow in tehran', cancelled)).toEqual([]);
  });
});

describe('a follow-up that asks when', () => {
  it('reads when, how long and how fast, in both languages, by whole words', () => {
    expect(asksForTime('ok and how fast does it come back?')).toBe(true);
    expect(asksForTime('How long does a refund take?')).toBe(true);
    expect(asksForTime('پول اضافه کی برمیگرده؟')).toBe(true);
    expect(asksForTime('بازگشت پول چقدر طول می‌کشد؟')).toBe(true);
    expect(asksForTime('where is my receipt')).toBe(false);
    expect(asksForTime('کیف پولم کجاست')).toBe(false);
  });

  it('puts the passage whose heading asks when first among those the conversation points to (timeBoost)', () => {
    const charged = [{ message: 'برای یک سرمایه‌گذاری دو بار از حسابم پول کم شد', sources: ['payments.double-charge'] }];
    const message = 'پول اضافه کی برمیگرده به کارتم؟';
    expect(understand(kb, { message, earlier: charged }).passages[0]?.id).toBe('payments.refund-time');
    const without = { ...DEFAULT_READING, timeBoost: 0 };
    expect(understand(kb, { message, earlier: charged }, { reading: without }).passages[0]?.id).toBe(
      'payments.double-charge',
    );
  });
});
