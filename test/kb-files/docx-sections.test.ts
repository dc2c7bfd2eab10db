// A Word document's headings told by paragraph style (docx-sections.ts), read by the extraction the
// worker runs, on documents zipped here; the upload over the server is in uploads.test.ts.
import { describe, expect, it } from 'vitest';
import { extract } from '../../src/modules/kb-files/extract.js';
import { docx } from './documents.js';

const read = async (bytes: Buffer) =>
  (await extract('docx', new Uint8Array(bytes))).sections.map((s) => [s.heading, s.text]);

describe('a Word document', () => {
  it('is cut at the paragraphs set in a heading style, each paragraph under the heading before it', async () => {
    const bytes = docx([
      { text: 'Member handbook', style: 'Title' },
      'Read this before you invest',
      { text: 'Refund times', style: 'Heading1' },
      'A refund reaches the card in five working days.',
      'It can take longer at the end of the month',
      { text: 'Closing an account', style: 'Heading2' },
      'Write to support first.',
    ]);
    expect(await read(bytes)).toEqual([
      ['Member handbook', 'Read this before you invest'],
      ['Refund times', 'A refund reaches the card in five working days.'],
      // A short line without a full stop is text here: the styles say where the headings are.
      ['Refund times', 'It can take longer at the end of the month'],
      ['Closing an account', 'Write to support first.'],
    ]);
  });

  it('knows a heading style by its English name when a localised Word gives it another id', async () => {
    const bytes = docx(
      [
        { text: 'قوانین رای‌گیری', style: '1' },
        'هر عضو یک رای دارد.',
        { text: 'وکالت', style: '2' },
        'هر عضو می‌تواند وکیل بگیرد.',
        { text: 'متن عادی', style: 'a0' },
      ],
      { '1': 'heading 1', '2': 'Heading 2', a0: 'Normal' },
    );
    expect(await read(bytes)).toEqual([
      ['قوانین رای‌گیری', 'هر عضو یک رای دارد.'],
      ['وکالت', 'هر عضو می‌تواند وکیل بگیرد.'],
      ['وکالت', 'متن عادی'],
    ]);
  });

  it('without any heading style, guesses the headings from the lines as before', async () => {
    const bytes = docx(
      [{ text: 'Voting rules', style: 'a0' }, 'Each member has one vote.', 'Proxies', 'A proxy votes for you.'],
      { a0: 'Normal' },
    );
    expect(await read(bytes)).toEqual([
      ['Voting rules', 'Each member has one vote.'],
      ['Proxies', 'A proxy votes for you.'],
    ]);
  });

  it('takes a heading style with nothing under it as no section, and an empty heading as none', async () => {
    const bytes = docx([
      'Before any heading.',
      { text: '   ', style: 'Heading1' },
      'Still before one.',
      { text: 'Fees', style: 'Heading1' },
    ]);
    expect(await read(bytes)).toEqual([
      [null, 'Before any heading.'],
      [null, 'Still before one.'],
    ]);
  });
});
