import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/backends.js';
import { runCli } from '../helpers/cli.js';

describe('the CLI never creates a database, and says why it cannot open one', () => {
  it('from another working directory without DATABASE_URL, a read command exits 1 naming the path and creates nothing', async () => {
    const cwd = tempDir('leadscan-elsewhere-');
    const result = await runCli(['leads', 'list', '--workspace', 'Default'], {}, { cwd });
    expect(result.code).toBe(1);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const expected = path.join(fs.realpathSync(cwd), 'data', 'leadscan.sqlite');
    expect(lines[0]).toContain(`No database at ${expected}`);
    expect(lines[0]).toContain('DATABASE_URL is unset');
    expect(fs.readdirSync(cwd)).toEqual([]);

    const named = await runCli(['workspace', 'list', '--json'], { DATABASE_URL: 'elsewhere.sqlite' }, { cwd });
    expect(named.code).toBe(1);
    expect(named.stderr).toContain('DATABASE_URL=elsewhere.sqlite');
    expect(JSON.parse(named.stdout)).toMatchObject({ ok: false, code: 'database_not_found' });
    expect(fs.readdirSync(cwd)).toEqual([]);

    // migrate (and serve) may create it.
    const migrated = await runCli(
      ['migrate', '--json'],
      { DATABASE_URL: 'made.sqlite', APP_SECRET: 'x'.repeat(32) },
      { cwd },
    );
    expect(migrated.code).toBe(0);
    expect(fs.existsSync(path.join(cwd, 'made.sqlite'))).toBe(true);
    const listed = await runCli(
      ['workspace', 'list', '--json'],
      { DATABASE_URL: 'made.sqlite', APP_SECRET: 'x'.repeat(32) },
      { cwd },
    );
    expect(JSON.parse(listed.stdout)).toEqual([]);
  });

  it('an unreachable PostgreSQL is one line naming the URL without its password, not a failed migration', async () => {
    // A port that refuses: bind one, note it, close it.
    const port = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: p } = server.address() as net.AddressInfo;
        server.close(() => resolve(p));
      });
    });
    const url = `postgres://leadscan:hunter2secret@127.0.0.1:${port}/leadscan`;
    for (const args of [['workspace', 'list'], ['migrate']]) {
      const result = await runCli(args, { DATABASE_URL: url, APP_SECRET: 'x'.repeat(32) });
      expect(result.code).toBe(1);
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`Cannot open the database postgres://leadscan:***@127.0.0.1:${port}/leadscan`);
      expect(lines[0]).toMatch(/ECONNREFUSED/);
      expect(lines[0]).not.toContain('hunter2secret');
      expect(lines[0]).not.toMatch(/Migration/);
    }
    // A password given as a query parameter (libpq's way) is a credential too, and so is an SSL key's passphrase.
    const inQuery = `postgres://leadscan@127.0.0.1:${port}/leadscan?sslmode=disable&password=hunter3secret&sslpassword=hunter4secret`;
    const result = await runCli(['migrate'], { DATABASE_URL: inQuery, APP_SECRET: 'x'.repeat(32) });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('password=***');
    expect(result.stderr).toContain('sslmode=disable');
    expect(result.stderr).not.toContain('hunter3secret');
    expect(result.stderr).not.toContain('hunter4secret');
  });
});
