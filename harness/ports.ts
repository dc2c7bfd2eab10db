// A free TCP port on loopback, found by probing: the operating system hands out a port that
// nothing is bound to (listen on port 0), and it is released at once for the caller to use. A
// port is never handed out twice by one process, so servers started side by side do not race for
// one. Between the release and the caller's bind another program may still take it: the server
// launcher (server.ts) then starts again on another port.
import net from 'node:net';

const handedOut = new Set<number>();

/**
 * PORT_RANGE=first-last: the ports are taken from that range only (a machine shared with other
 * work), each probed in turn from a random place in it; unset, the operating system chooses.
 */
const range = /^(\d+)-(\d+)$/.exec(process.env.PORT_RANGE ?? '');

function probe(): Promise<number> {
  if (range) return probeRange(Number(range[1]), Number(range[2]));
  return bind(0);
}

async function probeRange(first: number, last: number): Promise<number> {
  const size = last - first + 1;
  const offset = Math.floor(Math.random() * size);
  for (let i = 0; i < size; i += 1) {
    const port = first + ((offset + i) % size);
    if (handedOut.has(port)) continue;
    try {
      return await bind(port);
    } catch {
      // Taken: the next one.
    }
  }
  throw new Error(`no free port left in PORT_RANGE ${first}-${last}`);
}

function bind(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A port on 127.0.0.1 that was free a moment ago and that this process has not handed out before. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await probe();
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    return port;
  }
}
