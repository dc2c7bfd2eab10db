// What an uploaded document may cost. The upload itself is bounded by the parser (MAX_UPLOAD_BYTES);
// reading it happens in a worker thread bounded in time and heap, and the readers stop at a page
// count and an amount of text, so a hostile file ends as `failed` with a reason, never as a stalled
// or exhausted process.

/** Files must be smaller than 20 MiB: 20,971,519 bytes are taken, 20,971,520 are a 422 (as ticket attachments under 10 MB). */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

export const EXTRACTION_LIMITS = {
  /** The worker is terminated after this long. */
  timeMs: 30_000,
  /** The worker's old-generation heap (resourceLimits.maxOldGenerationSizeMb). */
  heapMb: 256,
  /** More pages than this and the PDF is refused before any page is read. */
  maxPages: 2_000,
  /** More text than this (characters, after clean-up) and the document is refused. */
  maxTextChars: 5_000_000,
  /** A DOCX whose parts would inflate to more than this (bytes, as the zip declares them) is refused unread. */
  maxInflatedBytes: 100 * 1024 * 1024,
  /** ...or whose parts inflate more than this many times their compressed size. */
  maxInflateRatio: 200,
} as const;

/** The kinds of document taken, by file extension. */
export const DOCUMENT_KINDS = { pdf: 'pdf', docx: 'docx', txt: 'txt', md: 'md', markdown: 'md' } as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[keyof typeof DOCUMENT_KINDS];
export const ACCEPTED_EXTENSIONS = Object.keys(DOCUMENT_KINDS);

/** Why a document could not be read: a catalogue key (kb_files.failure.*) and its parameters. */
export class UnreadableDocument extends Error {
  override name = 'UnreadableDocument';
  constructor(
    readonly reason: string,
    readonly params: Record<string, string | number> = {},
  ) {
    super(reason);
  }
}
