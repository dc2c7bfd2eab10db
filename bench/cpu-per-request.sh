#!/bin/bash
# CPU time per request of the service vs the bare node:http server, read with `perf stat -e
# task-clock -p PID` over a wrk run (CPU time is far steadier than req/s on a shared machine; this
# VM has no hardware counters, so `-e instructions` is not available). Issue 12.
# usage: bench/cpu-per-request.sh <checkout with dist/ built> <label> <port>
#   e.g. node scripts/build.mjs && bench/cpu-per-request.sh . now 41201
# Service: node dist/server.js, NODE_ENV=production, LOG_LEVEL=info (output discarded), default
# rate limit. Ceiling: bench/bare-server.mjs replaying the service's bytes and headers. Per path:
# service, bare, service, bare (2 s warm-up each, 4 s measured). Prints µs of CPU per request.
set -e
D=$(cd "$1" && pwd); L=$2; PORT=$3; T=$(mktemp -d)
trap 'kill $SPID $BPID 2>/dev/null; rm -rf "$T"' EXIT
cd "$D"
NODE_ENV=production HOST=127.0.0.1 PORT=$PORT DATA_DIR=$T LOG_LEVEL=info node dist/server.js >/dev/null 2>&1 & SPID=$!
for i in $(seq 1 120); do curl -sf "http://127.0.0.1:$PORT/api/provinces" >/dev/null && break; sleep 0.5; done
node bench/bare-server.mjs > "$T/bport" & BPID=$!
sleep 0.5; BP=$(head -1 "$T/bport")
for path in /api/provinces /api/geographic/continents /api/geographic/section/785/children; do
  curl -s -D "$T/head" -o "$T/body" "http://127.0.0.1:$PORT$path"
  node -e '
    const fs = require("fs"); const [head, body] = process.argv.slice(1); const headers = {};
    for (const line of fs.readFileSync(head, "utf8").split("\r\n").slice(1)) {
      const i = line.indexOf(":"); if (i < 1) continue; const k = line.slice(0, i).toLowerCase();
      if (!["date", "connection", "keep-alive", "content-length", "transfer-encoding"].includes(k)) headers[k] = line.slice(i + 1).trim();
    }
    process.stdout.write(JSON.stringify({ status: 200, headers, body: fs.readFileSync(body).toString("base64") }));' "$T/head" "$T/body" |
    curl -s -X PUT --data-binary @- "http://127.0.0.1:$BP/__reply?path=$path" >/dev/null
  for side in service bare service bare; do
    if [ $side = service ]; then pid=$SPID; url=http://127.0.0.1:$PORT; else pid=$BPID; url=http://127.0.0.1:$BP; fi
    wrk -t1 -c32 -d2s "$url$path" >/dev/null
    perf stat -x, -e task-clock -p $pid -o "$T/perf" & PF=$!
    sleep 0.2
    n=$(wrk -t1 -c32 -d4s "$url$path" | awk '/requests in/{print $1}')
    kill -INT $PF; wait $PF || true
    ms=$(grep task-clock "$T/perf" | cut -d, -f1)
    echo "$L $path $side requests=$n cpu_us_per_request=$(echo "scale=1; $ms*1000/$n" | bc)"
  done
done
