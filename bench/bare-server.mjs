// The client's ceiling: a bare node:http server (no framework, no database) that answers each path
// with bytes and headers recorded from the service (PUT /__reply?path=P, a JSON body
// { status, headers, body: base64 }). A path it was not told about gets the last recorded reply,
// so rotating URLs (/api/tickets/{id}) are answered too. Plain JavaScript, no loader: it runs as
// `node bench/bare-server.mjs`, pinned like the service (bench/lib/server.ts), and prints its port.
import http from 'node:http';

const replies = new Map();
let last;

const server = http.createServer((req, res) => {
  if (req.method === 'PUT' && req.url.startsWith('/__reply?')) {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const { status, headers, body } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const bytes = Buffer.from(body, 'base64');
      last = { status, headers: { ...headers, 'content-length': bytes.length }, body: bytes };
      replies.set(new URL(req.url, 'http://x').searchParams.get('path'), last);
      res.end('ok');
    });
    return;
  }
  const reply = replies.get(req.url) ?? last;
  if (!reply) {
    res.writeHead(404).end();
    return;
  }
  // Drain a request body (POST/PUT cases) before answering, as the service does.
  if (req.headers['content-length'] || req.headers['transfer-encoding']) {
    req.resume();
    req.on('end', () => res.writeHead(reply.status, reply.headers).end(reply.body));
    return;
  }
  res.writeHead(reply.status, reply.headers).end(reply.body);
});

server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
