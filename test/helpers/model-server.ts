// A stand-in for an OpenAI-compatible model server: a real HTTP server on loopback. Subclasses
// say how it answers (handle); start gives the base URL to set as LLM_BASE_URL.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export abstract class LoopbackModelServer {
  private readonly server = http.createServer((req, res) => this.handle(req, res));

  protected abstract handle(req: http.IncomingMessage, res: http.ServerResponse): void;

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
