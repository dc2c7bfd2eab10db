#!/bin/bash
# Instructions per request of the service, counted by valgrind's callgrind: a count that does not
# depend on how busy the machine is (this VM has no hardware counters for `perf stat -e
# instructions`). The server runs as the geo benchmark runs it (node dist/server.js with npm
# start's node flags, NODE_ENV=production, default log level with its output discarded, default
# rate limit, a fresh SQLite DATA_DIR). Once it answers: 20 s for the work after listening, a
# warm-up of 2,000 requests per path, then the counters zeroed and dumped around 10 s with no
# request (idle1), N requests per path over keep-alive (4 connections), and 10 s idle again
# (idle2). Prints Ir per window and per request. With KEEP_DUMPS=1 the dumps stay in the folder
# it names, for `callgrind_annotate --threshold=100 <dump>` (instructions by function).
# usage: bench/instructions-per-request.sh <checkout with dist/ built> <port> [N, default 5000]
#   e.g. node scripts/build.mjs && bench/instructions-per-request.sh . 41301
# A checkout whose app.ts leaves Fastify's plugin timeout at its 10 s default cannot start under
# callgrind (the onReady hooks take longer there): give its Fastify options pluginTimeout: 300_000.
set -e
D=$(cd "$1" && pwd); PORT=$2; N=${3:-5000}; T=$(mktemp -d)
HERE=$(cd "$(dirname "$0")" && pwd)
trap 'kill $VPID 2>/dev/null; if [ "$KEEP_DUMPS" = 1 ]; then echo "dumps: $T"; else rm -rf "$T"; fi' EXIT
cd "$D"
FLAGS=$(node -e 'const s = require("./package.json").scripts.start; console.log(s.split(/\s+/).filter((w) => w.startsWith("--")).join(" "))')
# valgrind names its control pipes after $USER and $HOST: both fixed, for callgrind_control below.
export USER=bench HOST=127.0.0.1
env -i PATH="$PATH" HOME="$HOME" USER=bench HOST=127.0.0.1 PORT="$PORT" DATA_DIR="$T" DATABASE_URL= \
  NODE_ENV=production LOG_LEVEL= RATE_LIMIT_PER_MINUTE= \
  valgrind --tool=callgrind --callgrind-out-file="$T/cg.%p" --dump-instr=no --collect-jumps=no \
  node $FLAGS dist/server.js >/dev/null 2>"$T/valgrind.log" & VPID=$!
until curl -sf -o /dev/null "http://127.0.0.1:$PORT/api/provinces"; do
  kill -0 $VPID 2>/dev/null || { tail -5 "$T/valgrind.log"; exit 1; }
  sleep 2
done
sleep 20
set +e
PATHS="/api/provinces /api/geographic/continents /api/geographic/section/785/children"
for p in $PATHS; do node "$HERE/lib/keep-alive-client.mjs" "http://127.0.0.1:$PORT$p" 2000 4 >/dev/null; done
callgrind_control -z $VPID >/dev/null; sleep 10; callgrind_control -d idle1 $VPID >/dev/null
for p in $PATHS; do
  callgrind_control -z $VPID >/dev/null
  node "$HERE/lib/keep-alive-client.mjs" "http://127.0.0.1:$PORT$p" "$N" 4 >&2
  callgrind_control -d "req $p" $VPID >/dev/null
done
callgrind_control -z $VPID >/dev/null; sleep 10; callgrind_control -d idle2 $VPID >/dev/null
for f in "$T"/cg.*.*; do
  what=$(sed -n 's/^desc: Trigger: dump //p' "$f"); ir=$(sed -n 's/^summary: //p' "$f")
  case $what in
    req*) echo "$what: $ir Ir, $((ir / N)) Ir per request" ;;
    *) echo "$what (10 s, no request): $ir Ir" ;;
  esac
done
