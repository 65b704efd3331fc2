import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachBackend, tempDir } from '../helpers/backends.js';
import { runCli } from '../helpers/cli.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';

describeEachBackend('leadscan backup', (backend) => {
  let world: TestWorld;
  beforeAll(async () => {
    world = await createWorld(backend);
  });
  afterAll(async () => {
    await world.close();
  });

  if (backend === 'postgres') {
    it('on PostgreSQL says to use pg_dump, without the password', async () => {
      const url = new URL(world.testDb.url);
      url.password = 'pw-secret-123';
      const to = path.join(tempDir(), 'copy.dump');
      // Trust auth ignores the password; the message must not show it.
      const result = await runCli(['backup', '--to', to], {
        DATABASE_URL: url.toString(),
        APP_SECRET: world.appSecret,
      });
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/^leadscan: On PostgreSQL, back up with pg_dump: pg_dump --format=custom/);
      expect(result.stderr).not.toContain('pw-secret-123');
      expect(result.stderr).toContain(':***@');
      expect(fs.existsSync(to)).toBe(false);
    });
    return;
  }

  it('--dir names the backup by the time and --keep N then deletes the oldest of its backups beyond N, with their secret files', async () => {
    const dir = tempDir();
    const older = [
      'leadscan-2026-01-01T030000Z.sqlite',
      'leadscan-2026-01-02T030000Z.sqlite',
      'leadscan-2026-01-03T030000Z.sqlite',
    ];
    for (const name of older) {
      fs.writeFileSync(path.join(dir, name), 'an older backup');
      fs.writeFileSync(path.join(dir, `${name}.app-secret`), 'its secret');
    }
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a backup: never deleted');
    const env = { DATABASE_URL: world.testDb.url, APP_SECRET: world.appSecret };
    const result = await runCli(['backup', '--dir', dir, '--keep', '2', '--json'], env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const answer = JSON.parse(result.stdout) as { file: string; appSecret: string; removed: string[] };
    expect(path.dirname(answer.file)).toBe(dir);
    expect(path.basename(answer.file)).toMatch(/^leadscan-\d{4}-\d{2}-\d{2}T\d{6}Z\.sqlite$/);
    // Set in the environment, the secret is named, not written to disk.
    expect(answer.appSecret).toBe('APP_SECRET');
    expect(answer.removed).toEqual(older.slice(0, 2).map((name) => path.join(dir, name)));
    expect(fs.readdirSync(dir).sort()).toEqual(
      [older[2]!, `${older[2]!}.app-secret`, path.basename(answer.file), 'notes.txt'].sort(),
    );
    const copy = new BetterSqlite3(answer.file, { readonly: true, fileMustExist: true });
    try {
      expect(copy.pragma('quick_check', { simple: true })).toBe('ok');
    } finally {
      copy.close();
    }

    const text = await runCli(['backup', '--to', path.join(dir, 'by-hand.sqlite')], env);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/encrypted under APP_SECRET: keep that value with the backup/);

    const misuse = await runCli(['backup', '--to', path.join(dir, 'x.sqlite'), '--keep', '2'], env);
    expect(misuse.code).toBe(1);
    expect(misuse.stderr).toMatch(/--keep works with --dir/);
    const zero = await runCli(['backup', '--dir', dir, '--keep', '0'], env);
    expect(zero.code).toBe(1);
  });

  it('taken while intake is under load, opens as a consistent database holding every lead acknowledged before it began', async () => {
    const { source } = await world.seed();
    const app = await world.app();
    const acknowledged: string[] = [];
    let running = true;
    const worker = async (n: number) => {
      for (let i = 0; running; i += 1) {
        const res = await app.inject({
          method: 'POST',
          url: `/api/intake/${source.token}`,
          payload: { name: `Load ${n}-${i}`, notes: 'x'.repeat(500) },
        });
        expect(res.statusCode).toBe(200);
        acknowledged.push(res.json<{ id: string }>().id);
      }
    };
    const load = Promise.all(Array.from({ length: 16 }, (_, n) => worker(n)));
    while (acknowledged.length < 300) await new Promise((r) => setTimeout(r, 20));

    const before = [...acknowledged];
    const to = path.join(tempDir(), 'backup.sqlite');
    const env = { DATABASE_URL: world.testDb.url, APP_SECRET: world.appSecret };
    const result = await runCli(['backup', '--to', to, '--json'], env);
    const duringBackup = acknowledged.length - before.length;
    running = false;
    await load;
    expect(result.code).toBe(0);
    const answer = JSON.parse(result.stdout) as { file: string; byteSize: number; leads: number; scans: number };
    expect(answer.file).toBe(to);
    expect(answer.byteSize).toBe(fs.statSync(to).size);
    // Intake kept answering while the copy was made.
    expect(duringBackup).toBeGreaterThan(0);

    const copy = new BetterSqlite3(to, { readonly: true, fileMustExist: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      const ids = new Set((copy.prepare('select id from leads').all() as Array<{ id: string }>).map((r) => r.id));
      expect(before.filter((id) => !ids.has(id))).toEqual([]);
      expect(answer.leads).toBe(ids.size);
      // Nothing in the copy that the live database does not hold (no half-written batch).
      const live = new Set((await world.store.db.selectFrom('leads').select('id').execute()).map((r) => r.id));
      expect([...ids].filter((id) => !live.has(id))).toEqual([]);
    } finally {
      copy.close();
    }

    const again = await runCli(['backup', '--to', to], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exists/);
  }, 120_000);
});
