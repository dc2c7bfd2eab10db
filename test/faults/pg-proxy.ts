// A TCP proxy between the service and PostgreSQL for faults no real outage produces on cue.
import net from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL that, once armed, lets the next COMMIT through to the server
 * and then cuts the connection before the answer comes back: the transaction is committed, but the
 * server process only sees a lost connection.
 */
export class CommitCutter {
  armed = false;
  cuts = 0;
  private readonly sockets = new Set<net.Socket>();
  private readonly server = net.createServer((client) => {
    const upstream = net.connect(this.pgPort, this.pgHost);
    let blocked = false;
    for (const s of [client, upstream]) {
      this.sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      if (this.armed && chunk.includes(Buffer.from('commit\0'))) {
        this.armed = false;
        this.cuts++;
        blocked = true;
        // Long enough for PostgreSQL to commit; the answer is never delivered.
        setTimeout(() => client.destroy(), 300);
      }
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!blocked) client.write(chunk);
    });
  });

  constructor(
    private readonly pgHost: string,
    private readonly pgPort: number,
  ) {}

  async start(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as net.AddressInfo).port;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
