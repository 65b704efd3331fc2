import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { readBotCheckSecret } from '../../src/domain/sources/find-source.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';

const BIN = path.resolve(import.meta.dirname, '../../bin/leadscan.js');

/** Runs the built CLI with `stdin` piped in. */
function runWithStdin(args: string[], env: Record<string, string>, stdin: string) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

/** Finding 9: the bot-check secret can come from standard input, out of `ps` and shell history. */
describeEachBackend('source bot-check --secret-stdin (finding 9)', (backend) => {
  let world: TestWorld;
  afterEach(async () => {
    await world?.close();
  });

  it('reads the secret from standard input and stores it encrypted', async () => {
    world = await createWorld(backend);
    const { source } = await world.seed();
    const env = { DATABASE_URL: world.testDb.url, APP_SECRET: world.appSecret };
    const secret = 'stdin-secret-0x1234567890';
    const result = await runWithStdin(
      [
        'source',
        'bot-check',
        source.token,
        '--provider',
        'turnstile',
        '--secret-stdin',
        '--site-key',
        'site-key',
        '--json',
      ],
      env,
      `${secret}\n`,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ token: source.token, botCheck: { provider: 'turnstile' } });
    expect(result.stdout + result.stderr).not.toContain(secret);
    expect(await readBotCheckSecret({ ctx: world.ctx, input: { sourceId: source.id } })).toBe(secret);

    const empty = await runWithStdin(
      ['source', 'bot-check', source.token, '--provider', 'turnstile', '--secret-stdin'],
      env,
      '\n',
    );
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('--secret-stdin');
    const both = await runWithStdin(
      ['source', 'bot-check', source.token, '--provider', 'turnstile', '--secret', 'x', '--secret-stdin'],
      env,
      'y',
    );
    expect(both.code).toBe(1);
    expect(await readBotCheckSecret({ ctx: world.ctx, input: { sourceId: source.id } })).toBe(secret);
  });
});
