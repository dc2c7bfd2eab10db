// The server keeps one process.nextTick queue entry alive from its first tick (src/tick-shape.ts),
// so the entries' shape survives full garbage collections and Node's nextTick stays on V8's fast
// path (docs/performance.md, "Against the starting commit"). Checked in a child process with V8's
// own map comparison after forced collections, and on the entry file's first import.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../harness/server.js';

const CHECK = `
import { executionAsyncResource } from 'node:async_hooks';
const { heldTickEntry } = await import('./src/tick-shape.ts');
await new Promise((resolve) => setImmediate(resolve));
const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)');
for (let i = 0; i < 3; i++) globalThis.gc();
process.nextTick(() => {
  const held = heldTickEntry();
  console.log(JSON.stringify({ held: held !== undefined, sameShape: held !== undefined && sameMap(held, executionAsyncResource()) }));
});
`;

describe('the nextTick entries keep their shape', () => {
  it('holds an entry whose shape new entries still have after full collections', () => {
    const out = execFileSync(
      process.execPath,
      ['--allow-natives-syntax', '--expose-gc', '--import', 'tsx', '--input-type=module', '-e', CHECK],
      { cwd: projectRoot, encoding: 'utf8' },
    );
    expect(JSON.parse(out.trim())).toEqual({ held: true, sameShape: true });
  });

  it('is the first module the server runs', () => {
    const source = fs.readFileSync(path.join(projectRoot, 'src', 'server.ts'), 'utf8');
    const firstImport = source.split('\n').find((line) => line.startsWith('import '));
    expect(firstImport).toBe("import './tick-shape.js';");
  });
});
