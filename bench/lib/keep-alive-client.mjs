// node bench/lib/keep-alive-client.mjs URL N CONNECTIONS: N GET requests over keep-alive
// connections, one at a time on each; prints the count, the answers other than 200 and the seconds.
import http from 'node:http';

const [url, total, connections] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4] ?? 4)];
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
let sent = 0;
let done = 0;
let other = 0;
const one = () =>
  new Promise((resolve) => {
    http
      .get(url, { agent }, (res) => {
        if (res.statusCode !== 200) other++;
        res.resume();
        res.on('end', resolve);
      })
      .on('error', () => {
        other++;
        resolve();
      });
  });
const started = performance.now();
await Promise.all(
  Array.from({ length: connections }, async () => {
    while (sent < total) {
      sent++;
      await one();
      done++;
    }
  }),
);
agent.destroy();
console.log(JSON.stringify({ done, other, seconds: Number(((performance.now() - started) / 1000).toFixed(2)) }));
