#!/bin/bash
# The cost of one process.nextTick inside the service once it answers (bench/lib/next-tick-probe.cjs,
# three measurements, the lowest printed), started as the geo benchmark starts it. Every request
# runs several ticks in Node's own HTTP code, so a process whose ticks cost more answers slower.
# usage: bench/next-tick-cost.sh <checkout with dist/ built> <port>
#   e.g. node scripts/build.mjs && bench/next-tick-cost.sh . 41302
set -e
D=$(cd "$1" && pwd); PORT=$2; T=$(mktemp -d)
HERE=$(cd "$(dirname "$0")" && pwd)
trap 'kill $SPID 2>/dev/null; rm -rf "$T"' EXIT
cd "$D"
FLAGS=$(node -e 'const s = require("./package.json").scripts.start; console.log(s.split(/\s+/).filter((w) => w.startsWith("--")).join(" "))')
env -i PATH="$PATH" HOME="$HOME" HOST=127.0.0.1 PORT="$PORT" DATA_DIR="$T" DATABASE_URL= NODE_ENV=production \
  LOG_LEVEL= RATE_LIMIT_PER_MINUTE= node -r "$HERE/lib/next-tick-probe.cjs" $FLAGS dist/server.js >/dev/null 2>"$T/err" & SPID=$!
for i in $(seq 1 240); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/api/provinces" && break; sleep 0.5; done
sleep 2
for i in 1 2 3; do kill -USR2 $SPID; sleep 1.5; done
grep -o '^[0-9]* ns per nextTick' "$T/err" | sort -n | head -1
