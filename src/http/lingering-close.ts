// Lingering close, as nginx does: when the service answers before it has read the whole request
// body (413 over BODY_LIMIT_BYTES, a refused upload) it closes the connection after the answer.
// Closing a socket whose client is still sending makes the kernel reset it, and the client gets
// ECONNRESET/EPIPE instead of the answer. So the closing socket first sends its FIN after the
// answer and keeps reading and discarding what still arrives, until the client closes its side,
// LINGER_MS pass or LINGER_FACTOR × the body limit more bytes arrive; then it is destroyed.
import net from 'node:net';
import type { FastifyInstance } from 'fastify';

const LINGER_MS = 5_000;
const LINGER_FACTOR = 4;

function linger(socket: net.Socket, maxBytes: number): void {
  // The HTTP parser must not read requests that follow the refused body: this connection is over.
  socket.removeAllListeners('data');
  let discarded = 0;
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > maxBytes) socket.destroy();
  });
  socket.once('end', () => socket.destroy());
  socket.once('close', () => clearTimeout(timer));
  socket.end();
  socket.resume();
}

export function registerLingeringClose(app: FastifyInstance, bodyLimit: number): void {
  // A callback hook: an answer to a fully read request (nearly all) passes without a promise and
  // a microtask.
  app.addHook('onSend', (req, _reply, payload, done) => {
    const socket = req.raw.socket as (net.Socket & { destroySoon?: () => void }) | null;
    if (req.raw.complete || !(socket instanceof net.Socket) || typeof socket.destroySoon !== 'function')
      return done(null, payload);
    // Node closes a connection with destroySoon() once the answer is written (Connection: close).
    socket.destroySoon = () => linger(socket, LINGER_FACTOR * bodyLimit);
    done(null, payload);
  });
}
