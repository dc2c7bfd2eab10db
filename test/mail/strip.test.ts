// Quote and signature stripping on its own: each client's marker cuts, a forwarded message stays,
// and a message that is nothing but quotes keeps its text rather than becoming empty.
import { describe, expect, it } from 'vitest';
import { newTextOf, textOfHtml } from '../../src/modules/tickets/email/strip.js';

describe('newTextOf', () => {
  const cases: Array<[string, string, string]> = [
    ['Gmail', 'Yes.\n\nOn Mon, 23 Nov 2026 at 09:00, Support <s@x> wrote:\n> old', 'Yes.'],
    ['Persian attribution', 'بله.\n\nدر تاریخ دوشنبه ۳ آذر، Support <s@x> نوشت:\n> قدیمی', 'بله.'],
    ['Outlook original message', 'Fine.\n-----Original Message-----\nFrom: a\nSent: b', 'Fine.'],
    ['Outlook header block', 'Fine.\n\nFrom: Support <s@x>\nSent: Monday\nTo: me\nold', 'Fine.'],
    ['signature', 'Done.\n-- \nMina\n+98 912', 'Done.'],
    ['iPad', 'Ok\n\nSent from my iPad', 'Ok'],
    ['Outlook mobile', 'Ok\n\nGet Outlook for Android', 'Ok'],
    ['quoted lines only removed', 'Answer\n> quoted\nmore', 'Answer\nmore'],
  ];
  for (const [name, input, expected] of cases)
    it(`cuts at the ${name} marker`, () => expect(newTextOf(input)).toBe(expected));

  it('keeps a forwarded message', () => {
    const text = 'See below.\n\n---------- Forwarded message ---------\nFrom: Bank\n\nPayment failed.';
    expect(newTextOf(text)).toBe(text);
  });

  it('keeps the whole text when nothing but quotes is there', () => {
    expect(newTextOf('> only a quote')).toBe('> only a quote');
  });

  it('does not cut at a line that merely starts with From:', () => {
    expect(newTextOf('From: my bank statement, the charge is twice.\nPlease check.')).toContain('Please check.');
  });
});

describe('textOfHtml', () => {
  it('drops styles, quotes and markup, decodes entities', () => {
    const html =
      '<html><head><style>p{x:y}</style></head><body><p>Hi &amp; thanks&#33;</p><blockquote>old</blockquote><div class="gmail_quote">On ... wrote:</div></body></html>';
    expect(textOfHtml(html, true)).toBe('Hi & thanks!');
    expect(textOfHtml(html, false)).toContain('old');
  });
});
