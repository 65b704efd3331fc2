import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers/backends.js';
import { cliJson, runCli } from './helpers/cli.js';

const BIN = path.resolve(import.meta.dirname, '../bin/leadscan.js');

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** `leadscan serve` as a real process on a free port; resolves once the banner says where it listens. */
function serve(env: Record<string, string>): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve'], {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', HOST: '127.0.0.1', PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) resolve({ child, url: match[1]!, output: () => out, exited });
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    void exited.then((code) => reject(new Error(`serve exited ${code} before listening: ${out}`)));
  });
}

describe('leadscan serve (process)', () => {
  it('bootstraps on first start, prints URLs and key with curl lines, and exits 0 on SIGTERM', async () => {
    const dir = tempDir();
    const env = { DATABASE_URL: path.join(dir, 'data', 'leadscan.sqlite'), PUBLIC_BASE_URL: 'http://localhost:3000' };
    const first = await serve(env);
    try {
      const out = first.output();
      expect(out).toContain(
        'First start: created workspace "Default", pipeline "Sales" and lead source "Website form"',
      );
      const form = /Hosted form:\s+(\S+)/.exec(out)?.[1];
      const intake = /Intake URL:\s+(\S+)/.exec(out)?.[1];
      expect(form).toMatch(/^http:\/\/localhost:3000\/f\/[0-9a-f-]{36}$/);
      expect(intake).toMatch(/^http:\/\/localhost:3000\/api\/intake\/[0-9a-f-]{36}$/);
      expect(out).toContain(`curl -X POST '${intake}'`);
      const key = /\n\s+(lsk_[A-Za-z0-9_-]{43})\n/.exec(out)?.[1];
      expect(key).toBeDefined();
      expect(out).toContain(`-H 'x-scan-key: ${key}'`);
      expect(out).toMatch(
        /Note: APP_SECRET is not set, so Leadscan made one and keeps it in .*app-secret\. Keep that file with the database/,
      );
      expect(out).toContain('later: npx leadscan key show --workspace Default');
      const health = await fetch(`${first.url}/healthz`);
      expect(health.status).toBe(200);
      // The key printed is the workspace's live key (read back through the CLI with the generated secret).
      expect(await cliJson(['key', 'show', '--workspace', 'Default'], { DATABASE_URL: env.DATABASE_URL })).toEqual({
        uploadKey: key,
      });
    } finally {
      first.child.kill('SIGTERM');
    }
    expect(await first.exited).toBe(0);
    await cliJson(['source', 'create', '--workspace', 'Default', '--pipeline', 'Sales', '--name', 'Landing page'], {
      DATABASE_URL: env.DATABASE_URL,
    });

    const second = await serve(env);
    try {
      const out = second.output();
      expect(out).toContain('Hosted form:');
      expect(out).not.toContain('First start');
      expect(out).not.toMatch(/lsk_/);
      expect(out).not.toContain('APP_SECRET');
      // Every active lead source, each with its links.
      expect(out).toContain('Lead source "Website form":');
      expect(out).toContain('Lead source "Landing page":');
      expect(out.match(/Intake URL:/g)).toHaveLength(2);
      // The one-time setup link is printed on the first start only; later starts name the web app.
      expect(out).not.toContain('/setup/');
      expect(out).toMatch(/Web app: +http:\/\/\S+\/\n/);
    } finally {
      second.child.kill('SIGINT');
    }
    expect(await second.exited).toBe(0);
    // A graceful stop, not an event loop that ran dry halfway through closing the database.
    expect(second.output()).toMatch(/leadscan: stopped; writer committed \d+ writes/);
  });

  it('says where it listens once, and where its links point when that differs', async () => {
    const started = await serve({
      DATABASE_URL: path.join(tempDir(), 'x.sqlite'),
      APP_SECRET: 'k'.repeat(40),
      LOG_LEVEL: 'info',
    });
    try {
      const out = started.output();
      expect(out.match(/127\.0\.0\.1/g)).toHaveLength(1);
      expect(out).toMatch(
        /listening on http:\/\/127\.0\.0\.1:(\d+) \(links below use http:\/\/localhost:\1; PUBLIC_BASE_URL sets them\)/,
      );
      expect(out).toContain('"msg":"accepting connections"');
    } finally {
      started.child.kill('SIGTERM');
    }
    expect(await started.exited).toBe(0);
  });

  it('under `npm start`, Ctrl-C (SIGINT to the whole process group) stops gracefully and exits 0', async () => {
    const child = spawn('npm', ['start', '--silent'], {
      cwd: path.resolve(import.meta.dirname, '..'),
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        LOG_LEVEL: 'silent',
        HOST: '127.0.0.1',
        PORT: '0',
        DATABASE_URL: path.join(tempDir(), 'x.sqlite'),
        APP_SECRET: 'k'.repeat(40),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const listening = new Promise<void>((resolve) => {
      const read = (chunk: Buffer) => {
        out += chunk.toString('utf8');
        if (/listening on http/.test(out)) resolve();
      };
      child.stdout!.on('data', read);
      child.stderr!.on('data', read);
    });
    await Promise.race([
      listening,
      exited.then((code) => Promise.reject(new Error(`npm start exited ${code}: ${out}`))),
    ]);
    process.kill(-child.pid!, 'SIGINT');
    expect(await exited).toBe(0);
    expect(out).toMatch(/leadscan: stopped; writer committed/);
  });

  it('refuses to start on a bad environment value with one line naming it', async () => {
    const result = await runCli(['serve'], {
      PORT: 'abc',
      DATABASE_URL: path.join(tempDir(), 'x.sqlite'),
      APP_SECRET: crypto.randomBytes(32).toString('hex'),
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe('leadscan: Invalid configuration: PORT must be a whole number, got "abc"');
  });

  it('says SQLite runs single-process when asked for workers', async () => {
    const dir = tempDir();
    const started = await serve({ DATABASE_URL: path.join(dir, 'x.sqlite'), WORKERS: '4', APP_SECRET: 'k'.repeat(40) });
    try {
      expect(started.output()).toMatch(/SQLite mode runs as a single process/);
    } finally {
      started.child.kill('SIGTERM');
    }
    expect(await started.exited).toBe(0);
  });
});
