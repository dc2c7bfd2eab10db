// Infrastructure is plugins: every file in src/plugins/ is a named fastify-plugin, so start and
// shutdown order follow from declared dependencies (docs/architecture.md). The other house rules
// (file size, SQL, edge imports, the template, cycles, one service style) are in rules.test.ts;
// the users boundary is test/users/boundary.test.ts.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSources } from './rules.js';

const files = readSources(path.resolve(import.meta.dirname, '../../src'));

describe('source layout', () => {
  it('finds the source files', () => {
    expect(files.length).toBeGreaterThan(50);
  });

  it('registers infrastructure as named plugins with their dependencies', () => {
    const plugins = files.filter((f) => f.name.startsWith('plugins/'));
    expect(plugins.length).toBeGreaterThanOrEqual(6);
    for (const plugin of plugins) expect(plugin.text, plugin.name).toMatch(/\{ name: '[a-z-]+'/);
  });
});
