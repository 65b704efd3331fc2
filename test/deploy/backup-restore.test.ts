import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { describe } from 'vitest';
import { tempDir } from '../helpers/backends.js';
import { cliJson, runCli } from '../helpers/cli.js';
import { serveProcess, type ServeProcess } from '../multi-instance/serve-process.js';

/**
 * The secret travels with the data (docs/deployment.md, "Backups"): with APP_SECRET unset, Leadscan keeps a generated
 * secret in the data directory, and upload keys are encrypted under it. A backup copies that file beside itself, so a
 * restore into a new data directory (a new server) still shows the upload key.
 */
describe('a backup restored into a new data directory', () => {
  const servers: ServeProcess[] = [];
  afterAll(async () => {
    for (const server of servers) await server.stop();
  });

  it('carries the generated app secret, so the restored database still shows the upload key', async () => {
    const oldDir = tempDir();
    const oldEnv = {
      DATABASE_URL: path.join(oldDir, 'leadscan.sqlite'),
      PUBLIC_BASE_URL: 'https://leads.example.test',
    };
    const first = await serveProcess([], oldEnv);
    servers.push(first);
    const uploadKey = /x-scan-key: (\S+)'/.exec(first.output())![1]!;
    expect(fs.existsSync(path.join(oldDir, 'app-secret'))).toBe(true);

    // What the timer runs, while the server serves.
    const backups = path.join(oldDir, 'backups');
    const backup = await cliJson<{ file: string; appSecret: string }>(
      ['backup', '--dir', backups, '--keep', '3'],
      oldEnv,
    );
    expect(backup.appSecret).toBe(`${backup.file}.app-secret`);
    expect(fs.statSync(backup.appSecret).mode & 0o777).toBe(0o600);
    expect(fs.statSync(backups).mode & 0o777).toBe(0o700);
    await first.stop();

    // Restore as docs/deployment.md says: the backup becomes the database, its secret file the data directory's.
    const newDir = tempDir();
    const newEnv = {
      DATABASE_URL: path.join(newDir, 'leadscan.sqlite'),
      PUBLIC_BASE_URL: 'https://leads.example.test',
    };
    fs.copyFileSync(backup.file, newEnv.DATABASE_URL);
    fs.copyFileSync(backup.appSecret, path.join(newDir, 'app-secret'));
    const restored = await serveProcess([], newEnv);
    servers.push(restored);
    // Not a first start: the restored data is recognised, and no new secret is made.
    expect(restored.output()).not.toMatch(/First start/);
    expect(restored.output()).not.toMatch(/Leadscan made one/);
    const shown = await cliJson<{ uploadKey: string }>(['key', 'show', '--workspace', 'Default'], newEnv);
    expect(shown.uploadKey).toBe(uploadKey);
    await restored.stop();

    // Without the secret file the same backup opens, but its key cannot be read: why the file travels with it.
    const bareDir = tempDir();
    const bareEnv = { DATABASE_URL: path.join(bareDir, 'leadscan.sqlite') };
    fs.copyFileSync(backup.file, bareEnv.DATABASE_URL);
    const bare = await runCli(['key', 'show', '--workspace', 'Default', '--json'], bareEnv);
    expect(bare.code).toBe(1);
    expect(bare.stdout).not.toContain(uploadKey);
  }, 60_000);
});
