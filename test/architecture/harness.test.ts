// Which top-level folder may import which, checked on every import of the tree (static, dynamic,
// type-only): src/ is the service and imports none of the others (the build ships src/ alone);
// harness/ is what tests, benchmarks and the evaluation share and imports only src/; bench/ and
// eval/ import src/ and harness/, never test/; test/ may import them all (and scripts/). Also:
// test/README.md names every folder of test/.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesUnder } from '../../harness/files.js';

const root = path.resolve(import.meta.dirname, '../..');

const ALLOWED: Record<string, string[]> = {
  src: ['src'],
  harness: ['harness', 'src'],
  bench: ['bench', 'harness', 'src'],
  eval: ['eval', 'harness', 'src'],
  test: ['test', 'harness', 'bench', 'eval', 'scripts', 'src'],
};

const codeFilesUnder = (dir: string) => filesUnder(dir, { keep: (name) => /\.(ts|mjs|js)$/.test(name) });

/** Relative module specifiers of a file: `from '…'`, `import '…'`, `import('…')`, `export … from '…'`. */
function relativeImports(text: string): string[] {
  const found = text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g);
  return [...found].map((m) => m[1]!);
}

/** "from → to" for every import that leaves the folders its own folder may use. */
function violations(): string[] {
  const out: string[] = [];
  for (const [folder, allowed] of Object.entries(ALLOWED)) {
    for (const file of codeFilesUnder(path.join(root, folder))) {
      // This file's own examples of import forms are text, not imports.
      if (file === import.meta.filename) continue;
      for (const specifier of relativeImports(fs.readFileSync(file, 'utf8'))) {
        const target = path.relative(root, path.resolve(path.dirname(file), specifier));
        const top = target.split(path.sep)[0]!;
        if (!allowed.includes(top)) out.push(`${path.relative(root, file)} -> ${target}`);
      }
    }
  }
  return out;
}

describe('folders and what they may import', () => {
  it('reads imports of every form', () => {
    const text = [
      "import { a } from '../x.js';",
      "import type { B } from '../../y.js';",
      "export { c } from './z.js';",
      "await import('../w.js');",
      "import './side.js';",
      "import fs from 'node:fs';",
    ].join('\n');
    expect(relativeImports(text)).toEqual(['../x.js', '../../y.js', './z.js', '../w.js', './side.js']);
  });

  it('finds the imports of the shared harness in tests and benchmarks', () => {
    const users = Object.keys(ALLOWED).flatMap((folder) =>
      codeFilesUnder(path.join(root, folder)).filter((file) =>
        relativeImports(fs.readFileSync(file, 'utf8')).some((s) => s.includes('harness/')),
      ),
    );
    expect(users.some((f) => f.includes(`${path.sep}test${path.sep}`))).toBe(true);
    expect(users.some((f) => f.includes(`${path.sep}bench${path.sep}`))).toBe(true);
  });

  it('keeps src/ free of the other folders, and bench/, eval/ and harness/ free of test/', () => {
    expect(violations()).toEqual([]);
  });
});

/** The folders test/README.md's table of areas names ("| `name/` |"). */
function foldersNamed(readme: string): string[] {
  return [...readme.matchAll(/^\| `([a-z-]+)\/` \|/gm)].map((m) => m[1]!);
}

describe('test/README.md names every folder of test/', () => {
  const readme = fs.readFileSync(path.join(root, 'test', 'README.md'), 'utf8');

  it('holds on test/', () => {
    const folders = fs
      .readdirSync(path.join(root, 'test'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    const named = foldersNamed(readme);
    expect(folders.filter((folder) => !named.includes(folder))).toEqual([]);
  });

  it('reads the names of the table and nothing else', () => {
    const example = ['| Folder | What it proves |', '| `kb/` | The knowledge base. |', 'A line naming `mail/`.'];
    expect(foldersNamed(example.join('\n'))).toEqual(['kb']);
  });
});
