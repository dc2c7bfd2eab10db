// The house rules docs/architecture.md states, checked on the source tree so they stay true: no
// file in src/ over 300 lines; SQL only in repositories (never in a route or a service);
// infrastructure plugins named with their dependencies. (The users boundary: test/users/boundary.test.ts.)
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../src');

function sourceFiles(dir = root): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

const files = sourceFiles().map((file) => ({ name: path.relative(root, file), text: fs.readFileSync(file, 'utf8') }));
const QUERY_BUILDER = /\.(selectFrom|updateTable|insertInto|deleteFrom)\(/;

describe('source layout', () => {
  it('finds the source files', () => {
    expect(files.length).toBeGreaterThan(50);
  });

  it('keeps every file in src/ at 300 lines or fewer', () => {
    const long = files
      .filter((f) => f.text.split('\n').length - 1 > 300)
      .map((f) => `${f.name}: ${f.text.split('\n').length - 1} lines`);
    expect(long).toEqual([]);
  });

  it('keeps SQL out of routes and services', () => {
    const leaking = files
      .filter((f) => /(^|\/)(routes|[a-z-]+-routes|service)\.ts$/.test(f.name) && QUERY_BUILDER.test(f.text))
      .map((f) => f.name);
    expect(leaking).toEqual([]);
  });

  it('registers infrastructure as named plugins with their dependencies', () => {
    const plugins = files.filter((f) => f.name.startsWith('plugins/'));
    expect(plugins.length).toBeGreaterThanOrEqual(6);
    for (const plugin of plugins) expect(plugin.text, plugin.name).toMatch(/\{ name: '[a-z-]+'/);
  });
});
