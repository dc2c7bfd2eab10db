import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Builds dist/ once when stale: the CLI and the servers the tests start from the build use it.
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Each file builds its own app on its own database, so files run in parallel safely.
    fileParallelism: true,
    reporters: ['default'],
  },
});
