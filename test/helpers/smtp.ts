// A real SMTP server on loopback that keeps every message it receives, raw.
import { SMTPServer } from 'smtp-server';

export interface LoopbackSmtp {
  port: number;
  /** Every message received so far, raw (headers and body). */
  received: string[];
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 at the given port (0: any free port). */
export async function startSmtp(port = 0): Promise<LoopbackSmtp> {
  const received: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (raw += chunk));
      stream.on('end', () => {
        received.push(raw);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return {
    port: (server.server.address() as { port: number }).port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
