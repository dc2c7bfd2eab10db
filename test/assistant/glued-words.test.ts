// Persian words written in parts (a ZWNJ, a space or nothing between them): a PDF's text loses the
// ZWNJ, so a page holds پیشنویس where a member writes پیش نویس or پیش‌نویس. A message's parts in a
// row are also searched glued when a passage uses the glued word, and a word an article writes with
// a ZWNJ is read as its parts when a message or a page glues it.
import { describe, expect, it } from 'vitest';
import { KnowledgeBase, type Passage } from '../../src/modules/assistant/knowledge.js';
import { gluedTerms } from '../../src/modules/assistant/terms.js';

const page = (position: number, answer: string): Passage => ({
  id: `file-3.${position}`,
  lang: 'fa',
  topic: 'file-3',
  question: `راهنمای اعضا، صفحه ${position}`,
  alternates: [],
  answer,
  document: true,
});
const article: Passage = {
  id: 'investing.how',
  lang: 'fa',
  topic: 'investing',
  question: 'چطور سرمایه‌گذاری کنم؟',
  alternates: [],
  answer: 'از صفحه طرح، مبلغ سرمایه‌گذاری را وارد کنید و پرداخت را تأیید کنید.',
};

const DRAFT = 'پیشنویس طرح تا زمان ارسال فقط برای خود شما دیده میشود و هر وقت بخواهید ویرایشش میکنید.';
const FILLER = 'بازدید کارشناس از محل پیش از نصب انجام میشود و یک روز کاری طول میکشد.';

describe('glued Persian words', () => {
  it('searches two or three tokens in a row glued when a passage uses the glued word', () => {
    const vocabulary = new Map([['پیشنویس', 1]]);
    expect(gluedTerms(['پیش', 'نویس', 'طرح'], vocabulary)).toEqual(['پیشنویس']);
    expect(gluedTerms(['پیش', 'نویس', 'طرح'], new Map())).toEqual([]);
    expect(gluedTerms(['به', 'روز', 'رسانی'], new Map([['بهروزرسانی', 1]]))).toEqual(['بهروزرسانی']);
  });

  it("finds a page's glued word from a message that writes it in parts, with a space or a ZWNJ", () => {
    const kb = new KnowledgeBase([page(1, FILLER), page(2, DRAFT)]);
    for (const message of ['پیش نویس طرح کجا دیده میشه', 'پیش‌نویس طرح کجا دیده میشه']) {
      expect(kb.expand(message, 'fa').terms).toContain('پیشنویس');
      expect(kb.match(message, 'fa', 1).hits[0]?.passage.id).toBe('file-3.2');
    }
  });

  it('reads a glued word as the parts an article writes with a ZWNJ, while that article is there', () => {
    const kb = new KnowledgeBase([article]);
    expect(kb.words('سرمایهگذاری', 'fa')).toEqual(kb.words('سرمایه‌گذاری', 'fa'));
    expect(kb.words('سرمایهگذاری', 'fa')).toEqual(['سرمایه', 'گذاری']);
    kb.remove('fa:investing.how');
    expect(kb.words('سرمایهگذاری', 'fa')).toEqual(['سرمایهگذاری']);
  });
});
