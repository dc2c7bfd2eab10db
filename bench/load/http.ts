// The load generator's HTTP client: node:http over one keep-alive agent, JSON bodies, the answer
// read whole. (Its own bounded loop, not wrk: the mix needs ids from earlier answers.)
import http from 'node:http';

export const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });

export interface Answer {
  status: number;
  body: string;
}

export function request(
  base: string,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = http.request(
      `${base}${url}`,
      {
        method,
        agent,
        headers: {
          ...headers,
          ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error('timeout after 30 s')));
    req.on('error', reject);
    req.end(payload);
  });
}
