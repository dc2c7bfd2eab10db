// Plain text and Markdown arrive in whatever encoding the editor saved: UTF-8 (with or without a
// byte order mark), UTF-16 with its mark, or the legacy Windows Arabic code page Persian Windows
// editors used (windows-1256). Anything else, and bytes that look binary, are refused.
import { UnreadableDocument } from './limits.js';

function decode(encoding: string, bytes: Uint8Array): string | null {
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** C0 controls other than tab, line feed, form feed and carriage return: text does not hold them. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this looks for
const BINARY_CONTROL = /[\u0000-\u0008\u000b\u000e-\u001f]/;

export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return checked(decode('utf-16le', bytes.subarray(2)));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return checked(decode('utf-16be', bytes.subarray(2)));
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const utf8 = decode('utf-8', bytes.subarray(start));
  if (utf8 !== null) return checked(utf8);
  return checked(decode('windows-1256', bytes));
}

function checked(text: string | null): string {
  if (text === null || BINARY_CONTROL.test(text)) throw new UnreadableDocument('encoding');
  return text;
}
