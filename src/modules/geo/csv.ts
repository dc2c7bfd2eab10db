// Streaming CSV reading: a file (plain, or gzip-compressed) is read line by line, never whole,
// and lines are assembled into records. Quoting follows RFC 4180: a field in double quotes may
// hold commas, doubled quotes ("") and line breaks. CRLF and LF line ends are both accepted, as
// is a UTF-8 byte order mark.
import fs from 'node:fs';
import readline from 'node:readline';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';

export interface CsvRecord {
  /** 1-based line number where the record starts (the header is line 1). */
  line: number;
  fields: string[];
}

export class CsvSyntaxError extends Error {
  override name = 'CsvSyntaxError';
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

type LineState = { fields: string[]; field: string; inQuotes: boolean };

/**
 * Continues parsing one physical line into state. Returns true when the record is complete,
 * false when a quoted field goes on to the next line.
 */
function consumeLine(text: string, state: LineState, lineNumber: number): boolean {
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (state.inQuotes) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          state.field += '"';
          i += 2;
          continue;
        }
        state.inQuotes = false;
        const next = text[i + 1];
        if (next !== undefined && next !== ',')
          throw new CsvSyntaxError(lineNumber, 'a closing quote must end the field');
        i += 1;
        continue;
      }
      state.field += ch;
      i += 1;
      continue;
    }
    if (ch === ',') {
      state.fields.push(state.field);
      state.field = '';
    } else if (ch === '"' && state.field === '') {
      state.inQuotes = true;
    } else {
      state.field += ch;
    }
    i += 1;
  }
  if (state.inQuotes) {
    state.field += '\n';
    return false;
  }
  state.fields.push(state.field);
  return true;
}

/** Splits one complete CSV line into fields. */
export function parseCsvLine(text: string, lineNumber = 1): string[] {
  const state: LineState = { fields: [], field: '', inQuotes: false };
  if (!consumeLine(text, state, lineNumber)) throw new CsvSyntaxError(lineNumber, 'a quoted field is not closed');
  return state.fields;
}

/** Records from a stream of text lines; blank lines between records are skipped. */
export async function* csvRecords(lines: AsyncIterable<string>): AsyncGenerator<CsvRecord> {
  let lineNumber = 0;
  let pending: { state: LineState; line: number } | undefined;
  for await (const raw of lines) {
    lineNumber += 1;
    const text = lineNumber === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (!pending) {
      if (text.trim() === '') continue;
      pending = { state: { fields: [], field: '', inQuotes: false }, line: lineNumber };
    }
    if (consumeLine(text, pending.state, lineNumber)) {
      yield { line: pending.line, fields: pending.state.fields };
      pending = undefined;
    }
  }
  if (pending) throw new CsvSyntaxError(pending.line, 'a quoted field is not closed before the end of the file');
}

/** Lines of a file, gunzipped on the fly when it starts with the gzip magic bytes. */
export async function* fileLines(file: string): AsyncGenerator<string> {
  const handle = await fs.promises.open(file, 'r');
  const magic = Buffer.alloc(2);
  const { bytesRead } = await handle.read(magic, 0, 2, 0);
  await handle.close();
  const gzipped = bytesRead === 2 && magic[0] === 0x1f && magic[1] === 0x8b;
  const raw = fs.createReadStream(file);
  const input: Readable = gzipped ? raw.pipe(zlib.createGunzip()) : raw;
  // A broken gzip stream must surface as an error of the reader, not an unhandled event.
  if (gzipped) raw.on('error', (error) => input.destroy(error));
  const reader = readline.createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of reader) yield line;
  } finally {
    reader.close();
    raw.destroy();
  }
}
