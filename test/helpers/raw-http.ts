// A bare HTTP/1.1 client over a TCP socket, for what fetch and inject cannot do: any bytes in the
// request line and headers, a body written whole before the answer is read (or slowly, or cut off
// half way), several requests pipelined on one connection. Answers are parsed by hand.
import net from 'node:net';

export interface RawAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

export interface RawRequest {
  method: string;
  /** Sent as is on the request line. */
  url: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/** The bytes of one request; Content-Length is added for a body unless a header says otherwise. */
export function requestBytes(request: RawRequest, host = '127.0.0.1'): Buffer {
  const body =
    request.body === undefined ? undefined : Buffer.isBuffer(request.body) ? request.body : Buffer.from(request.body);
  const headers: Record<string, string> = { host, ...request.headers };
  const names = Object.keys(headers).map((n) => n.toLowerCase());
  if (body && !names.includes('content-length') && !names.includes('transfer-encoding'))
    headers['content-length'] = String(body.length);
  const head = `${request.method} ${request.url} HTTP/1.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n')}\r\n\r\n`;
  return body ? Buffer.concat([Buffer.from(head, 'utf8'), body]) : Buffer.from(head, 'utf8');
}

/** Parses as many complete answers as `data` holds (HEAD answers and 1xx/204/304 carry no body). */
export function parseAnswers(data: Buffer, methods: string[]): { answers: RawAnswer[]; rest: Buffer } {
  const answers: RawAnswer[] = [];
  let offset = 0;
  for (;;) {
    const end = data.indexOf('\r\n\r\n', offset);
    if (end < 0) break;
    const lines = data.subarray(offset, end).toString('latin1').split('\r\n');
    const statusCode = Number(lines[0]!.split(' ')[1]);
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      headers[name] =
        headers[name] === undefined
          ? line.slice(colon + 1).trim()
          : `${headers[name]}, ${line.slice(colon + 1).trim()}`;
    }
    let start = end + 4;
    const bodiless = methods[answers.length] === 'HEAD' || statusCode === 204 || statusCode === 304 || statusCode < 200;
    let body: Buffer = Buffer.alloc(0);
    if (!bodiless && headers['transfer-encoding']?.includes('chunked')) {
      const chunks: Buffer[] = [];
      let at = start;
      let done = false;
      for (;;) {
        const lineEnd = data.indexOf('\r\n', at);
        if (lineEnd < 0) break;
        const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
        if (size === 0) {
          const trailerEnd = data.indexOf('\r\n', lineEnd + 2);
          if (trailerEnd < 0) break;
          at = trailerEnd + 2;
          done = true;
          break;
        }
        if (data.length < lineEnd + 2 + size + 2) break;
        chunks.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
      }
      if (!done) break;
      body = Buffer.concat(chunks);
      start = at;
    } else if (!bodiless) {
      const length = Number(headers['content-length'] ?? 0);
      if (data.length < start + length) break;
      body = data.subarray(start, start + length);
      start += length;
    }
    answers.push({ statusCode, headers, body: body.toString('utf8') });
    offset = start;
  }
  return { answers, rest: data.subarray(offset) };
}

export interface ExchangeOptions {
  /** Body bytes per write, with `pauseMs` between writes (a slow client); default all at once. */
  chunkSize?: number;
  pauseMs?: number;
  /** Stop writing after this many bytes and close the connection (a client that gives up). */
  stopAfter?: number;
  timeoutMs?: number;
  /** Read nothing until every byte is written (an ordinary client sending its whole body first). */
  writeFirst?: boolean;
}

export interface ExchangeResult {
  answers: RawAnswer[];
  /** A socket error seen while writing or reading (ECONNRESET, EPIPE), if any. */
  error?: string;
  /** Whether the server closed the connection. */
  closedByServer: boolean;
  timedOut: boolean;
  ms: number;
}

/**
 * Writes the requests on one connection (all of them before reading anything: pipelined) and
 * collects the answers until as many arrived as requests were sent, the server closes, or the
 * time runs out.
 */
export function exchange(port: number, requests: RawRequest[], options: ExchangeOptions = {}): Promise<ExchangeResult> {
  const started = Date.now();
  const bytes = Buffer.concat(requests.map((r) => requestBytes(r)));
  const methods = requests.map((r) => r.method);
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received: Buffer = Buffer.alloc(0);
    let error: string | undefined;
    let closedByServer = false;
    let settled = false;
    const finish = (timedOut: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({
        answers: parseAnswers(received, methods).answers,
        error,
        closedByServer,
        timedOut,
        ms: Date.now() - started,
      });
    };
    const timer = setTimeout(() => finish(true), options.timeoutMs ?? 15_000);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (options.stopAfter === undefined && parseAnswers(received, methods).answers.length >= requests.length)
        finish(false);
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
    });
    socket.on('end', () => (closedByServer = true));
    socket.on('close', () => finish(false));
    if (options.writeFirst) socket.pause();
    socket.once('connect', async () => {
      const limit = options.stopAfter ?? bytes.length;
      const size = options.chunkSize ?? limit;
      for (let at = 0; at < limit && !socket.destroyed; at += size) {
        const piece = bytes.subarray(at, Math.min(limit, at + size));
        if (!socket.write(piece)) await new Promise((r) => socket.once('drain', r).once('close', r));
        if (options.pauseMs) await new Promise((r) => setTimeout(r, options.pauseMs));
      }
      if (options.stopAfter !== undefined) finish(false);
      else if (options.writeFirst && !socket.destroyed) socket.write('', () => socket.resume());
    });
  });
}
