// Upload files for the fault tests. (The server process, the users and waitFor come from
// harness/; the multipart body from test/helpers/multipart.ts.)
import { randomBytes } from 'node:crypto';
import type { FilePart } from '../helpers/multipart.js';
import { PDF, PNG } from '../tickets/helpers.js';

/** Small valid files of three types, each with its own bytes (so a mix-up would show). */
export function uniqueFiles(tag: string): FilePart[] {
  const nonce = randomBytes(12).toString('hex');
  return [
    // Bytes after IEND are ignored by readers and keep the file a valid PNG.
    { name: `shot-${tag}.png`, content: Buffer.concat([PNG, Buffer.from(`${tag}:${nonce}`)]) },
    { name: `doc-${tag}.pdf`, content: Buffer.concat([PDF, Buffer.from(`% ${tag} ${nonce}\n`)]) },
    { name: `note-${tag}.txt`, content: Buffer.from(`note ${tag}\n${nonce}\n${'x'.repeat(200)}\n`) },
  ];
}
