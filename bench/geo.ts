// npm run bench -- geo [--duration S] [--connections N] [--rounds R]
// GET /api/provinces and a section children call against the app, side by side with a bare
// node:http server that answers the same bytes with the same headers. The servers run in a child
// process so autocannon does not share their event loop. Target: app >= 80 % of bare req/s.
import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { load, report, startBenchServer, type LoadResult } from './lib.js';

const CASES = [
  { name: 'provinces', path: '/api/provinces' },
  { name: 'section children', path: '/api/geographic/section/785/children' },
];
// Headers that differ per response or that node:http sets itself.
const SKIPPED_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/** Child: the app (bundled data loaded) and a bare server replaying its responses. */
async function serve(): Promise<void> {
  const server = await startBenchServer({}, { loadGeoData: true });
  const replies = new Map<string, { headers: Record<string, string>; body: Buffer }>();
  for (const c of CASES) {
    const res = await fetch(server.url + c.path);
    const headers: Record<string, string> = {};
    res.headers.forEach((value, key) => {
      if (!SKIPPED_HEADERS.has(key)) headers[key] = value;
    });
    replies.set(c.path, { headers, body: Buffer.from(await res.arrayBuffer()) });
  }
  const bare = http.createServer((req, res) => {
    if (req.url === '/__cpu') {
      // The servers' process CPU time, so the parent can compute CPU per request (less noisy than req/s).
      const { user, system } = process.cpuUsage();
      res.end(String(user + system));
      return;
    }
    const reply = replies.get(req.url ?? '');
    if (!reply) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { ...reply.headers, 'content-length': reply.body.length });
    res.end(reply.body);
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const address = bare.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ app: server.url, bare: `http://127.0.0.1:${port}` })}\n`);
  process.on('SIGTERM', () => {
    bare.close();
    void server.close().then(() => process.exit(0));
  });
}

async function cpuMicros(bareUrl: string): Promise<number> {
  return Number(await (await fetch(`${bareUrl}/__cpu`)).text());
}

function option(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? Number(args[i + 1]) : fallback;
}

export default async function geoBenchmark(args: string[]): Promise<void> {
  if (args.includes('--serve')) {
    await serve();
    await new Promise(() => {});
  }
  const duration = option(args, 'duration', 10);
  const connections = option(args, 'connections', 32);
  const rounds = option(args, 'rounds', 3);
  const runner = path.join(path.dirname(fileURLToPath(import.meta.url)), 'run.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', runner, 'geo', '--serve'], { stdio: ['ignore', 'pipe', 'inherit'], env: process.env });
  try {
    const first = await new Promise<string>((resolve, reject) => {
      readline.createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    });
    const urls = JSON.parse(first) as { app: string; bare: string };
    const results: LoadResult[] = [];
    const summary: string[] = [];
    for (const c of CASES) {
      // Warm both up (JIT) before measuring.
      await load('warm-up', { url: urls.app + c.path, duration: 2, connections }, 0);
      await load('warm-up', { url: urls.bare + c.path, duration: 2, connections }, 0);
      // Alternating rounds, so a burst of load from elsewhere on the machine hits both sides.
      const ratios: number[] = [];
      const cpu = { app: 0, bare: 0, appRequests: 0, bareRequests: 0 };
      for (let round = 1; round <= rounds; round += 1) {
        const pair: LoadResult[] = [];
        for (const side of round % 2 ? ['app', 'bare'] : ['bare', 'app']) {
          const before = await cpuMicros(urls.bare);
          const result = await load(`${side} ${c.name} #${round}`, { url: urls[side as 'app' | 'bare'] + c.path, duration, connections }, 0);
          const used = (await cpuMicros(urls.bare)) - before;
          if (side === 'app') (cpu.app += used), (cpu.appRequests += result.requestsPerSecond * duration);
          else (cpu.bare += used), (cpu.bareRequests += result.requestsPerSecond * duration);
          pair.push(result);
        }
        const [app, bare] = pair[0]!.name.startsWith('app') ? pair : [pair[1]!, pair[0]!];
        results.push(app!, bare!);
        ratios.push(app!.requestsPerSecond / bare!.requestsPerSecond);
      }
      const median = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!;
      const appCpu = cpu.app / cpu.appRequests;
      const bareCpu = cpu.bare / cpu.bareRequests;
      summary.push(
        `${c.name}: app at ${(100 * median).toFixed(1)} % of bare req/s (median of ${rounds} rounds; target 80 %); ` +
          `server CPU per request app ${appCpu.toFixed(1)} µs, bare ${bareCpu.toFixed(1)} µs (bare/app ${((100 * bareCpu) / appCpu).toFixed(1)} %)`,
      );
    }
    report(results);
    process.stdout.write(`${summary.join('\n')}\n`);
  } finally {
    child.kill('SIGTERM');
  }
}
