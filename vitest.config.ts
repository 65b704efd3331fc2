import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first (seconds in a fresh-clone CI run of 2026-11-29, three at a time on two
 * cores): they start first, so the three workers finish together instead of one running the route walk alone while
 * the others sit idle (the run before ended with `security.test.ts`, 423 s, by itself for its last seven minutes).
 * The rest follow in vitest's own order (its results cache when there is one, else the larger files first). A name
 * here that no longer exists changes nothing.
 */
const SLOW_FIRST = [
  'test/domain/audit-log.test.ts', // 516
  'test/web/admin/security.test.ts', // 423
  'test/cli/management.test.ts', // 343
  'test/cli/doctor.test.ts', // 282
  'test/web/hosted-form.test.ts', // 221
  'test/http/idempotency.test.ts', // 201
  'test/web/admin/screens.test.ts', // 200
  'test/web/admin/people-email.test.ts', // 188
  'test/web/admin/quotes-builder.test.ts', // 166
  'test/domain/intake-quarantine.test.ts', // 160
  'test/web/admin/quotes-price-list.test.ts', // 145
  'test/browser/embedded-form.test.ts', // 142
];

class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const at = SLOW_FIRST.indexOf(
        path
          .relative(import.meta.dirname, spec.moduleId)
          .split(path.sep)
          .join('/'),
      );
      return at < 0 ? SLOW_FIRST.length : at;
    };
    // A stable sort: the files not named keep the order vitest gave them.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    // Three test files at a time (vitest's default is one less than the cores: one, on the 2-core CI machine). Most
    // of a file's time is spent waiting (fsync, PostgreSQL, a browser, child processes), so three side by side take
    // about half the wall time of one after another; TEST_WORKERS=1 runs them one by one.
    poolOptions: { forks: { maxForks: Number(process.env.TEST_WORKERS ?? 3), minForks: 1 } },
    sequence: { sequencer: SlowFirst },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
