// A DOCX is a zip. Before the Word reader inflates anything, the zip's central directory is read
// (it states every part's compressed and inflated size) and a file that would inflate beyond the
// limits is refused: a zip bomb costs a directory walk, not its inflated size. The XML parts the
// Word reader inflates are then inflated here with their stated size as a hard ceiling
// (maxOutputLength), so a zip that lies about its sizes is refused at the first byte beyond it:
// buffers live outside the worker's heap limit, so that limit alone would not bound them.
import zlib from 'node:zlib';
import { EXTRACTION_LIMITS, UnreadableDocument } from './limits.js';

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** The end record is 22 bytes plus a comment of up to 65,535. */
const END_SEARCH = 22 + 65_535;
const MAX_ENTRIES = 10_000;

export function checkZip(bytes: Uint8Array): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 22 || view.getUint32(0, true) !== LOCAL_HEADER) throw new UnreadableDocument('not_docx');
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - END_SEARCH); at--) {
    if (view.getUint32(at, true) === END_OF_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new UnreadableDocument('malformed');
  const entries = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  if (entries > MAX_ENTRIES) throw new UnreadableDocument('zip_bomb');
  let inflated = 0;
  for (let i = 0; i < entries; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== DIRECTORY_ENTRY)
      throw new UnreadableDocument('malformed');
    const compressed = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    // 0xffffffff: the real sizes are in a zip64 field; no Word document needs 4 GiB.
    if (compressed === 0xffffffff || size === 0xffffffff) throw new UnreadableDocument('zip_bomb');
    inflated += size;
    const name = Buffer.from(bytes.subarray(at + 46, at + 46 + view.getUint16(at + 28, true))).toString('utf8');
    if (/\.(xml|rels)$/i.test(name))
      checkInflatedSize(bytes, view, view.getUint32(at + 42, true), compressed, size, view.getUint16(at + 10, true));
    if (inflated > EXTRACTION_LIMITS.maxInflatedBytes) throw new UnreadableDocument('zip_bomb');
    if (size > 1_048_576 && size > Math.max(1, compressed) * EXTRACTION_LIMITS.maxInflateRatio)
      throw new UnreadableDocument('zip_bomb');
    at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
}

/** Inflates one part with its stated size as the ceiling: more output means the zip lies. */
function checkInflatedSize(
  bytes: Uint8Array,
  view: DataView,
  local: number,
  compressed: number,
  size: number,
  method: number,
): void {
  if (local + 30 > bytes.length || view.getUint32(local, true) !== LOCAL_HEADER)
    throw new UnreadableDocument('malformed');
  const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
  if (start + compressed > bytes.length) throw new UnreadableDocument('malformed');
  if (method === 0) return;
  if (method !== 8) throw new UnreadableDocument('malformed');
  try {
    zlib.inflateRawSync(bytes.subarray(start, start + compressed), { maxOutputLength: Math.max(1, size) });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new UnreadableDocument('zip_bomb');
    throw new UnreadableDocument('malformed');
  }
}
