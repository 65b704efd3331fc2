import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/backends.js';
import { DEPLOY, REPO, substitute } from './tools.js';

/**
 * deploy/leadscan, the CLI on the server: it reads the service's env file (the syntax systemd reads too, quotes
 * included), applies the unit's defaults under it, and runs bin/leadscan.js as the service's user.
 */
describe('deploy/leadscan (the CLI with the service settings)', () => {
  it("runs a command with the env file's settings, quoted values included, over the unit's defaults", () => {
    const dir = tempDir();
    // The test's copy runs as the test's own user (root in CI) and with this machine's Node.
    const wrapper = substitute(
      fs.readFileSync(path.join(DEPLOY, 'leadscan'), 'utf8'),
      [
        ['runuser -u leadscan -- ', process.getuid?.() === 0 ? `runuser -u ${os.userInfo().username} -- ` : ''],
        ['/usr/bin/node ', `${process.execPath} `],
        // The unit's defaults, somewhere harmless: the env file must win over them.
        ['/var/lib/leadscan', path.join(dir, 'unit-default')],
      ],
      'deploy/leadscan',
    );
    fs.writeFileSync(path.join(dir, 'leadscan'), wrapper, { mode: 0o755 });
    const database = path.join(dir, 'data', 'leadscan.sqlite');
    fs.writeFileSync(
      path.join(dir, 'leadscan.env'),
      [
        'PUBLIC_BASE_URL=https://leads.example.test',
        `APP_SECRET=${crypto.randomBytes(48).toString('base64')}`,
        `DATABASE_URL=${database}`,
        '# a comment, and a value with spaces in double quotes as docs/deployment.md writes it',
        'MAIL_FROM="Leadscan <leads@example.test>"',
        'SMTP_URL=smtp://user:secret@127.0.0.1:2525',
        '',
      ].join('\n'),
    );
    const run = (...args: string[]) =>
      spawnSync('sh', [path.join(dir, 'leadscan'), ...args], {
        encoding: 'utf8',
        env: {
          PATH: process.env.PATH ?? '',
          LEADSCAN_HOME: REPO,
          LEADSCAN_ENV: path.join(dir, 'leadscan.env'),
          LOG_LEVEL: 'silent',
        },
      });
    const migrated = run('migrate', '--json');
    expect(migrated.stderr).toBe('');
    expect(JSON.parse(migrated.stdout)).toEqual({ ok: true });
    // The env file's DATABASE_URL won over the unit's /var/lib/leadscan default.
    expect(fs.existsSync(database)).toBe(true);
    expect(fs.existsSync(path.join(dir, 'unit-default'))).toBe(false);
    // The quoted MAIL_FROM line was read by sh without an error (a wrong quoting is a redirection there: migrate's
    // stderr above would say so); doctor reports the settings the command ran with.
    const doctor = run('doctor', '--json', '--timeout', '2');
    const checks = (JSON.parse(doctor.stdout) as { checks: Array<{ check: string; detail: string }> }).checks;
    const detail = (name: string) => checks.find((c) => c.check === name)?.detail ?? '';
    expect(detail('database')).toContain(database);
    expect(detail('public url')).toContain('https://leads.example.test/healthz');
    expect(detail('app secret')).toBe('APP_SECRET is set and long enough');
  });
});
