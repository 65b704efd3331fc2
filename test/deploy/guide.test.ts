import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/backends.js';
import { eventually } from '../multi-instance/serve-process.js';
import { freePort, REPO, substitute } from './tools.js';

const GUIDE = path.join(REPO, 'docs', 'deployment.md');

interface Step {
  section: string;
  /** A line of a `sh` block (heredocs and `\` continuations joined), or a command the prose says to run now. */
  command: string;
  /** The comment line just above it in its block, if any. */
  comment: string;
  prose: boolean;
}

/**
 * The guide's commands in order: every line of its `sh` blocks, and the inline `systemctl`/`leadscan`/`journalctl`
 * spans of the prose of sections 4, 6 and 7 (where it says to run them now; elsewhere they are conditional).
 */
function guideSteps(markdown: string): Step[] {
  const steps: Step[] = [];
  const lines = markdown.split('\n');
  let section = '';
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    if (line.startsWith('## ')) section = line.slice(3);
    else if (line.trim() === '```sh') {
      let comment = '';
      for (i += 1; lines[i]!.trim() !== '```'; i += 1) {
        let command = lines[i]!;
        if (!command.trim()) continue;
        if (command.trim().startsWith('#')) {
          comment = command.trim();
          continue;
        }
        const heredoc = /<<\s*'?(\w+)'?\s*$/.exec(command)?.[1];
        if (heredoc) {
          do {
            i += 1;
            command += `\n${lines[i]!}`;
          } while (lines[i]!.trim() !== heredoc);
        } else {
          while (command.endsWith('\\')) command = `${command.slice(0, -1)} ${lines[(i += 1)]!.trim()}`;
          command = command.replace(/\s{2,}#\s.*$/, '').trim();
        }
        steps.push({ section, command, comment, prose: false });
        comment = '';
      }
    } else if (!line.startsWith('```') && /^[467]\. /.test(section)) {
      // The prose of the sections that say "run this now" (the service, the first sign-in, backups).
      for (const match of line.matchAll(/`((?:systemctl|leadscan|journalctl) [^`]+)`/g))
        steps.push({ section, command: match[1]!, comment: '', prose: true });
    }
  }
  return steps;
}

/**
 * docs/deployment.md followed as written, against the files in deploy/: its commands run in order on a stand-in
 * for the server, a folder `root` where `/etc`, `/var` and `/usr/local` live, with the code at /opt/leadscan being
 * this checkout. What needs a real machine (apt-get, useradd, DNS, certbot, reloading a proxy) is named as such and
 * not run (the proxies have their own tests); systemd is played by reading the installed unit as systemd would
 * (its Environment= lines, then its EnvironmentFile=, which must exist, then ExecStart=). So a path the guide
 * names and the units or the wrapper do not (the env file, the backups folder) fails here, and so does a command
 * that does not answer. A new command in a `sh` block that this test does not know fails it too.
 */
describe('docs/deployment.md, followed as written (the guide against deploy/)', () => {
  const root = tempDir('leadscan-guide-');
  const user = os.userInfo().username;
  let service: { child: ChildProcess; output: string; exited: Promise<number | null> } | undefined;
  let journal = '';
  let backupJournal = '';
  let port = 0;
  afterAll(async () => {
    if (service?.child.exitCode === null) service.child.kill('SIGTERM');
    await service?.exited;
  });

  /** A path of the server, as it is under `root` (the code stays where this checkout is). */
  const onServer = (text: string) =>
    text
      .replace(/(^|[\s='"<>:-])\/(etc|var|usr\/local)\//g, `$1${root}/$2/`)
      .replaceAll('/opt/leadscan', REPO)
      .replaceAll('/usr/bin/node', process.execPath);
  const shellEnv = () => ({ PATH: `${root}/usr/local/bin:${process.env.PATH ?? ''}`, LOG_LEVEL: 'silent' });
  const sh = (command: string, cwd: string) =>
    spawnSync('sh', ['-c', command], { cwd, encoding: 'utf8', env: shellEnv() });

  /** A unit as systemd reads it: its settings, the environment it gives ExecStart, and what it runs. */
  function unit(name: string) {
    const file = path.join(root, 'etc/systemd/system', name);
    expect(fs.existsSync(file), `${name} is installed where section 4 copies it`).toBe(true);
    const settings = fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => /^[A-Za-z]+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), onServer(line.slice(line.indexOf('=') + 1))] as const);
    const env: Record<string, string> = { PATH: process.env.PATH ?? '' };
    for (const [, value] of settings.filter(([k]) => k === 'Environment')) {
      const [name_, ...rest] = value.split('=');
      env[name_!] = rest.join('=');
    }
    for (const [, value] of settings.filter(([k]) => k === 'EnvironmentFile')) {
      const envFile = value.replace(/^-/, '');
      expect(fs.existsSync(envFile), `${name}'s EnvironmentFile ${envFile} is the file section 3 wrote`).toBe(true);
      const names = [...fs.readFileSync(envFile, 'utf8').matchAll(/^([A-Z_][A-Z0-9_]*)=/gm)].map((m) => m[1]!);
      const read = spawnSync('sh', ['-c', 'set -a; . "$1"; env -0', 'sh', envFile], { encoding: 'utf8', env: {} });
      for (const entry of read.stdout.split('\0')) {
        const at = entry.indexOf('=');
        if (names.includes(entry.slice(0, at))) env[entry.slice(0, at)] = entry.slice(at + 1);
      }
    }
    const state = settings.find(([k]) => k === 'StateDirectory')?.[1];
    if (state) fs.mkdirSync(path.join(root, 'var/lib', state), { recursive: true, mode: 0o700 });
    const exec = settings.find(([k]) => k === 'ExecStart')![1].split(' ');
    const cwd = settings.find(([k]) => k === 'WorkingDirectory')?.[1] ?? '/';
    return { env, exec, cwd };
  }

  async function startService(): Promise<void> {
    const { env, exec, cwd } = unit('leadscan.service');
    // A drop-in of the test's: a free port instead of 3000, which other tests on this machine may hold.
    const child = spawn(exec[0]!, exec.slice(1), { cwd, env: { ...env, PORT: String(port) }, stdio: 'pipe' });
    const started = { child, output: '', exited: new Promise<number | null>((done) => child.on('exit', done)) };
    const onData = (chunk: Buffer) => {
      started.output += chunk.toString('utf8');
      journal += chunk.toString('utf8');
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    service = started;
    await eventually(
      () => (/listening on http:\/\/127\.0\.0\.1:\d+/.test(started.output) ? true : undefined),
      `the service to listen: ${started.output}`,
      30_000,
    );
  }
  async function stopService(): Promise<void> {
    service!.child.kill('SIGTERM');
    expect(await service!.exited, 'the service stops cleanly (exit 0)').toBe(0);
  }
  function runBackupUnit(): void {
    const { env, exec, cwd } = unit('leadscan-backup.service');
    const run = spawnSync(exec[0]!, exec.slice(1), { cwd, env, encoding: 'utf8' });
    backupJournal += run.stdout + run.stderr;
    expect(run.status, run.stderr).toBe(0);
  }
  const backupsDir = () => path.join(root, 'var/lib/leadscan/backups');
  const newestBackup = () =>
    (fs.existsSync(backupsDir()) ? fs.readdirSync(backupsDir()) : [])
      .filter((n) => /^leadscan-.*Z\.sqlite$/.test(n))
      .sort()
      .at(-1);

  /** Machine set-up this stand-in does not do: the packages, the user, the code checkout, DNS and certificates. */
  const MACHINE = [
    /^apt-get /,
    /^curl /,
    /^bash \/tmp\/nodesource_setup\.sh$/,
    /^useradd --system .* leadscan$/,
    /^git clone .* \/opt\/leadscan$/,
    /^cd \/opt\/leadscan && (git pull && )?npm ci /,
    /^(npm ci|git pull)\b/,
    /^certbot /,
    /^ufw /,
  ];
  /** The proxies: reloading them is what test/deploy/caddy-proxy.test.ts and nginx-proxy.test.ts do for real. */
  const PROXY = [/^systemctl reload (caddy|nginx)$/, /^nginx -t$/];

  it('runs the commands in order: env file, units, wrapper, banner, backups, restore, upgrade, doctor', async () => {
    port = await freePort();
    // What a fresh Debian or Ubuntu machine has before the guide starts.
    for (const dir of ['etc/systemd/system', 'usr/local/bin', 'var/lib', 'var/log'])
      fs.mkdirSync(path.join(root, dir), { recursive: true });
    const steps = guideSteps(fs.readFileSync(GUIDE, 'utf8'));
    expect(steps.length).toBeGreaterThan(20);
    const done: string[] = [];
    let firstKey = '';
    let cwd = root;
    let section = '';

    for (const step of steps) {
      if (step.section !== section) {
        section = step.section;
        cwd = root;
      }
      // Machine set-up is judged on the whole line (`cd /opt/leadscan && npm ci` must not run npm here).
      const parts =
        step.prose || MACHINE.some((re) => re.test(step.command)) ? [step.command] : step.command.split(' && ');
      for (const part of parts) {
        // The workspace's name in the guide's examples; it is "Default" until the setup page names it.
        const command = part.replaceAll('"Bright Floors"', 'Default');
        const say = (what: string) => done.push(`${section} | ${command.split('\n')[0]} | ${what}`);
        if (MACHINE.some((re) => re.test(command))) {
          say('machine set-up, not run');
        } else if (PROXY.some((re) => re.test(command))) {
          say('proxy, tested in caddy-proxy/nginx-proxy');
        } else if (command === 'node --version') {
          expect(Number(/^v(\d+)/.exec(process.version)![1])).toBeGreaterThanOrEqual(20);
          say('checked');
        } else if (command.startsWith('cd ')) {
          cwd = onServer(command.slice(3));
          say('cwd');
        } else if (command === 'systemctl daemon-reload') {
          say('no-op');
        } else if (/^systemctl (enable --now|start) leadscan( leadscan-backup\.timer)?$/.test(command)) {
          if (command.includes('timer')) {
            const timer = fs.readFileSync(path.join(root, 'etc/systemd/system/leadscan-backup.timer'), 'utf8');
            expect(timer).toMatch(/^Unit=leadscan-backup\.service$/m);
          }
          await startService();
          say('started');
        } else if (command === 'systemctl status leadscan') {
          expect(service!.child.exitCode).toBeNull();
          say('running');
        } else if (command === 'systemctl stop leadscan') {
          await stopService();
          say('stopped');
        } else if (command === 'systemctl restart leadscan') {
          await stopService();
          await startService();
          say('restarted');
        } else if (command === 'systemctl start leadscan-backup') {
          runBackupUnit();
          expect(newestBackup(), `a backup in ${backupsDir()}`).toBeDefined();
          say(`backup ${newestBackup()}`);
        } else if (command.startsWith('journalctl -u leadscan-backup')) {
          expect(backupJournal).not.toBe('');
          say('read');
        } else if (command.startsWith('journalctl -u leadscan')) {
          const grep = /\| grep -A1 '([^']+)'$/.exec(command)?.[1];
          if (grep) {
            const at = journal.split('\n').findIndex((line) => line.includes(grep));
            expect(at, `the journal has "${grep}"`).toBeGreaterThanOrEqual(0);
            expect(journal.split('\n')[at + 1]).toMatch(/^\s+https:\/\/leads\.example\.com\/setup\/\S+$/);
          } else expect(journal).toContain('listening on');
          say('read');
        } else if (step.prose && !/^(leadscan (key show|user reset-password|doctor|backup --dir) )/.test(command)) {
          say('prose mention, not run');
        } else if (step.comment.startsWith('# Only with a generated secret')) {
          // The env file of section 3 sets APP_SECRET, so the backup carries no secret file.
          expect(fs.readdirSync(backupsDir()).filter((n) => n.endsWith('.app-secret'))).toEqual([]);
          say('skipped: APP_SECRET is set');
        } else {
          // Everything else runs as written, on the stand-in: owners and groups are the test's own user.
          const real = onServer(command)
            .replace(/ -(o|g) (leadscan|caddy)\b/g, '')
            .replace(/leadscan-\d{4}-\d{2}-\d{2}T\d{6}Z\.sqlite/g, newestBackup() ?? 'no-backup-yet');
          // Nothing of the real machine is touched: every system path of the command is under the stand-in.
          expect(real.replaceAll(root, 'ROOT').replaceAll(REPO, 'CODE'), real).not.toMatch(
            /(^|[\s>=])\/(etc|var|usr|opt)\//m,
          );
          for (const target of real.matchAll(/>\s*(\S+)/g)) fs.mkdirSync(path.dirname(target[1]!), { recursive: true });
          for (const link of real.matchAll(/^ln -s \S+ (\S+)\/$/gm)) fs.mkdirSync(link[1]!, { recursive: true });
          const run = sh(real, cwd);
          if (/^leadscan doctor /.test(command)) {
            // Exit 1 is expected here: leads.example.com does not resolve from a test machine, and there is no proxy.
            const line = (check: string) => run.stdout.split('\n').find((l) => l.slice(5).startsWith(check)) ?? '';
            for (const check of ['database', 'migrations', 'server', 'backups', 'disk', 'app secret', 'metrics token'])
              expect(line(check), `${check}: ${run.stdout}${run.stderr}`).toMatch(/^ok {3}/);
            expect(line('backups')).toContain(newestBackup()!);
            expect(line('disk')).toMatch(/free of .* under /);
          } else {
            expect(run.status, `${command}\n${run.stdout}${run.stderr}`).toBe(0);
          }
          if (command.startsWith('install -m 0755 /opt/leadscan/deploy/leadscan /usr/local/bin/leadscan')) {
            // The installed wrapper, on this stand-in: its paths under `root`, and the test's user for the service's.
            const installed = path.join(root, 'usr/local/bin/leadscan');
            const text = substitute(
              fs.readFileSync(installed, 'utf8'),
              [['runuser -u leadscan -- ', user === 'root' ? 'runuser -u root -- ' : '']],
              'deploy/leadscan',
            );
            fs.writeFileSync(installed, onServer(text), { mode: 0o755 });
          }
          if (/^leadscan key show /.test(command)) {
            const key = /lsk_\S+/.exec(run.stdout)?.[0];
            expect(key, run.stdout).toBeDefined();
            if (firstKey) expect(key, 'the restored database shows the same upload key').toBe(firstKey);
            firstKey ||= key!;
          }
          say(`ran (exit ${run.status})`);
        }
      }
    }

    // Every part of the guide that has commands was walked, in order.
    const walked = new Set(done.map((d) => d.split(' | ')[0]));
    for (const part of ['3. The settings', '4. The service', '6. First sign-in', '7. Backups', '8. Upgrading'])
      expect(walked, done.join('\n')).toContain(part);
    expect(walked).toContain('10. Check a deployment');
    expect(done.filter((d) => d.includes('leadscan doctor')).length).toBeGreaterThan(0);

    // The banner on the server names the installed command, as the guide does; never npx.
    expect(journal).toMatch(/later: leadscan key show --workspace Default\)/);
    expect(journal).toMatch(/A new link later: leadscan user reset-password --email admin@localhost/);
    expect(journal).not.toContain('npx leadscan');
    await stopService();
  }, 180_000);
});
