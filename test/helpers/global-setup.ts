import fs from 'node:fs';
import path from 'node:path';

/** Says plainly which backends run, and that the CLI tests need a build. */
export default function setup(): void {
  if (!process.env.TEST_DATABASE_URL) {
    process.stdout.write(
      '\n[leadscan] PostgreSQL suites SKIPPED: TEST_DATABASE_URL is not set. To run them:\n' +
        '  TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm test   (or: bash .ci/run)\n\n',
    );
  } else {
    process.stdout.write(`\n[leadscan] running every backend suite on SQLite and PostgreSQL\n\n`);
  }
  if (!fs.existsSync(path.resolve(import.meta.dirname, '../../dist/cli.js'))) {
    throw new Error('dist/ is missing: run `npm run build` (npm test does it) before vitest');
  }
}
