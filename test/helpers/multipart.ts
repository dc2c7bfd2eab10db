// The one multipart/form-data builder of the tests, written by hand so that edge cases are exact:
// fields first, then files, each file under its own field name (attachments[] unless told) with
// its content type (application/octet-stream unless told). The body goes to app.inject as
// `payload`, to fetch as `body`, or byte by byte over a raw socket; `headers` carries the
// content type with the boundary.
import { randomBytes } from 'node:crypto';

export interface FilePart {
  /** The form field (default attachments[]). */
  field?: string;
  /** The file name sent in Content-Disposition. */
  name: string;
  content: Buffer;
  type?: string;
}

export interface MultipartBody {
  payload: Buffer;
  headers: { 'content-type': string };
  boundary: string;
}

/** A multipart body of the fields (in order) and the files; a random boundary unless one is given. */
export function multipart(
  fields: Array<[string, string]>,
  files: FilePart[] = [],
  boundary = `----test${randomBytes(8).toString('hex')}`,
): MultipartBody {
  const chunks: Buffer[] = [];
  for (const [name, value] of fields) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'attachments[]'}"; filename="${file.name}"\r\n` +
          `Content-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    boundary,
  };
}

/** Whether a value is a body multipart() built (a request helper taking JSON or multipart tells them apart). */
export function isMultipart(body: unknown): body is MultipartBody {
  return (
    typeof body === 'object' && body !== null && Buffer.isBuffer((body as MultipartBody).payload) && 'boundary' in body
  );
}
