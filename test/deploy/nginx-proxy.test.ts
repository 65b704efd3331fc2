import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { behindProxy, foreground, waitForProxy } from './behind-proxy.js';
import { tempDir } from '../helpers/backends.js';
import { DEPLOY, substitute, systemTool } from './tools.js';

const nginx = systemTool('nginx', 'apt-get install nginx');

/** A test CA and a certificate for localhost signed by it, made with openssl in `dir` (nothing system-wide). */
function testCertificate(dir: string): { ca: string; cert: string; key: string } {
  const file = (name: string) => path.join(dir, name);
  const openssl = (args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl([
    'req',
    '-x509',
    ...ec,
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.crt'),
    '-days',
    '2',
    '-subj',
    '/CN=Leadscan test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign',
  ]);
  openssl(['req', ...ec, '-keyout', file('server.key'), '-out', file('server.csr'), '-subj', '/CN=localhost']);
  fs.writeFileSync(file('server.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  openssl([
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    file('ca.crt'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-out',
    file('server.crt'),
    '-days',
    '2',
    '-extfile',
    file('server.ext'),
  ]);
  return { ca: fs.readFileSync(file('ca.crt'), 'utf8'), cert: file('server.crt'), key: file('server.key') };
}

/**
 * deploy/nginx.conf in front of Leadscan, as a test copy: its http-level lines and server blocks included from a
 * minimal nginx.conf with every path (pid, logs, temporary files) in the test's folder, on free loopback ports, with a
 * certificate from a test CA.
 */
/** nginx's main configuration around a site file, with every path of its own in `dir`. */
function mainConfig(dir: string, site: string): string {
  const temp = path.join(dir, 'temp');
  fs.mkdirSync(temp, { mode: 0o777, recursive: true });
  fs.chmodSync(temp, 0o777);
  return `${[
    // As root, nginx's workers would switch to nobody; this one stays the test's user.
    ...(process.getuid?.() === 0 ? ['user root root;'] : []),
    'worker_processes 1;',
    'daemon off;',
    `pid ${path.join(dir, 'nginx.pid')};`,
    `error_log ${path.join(dir, 'error.log')} info;`,
    'events { worker_connections 128; }',
    'http {',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
      (kind) => `  ${kind}_temp_path ${path.join(temp, kind)};`,
    ),
    `  include ${site};`,
    '}',
  ].join('\n')}\n`;
}

describe.skipIf(nginx.skipReason !== undefined)(
  `behind nginx (deploy/nginx.conf)${nginx.skipReason ? ` SKIPPED: ${nginx.skipReason}` : ''}`,
  () => {
    it('passes nginx -t as shipped (only its certificate and log file moved into the test folder)', () => {
      const dir = tempDir('leadscan-nginx-');
      const { cert, key } = testCertificate(dir);
      const site = substitute(
        fs.readFileSync(path.join(DEPLOY, 'nginx.conf'), 'utf8'),
        [
          ['/etc/letsencrypt/live/leads.example.com/fullchain.pem', cert],
          ['/etc/letsencrypt/live/leads.example.com/privkey.pem', key],
          ['/var/log/nginx/leadscan-access.log', path.join(dir, 'access.log')],
        ],
        'deploy/nginx.conf',
      );
      fs.writeFileSync(path.join(dir, 'leadscan.conf'), site);
      fs.writeFileSync(path.join(dir, 'nginx.conf'), mainConfig(dir, path.join(dir, 'leadscan.conf')));
      const result = spawnSync(
        nginx.path!,
        ['-t', '-p', dir, '-e', path.join(dir, 'error.log'), '-c', path.join(dir, 'nginx.conf')],
        { encoding: 'utf8' },
      );
      expect({ status: result.status, output: result.stderr }).toEqual({
        status: 0,
        output: expect.stringContaining('test is successful'),
      });
      expect(result.stderr).not.toMatch(/\[warn\]|\[emerg\]/);
    });

    // Its own block: a proxy that does not start fails these, not the check above.
    describe('in front of a real Leadscan', () => {
      behindProxy({
        async start({ dir, httpsPort, httpPort, upstreamPort }) {
          const { ca, cert, key } = testCertificate(dir);
          const accessLog = path.join(dir, 'access.log');
          fs.mkdirSync(path.join(dir, 'www'));
          const site = substitute(
            fs.readFileSync(path.join(DEPLOY, 'nginx.conf'), 'utf8'),
            [
              ['\tlisten 80;\n', `\tlisten 127.0.0.1:${httpPort};\n`],
              ['\tlisten [::]:80;\n', ''],
              ['\tlisten 443 ssl http2;\n', `\tlisten 127.0.0.1:${httpsPort} ssl http2;\n`],
              ['\tlisten [::]:443 ssl http2;\n', ''],
              ['server_name leads.example.com;', 'server_name localhost;'],
              ['/etc/letsencrypt/live/leads.example.com/fullchain.pem', cert],
              ['/etc/letsencrypt/live/leads.example.com/privkey.pem', key],
              ['server 127.0.0.1:3000;', `server 127.0.0.1:${upstreamPort};`],
              ['/var/log/nginx/leadscan-access.log', accessLog],
              ['root /var/www/html;', `root ${path.join(dir, 'www')};`],
            ],
            'deploy/nginx.conf',
          );
          fs.writeFileSync(path.join(dir, 'leadscan.conf'), site);
          const file = path.join(dir, 'nginx.conf');
          fs.writeFileSync(file, mainConfig(dir, path.join(dir, 'leadscan.conf')));
          const proc = foreground(nginx.path!, ['-p', dir, '-e', path.join(dir, 'error.log'), '-c', file], {});
          await waitForProxy(
            `https://localhost:${httpsPort}/healthz`,
            () => ca,
            () =>
              `${proc.output()}${fs.existsSync(path.join(dir, 'error.log')) ? fs.readFileSync(path.join(dir, 'error.log'), 'utf8') : ''}`,
          );
          return {
            ca,
            accessLog,
            async stop() {
              // SIGQUIT: nginx's graceful shutdown.
              proc.child.kill('SIGQUIT');
              await proc.exited;
            },
          };
        },
      });
    });
  },
);
