import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHUTDOWN_GRACE_MS } from '../../src/serve-command.js';
import { tempDir } from '../helpers/backends.js';
import { runCli } from '../helpers/cli.js';
import { DEPLOY, REPO, substitute, systemTool } from './tools.js';

const UNITS = ['leadscan.service', 'leadscan-backup.service', 'leadscan-backup.timer'];
const analyze = systemTool('systemd-analyze', 'apt-get install systemd');

/** A unit's `Key=value` lines (the last one wins, as systemd reads them, except for lists). */
function settings(unit: string): Array<[string, string]> {
  return fs
    .readFileSync(path.join(DEPLOY, unit), 'utf8')
    .split('\n')
    .filter((line) => /^[A-Za-z]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]);
}
const setting = (unit: string, key: string) => settings(unit).findLast(([k]) => k === key)?.[1];

/**
 * deploy/*.service and *.timer, checked by systemd itself without a running systemd: `systemd-analyze verify`
 * (unknown keys, bad values, a missing executable) and `systemd-analyze security --offline` (the hardening).
 */
describe.skipIf(analyze.skipReason !== undefined)(
  `the systemd units${analyze.skipReason ? ` (SKIPPED: ${analyze.skipReason})` : ''}`,
  () => {
    /** Copies of the units where Node and the code are where this machine has them (the units name /usr/bin/node, /opt/leadscan). */
    function localCopies(): string {
      const dir = tempDir('leadscan-units-');
      for (const unit of UNITS) {
        let text = fs.readFileSync(path.join(DEPLOY, unit), 'utf8');
        if (unit.endsWith('.service')) {
          text = substitute(
            text,
            [
              ['/usr/bin/node ', `${process.execPath} `],
              ['/opt/leadscan', REPO],
            ],
            unit,
          );
        }
        fs.writeFileSync(path.join(dir, unit), text);
      }
      return dir;
    }

    it('pass systemd-analyze verify without a warning', () => {
      const dir = localCopies();
      const result = spawnSync(analyze.path!, ['verify', ...UNITS.map((unit) => path.join(dir, unit))], {
        encoding: 'utf8',
        cwd: dir,
      });
      // Unknown keys are only warnings (exit 0): any line naming our units fails the test.
      const ours = `${result.stdout}${result.stderr}`
        .split('\n')
        .filter((line) => UNITS.some((unit) => line.includes(unit)));
      expect(ours).toEqual([]);
      expect(result.status).toBe(0);
    });

    it('are hardened: systemd-analyze security rates both services at most 2.0 exposure', () => {
      const dir = localCopies();
      for (const unit of ['leadscan.service', 'leadscan-backup.service']) {
        // --threshold is in tenths: 20 fails an overall exposure above 2.0 (of 10).
        const result = spawnSync(
          analyze.path!,
          ['security', '--offline=true', '--threshold=20', path.join(dir, unit)],
          { encoding: 'utf8' },
        );
        const overall = /Overall exposure level for \S+: ([\d.]+)/.exec(result.stdout)?.[1];
        expect({ unit, status: result.status, overall: overall !== undefined }).toEqual({
          unit,
          status: 0,
          overall: true,
        });
      }
    });

    it('run serve as its own user, with its state directory, secrets from the env file, and time for a graceful stop', () => {
      const unit = 'leadscan.service';
      expect(setting(unit, 'ExecStart')).toMatch(/\/bin\/leadscan\.js serve$/);
      expect(setting(unit, 'User')).toBe('leadscan');
      expect(setting(unit, 'StateDirectory')).toBe('leadscan');
      const environment = settings(unit)
        .filter(([k]) => k === 'Environment')
        .map(([, v]) => v);
      expect(environment).toEqual(
        expect.arrayContaining(['DATABASE_URL=/var/lib/leadscan/leadscan.sqlite', 'DATA_DIR=/var/lib/leadscan']),
      );
      expect(setting(unit, 'EnvironmentFile')).toBe('/etc/leadscan/leadscan.env');
      expect(setting(unit, 'KillSignal')).toBe('SIGTERM');
      // Leadscan gives up on a slow stop after SHUTDOWN_GRACE_MS and exits 1; systemd must not SIGKILL it before.
      expect(Number(setting(unit, 'TimeoutStopSec')) * 1000).toBeGreaterThan(SHUTDOWN_GRACE_MS);
      expect(setting(unit, 'Restart')).toBe('on-failure');
      for (const key of ['NoNewPrivileges', 'PrivateTmp']) expect(setting(unit, key)).toBe('yes');
      expect(setting(unit, 'ProtectSystem')).toBe('strict');
      // The backup runs as the same user on the same state directory, with the same settings.
      for (const key of ['User', 'StateDirectory', 'EnvironmentFile'])
        expect(setting('leadscan-backup.service', key)).toBe(setting(unit, key));
      expect(setting('leadscan-backup.timer', 'Unit')).toBe('leadscan-backup.service');
    });

    it("the backup service's command line is one the CLI runs: it makes a backup and keeps N", async () => {
      const exec = setting('leadscan-backup.service', 'ExecStart')!;
      const args = exec.split(' ');
      expect(args.slice(0, 2)).toEqual(['/usr/bin/node', '/opt/leadscan/bin/leadscan.js']);
      const state = tempDir();
      const db = path.join(state, 'leadscan.sqlite');
      const env = { DATABASE_URL: db, DATA_DIR: state };
      expect((await runCli(['migrate'], env)).code).toBe(0);
      const cliArgs = args.slice(2).map((arg) => arg.replace('/var/lib/leadscan', state));
      const result = await runCli(cliArgs, env);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const folder = path.join(state, 'backups');
      expect(fs.readdirSync(folder).filter((name) => name.endsWith('.sqlite'))).toHaveLength(1);
      expect(fs.readdirSync(folder).filter((name) => name.endsWith('.sqlite.app-secret'))).toHaveLength(1);
      expect(cliArgs).toContain('--keep');
    });
  },
);
