// Preloaded into the server by bench/next-tick-cost.sh (node -r): on SIGUSR2, times 300 batches of
// 1,000 process.nextTick calls (each batch queued from setImmediate) and writes the mean time per
// call to stderr. Node's own nextTick, so its cost says how the process's state treats it.
function measure() {
  const started = process.hrtime.bigint();
  const noop = () => {};
  let batches = 0;
  const batch = () => {
    for (let i = 0; i < 1000; i++) process.nextTick(noop);
    if (++batches < 300) setImmediate(batch);
    else
      setImmediate(() =>
        process.stderr.write(`${(Number(process.hrtime.bigint() - started) / 300_000).toFixed(0)} ns per nextTick\n`),
      );
  };
  batch();
}
process.on('SIGUSR2', measure);
