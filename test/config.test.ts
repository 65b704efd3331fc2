import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

describe('config', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config.database).toEqual({ kind: 'sqlite', path: path.resolve('data/leadscan.sqlite') });
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 3000,
      publicBaseUrl: 'http://localhost:3000',
      intakeRateLimit: 30,
      scanRateLimit: 120,
      scanMaxBytes: 33_554_432,
      trustProxy: false,
      redisUrl: undefined,
      appSecret: undefined,
      botCheckTimeoutMs: 5000,
    });
  });

  it('selects PostgreSQL or SQLite from DATABASE_URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@h/db',
    });
    expect(loadConfig({ DATABASE_URL: 'postgresql://u@h/db' }).database.kind).toBe('postgres');
    expect(loadConfig({ DATABASE_URL: 'sqlite:/tmp/x.db' }).database).toEqual({ kind: 'sqlite', path: '/tmp/x.db' });
    expect(loadConfig({ DATABASE_URL: 'rel/x.db' }).database).toEqual({
      kind: 'sqlite',
      path: path.resolve('rel/x.db'),
    });
  });

  it('derives PUBLIC_BASE_URL from PORT and strips a trailing slash', () => {
    expect(loadConfig({ PORT: '8080' }).publicBaseUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://leads.example.com/' }).publicBaseUrl).toBe(
      'https://leads.example.com',
    );
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['INTAKE_RATE_LIMIT', '-1'],
    ['SCAN_RATE_LIMIT', 'lots'],
    ['SCAN_MAX_BYTES', '1.5'],
    ['PUBLIC_BASE_URL', 'not a url'],
    ['PUBLIC_BASE_URL', 'ftp://example.com'],
    ['APP_SECRET', 'too-short'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['REDIS_URL', 'localhost:6379'],
    ['TRUST_PROXY', 'sometimes'],
    ['LOG_LEVEL', 'loud'],
    ['TURNSTILE_VERIFY_URL', 'nope'],
    ['CLI_COMMAND', 'leadscan; rm -rf /'],
  ])('refuses %s=%s with an error naming the variable', (variable, value) => {
    let caught: unknown;
    try {
      loadConfig({ [variable]: value });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).variable).toBe(variable);
    expect((caught as Error).message).toContain(variable);
    expect((caught as Error).message.split('\n')).toHaveLength(1);
  });

  it('names the CLI as CLI_COMMAND says: npx leadscan in a checkout, the installed leadscan on a server', () => {
    expect(loadConfig({}).cliCommand).toBe('npx leadscan');
    expect(loadConfig({ CLI_COMMAND: ' leadscan ' }).cliCommand).toBe('leadscan');
  });

  it('turns limits off with 0 and parses TRUST_PROXY', () => {
    const config = loadConfig({ INTAKE_RATE_LIMIT: '0', SCAN_RATE_LIMIT: '0', TRUST_PROXY: '1' });
    expect(config.intakeRateLimit).toBe(0);
    expect(config.scanRateLimit).toBe(0);
    expect(config.trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1, fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    expect(loadConfig({ TRUST_PROXY: 'off' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
  });

  it('refuses TRUST_PROXY=true with a line that says what to write instead, and malformed addresses', () => {
    for (const value of ['true', 'TRUE', 'on', 'yes']) {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(
        /TRUST_PROXY .*would let any client choose its IP; write the number of proxies .*\(e\.g\. 1\).*CIDRs/,
      );
    }
    for (const value of ['10.0.0.0/33', '10.0.0', 'proxy.internal', '::1/129', '1.2.3.4/8/8', '99']) {
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(/TRUST_PROXY/);
    }
  });
  it('reads SMTP_URL and MAIL_FROM together, names the server without credentials, and leaves email off when unset', () => {
    expect(loadConfig({}).mail).toBeUndefined();
    expect(loadConfig({}).emailBatchSeconds).toBe(60);
    expect(
      loadConfig({ SMTP_URL: 'smtp://apikey:s3cret@smtp.example.com:2525', MAIL_FROM: 'Leads <leads@example.com>' })
        .mail,
    ).toEqual({
      smtpUrl: 'smtp://apikey:s3cret@smtp.example.com:2525',
      from: 'Leads <leads@example.com>',
      server: 'smtp.example.com:2525',
    });
    expect(loadConfig({ SMTP_URL: 'smtps://u:p@mail.example.com', MAIL_FROM: 'leads@example.com' }).mail?.server).toBe(
      'mail.example.com:465',
    );
    expect(loadConfig({ SMTP_URL: 'smtp://mail.example.com', MAIL_FROM: 'leads@example.com' }).mail?.server).toBe(
      'mail.example.com:587',
    );
    expect(loadConfig({ EMAIL_BATCH_SECONDS: '0' }).emailBatchSeconds).toBe(0);
  });

  it.each([
    [{ SMTP_URL: 'smtp://u:hunter2-secret@mail.example.com:587' }, 'MAIL_FROM'],
    [{ MAIL_FROM: 'leads@example.com' }, 'SMTP_URL'],
    [{ SMTP_URL: 'http://u:hunter2-secret@mail.example.com', MAIL_FROM: 'leads@example.com' }, 'SMTP_URL'],
    [{ SMTP_URL: 'mail.example.com:587', MAIL_FROM: 'leads@example.com' }, 'SMTP_URL'],
    [{ SMTP_URL: 'smtp://u:hunter2-secret@mail.example.com', MAIL_FROM: 'not an address' }, 'MAIL_FROM'],
    [{ EMAIL_BATCH_SECONDS: '-5' }, 'EMAIL_BATCH_SECONDS'],
  ])('refuses bad email settings %j in one line naming %s, never echoing the password', (env, variable) => {
    let caught: unknown;
    try {
      loadConfig(env);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).variable).toBe(variable);
    expect((caught as Error).message.split('\n')).toHaveLength(1);
    expect((caught as Error).message).not.toContain('hunter2-secret');
  });
});
