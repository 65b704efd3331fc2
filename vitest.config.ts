import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    // Three test files at a time (vitest's default is one less than the cores: one, on the 2-core CI machine). Most
    // of a file's time is spent waiting (fsync, PostgreSQL, a browser, child processes), so three side by side take
    // about half the wall time of one after another; TEST_WORKERS=1 runs them one by one.
    poolOptions: { forks: { maxForks: Number(process.env.TEST_WORKERS ?? 3), minForks: 1 } },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
