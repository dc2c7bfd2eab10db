// What an attachment may be: one of the allowed extensions, and content that really is of that
// type (magic bytes), so a renamed executable is refused. Plain text has no magic: it must be
// valid UTF-8 without NUL bytes (binary formats fail that).
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { fileTypeFromFile } from 'file-type';

/** Files must be smaller than this (the spec: "under 10 MB"); 10,485,760 bytes is refused. */
export const MAX_FILE_BYTES = 10_485_760;
export const MAX_FILES = 10;

interface AllowedType {
  mime: string;
  /** Extensions file-type may report for valid content of this kind; null = text, checked apart. */
  detected: string[] | null;
  /** Magic bytes file-type does not name precisely (Word 97-2003 is a generic CFB container). */
  magic?: Buffer;
}

const OLE_CFB = Buffer.from('d0cf11e0a1b11ae1', 'hex');

export const ALLOWED_TYPES: Record<string, AllowedType> = {
  jpg: { mime: 'image/jpeg', detected: ['jpg'] },
  jpeg: { mime: 'image/jpeg', detected: ['jpg'] },
  png: { mime: 'image/png', detected: ['png'] },
  gif: { mime: 'image/gif', detected: ['gif'] },
  pdf: { mime: 'application/pdf', detected: ['pdf'] },
  doc: { mime: 'application/msword', detected: [], magic: OLE_CFB },
  docx: { mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', detected: ['docx'] },
  txt: { mime: 'text/plain', detected: null },
  // A zip may hold anything, including the Office formats file-type names from their contents.
  zip: { mime: 'application/zip', detected: ['zip', 'docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp', 'epub', 'jar'] },
  rar: { mime: 'application/vnd.rar', detected: ['rar'] },
};

export const ALLOWED_EXTENSIONS = Object.keys(ALLOWED_TYPES);

export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot <= 0 ? '' : fileName.slice(dot + 1).toLowerCase();
}

/**
 * The name kept for Content-Disposition: the last path segment only, without control characters,
 * at most 255 characters (the extension kept).
 */
export function cleanFileName(raw: string): string {
  const lastSegment = raw.split(/[\\/]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
  let name = lastSegment.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim();
  if (name === '.' || name === '..') name = '';
  if (name.length > 255) {
    const ext = extensionOf(name);
    name = `${name.slice(0, 254 - ext.length)}.${ext}`;
  }
  return name;
}

async function startsWith(file: string, magic: Buffer): Promise<boolean> {
  const handle = await fsp.open(file, 'r');
  try {
    const head = Buffer.alloc(magic.length);
    const { bytesRead } = await handle.read(head, 0, magic.length, 0);
    return bytesRead === magic.length && head.equals(magic);
  } finally {
    await handle.close();
  }
}

async function isUtf8Text(file: string): Promise<boolean> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of fs.createReadStream(file, { highWaterMark: 64 * 1024 })) {
      const bytes = chunk as Buffer;
      if (bytes.includes(0)) return false;
      decoder.decode(bytes, { stream: true });
    }
    decoder.decode();
    return true;
  } catch {
    return false;
  }
}

/** True when the file's content is of the kind its extension claims. */
export async function contentMatchesExtension(file: string, extension: string): Promise<boolean> {
  const allowed = ALLOWED_TYPES[extension];
  if (!allowed) return false;
  if (allowed.magic) return startsWith(file, allowed.magic);
  if (allowed.detected === null) return isUtf8Text(file);
  const detected = await fileTypeFromFile(file);
  return detected !== undefined && allowed.detected.includes(detected.ext);
}
