import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { behindProxy, foreground, waitForProxy } from './behind-proxy.js';
import { tempDir } from '../helpers/backends.js';
import { DEPLOY, substitute, systemTool } from './tools.js';

const caddy = systemTool('caddy', 'apt-get install caddy');

/**
 * deploy/Caddyfile in front of Leadscan, as a test copy: a localhost site on free ports with `tls internal`, and
 * Caddy's storage, configuration and PKI in the test's own folder, so it never touches the system trust store.
 */
describe.skipIf(caddy.skipReason !== undefined)(
  `behind Caddy (deploy/Caddyfile)${caddy.skipReason ? ` SKIPPED: ${caddy.skipReason}` : ''}`,
  () => {
    it('validates as shipped (only its log file moved into the test folder)', () => {
      const dir = tempDir('leadscan-caddy-');
      const file = path.join(dir, 'Caddyfile');
      const shipped = fs.readFileSync(path.join(DEPLOY, 'Caddyfile'), 'utf8');
      fs.writeFileSync(
        file,
        substitute(shipped, [['/var/log/caddy/leadscan-access.log', path.join(dir, 'access.log')]], 'deploy/Caddyfile'),
      );
      const home = { HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'config'), XDG_DATA_HOME: path.join(dir, 'data') };
      const result = spawnSync(caddy.path!, ['validate', '--config', file, '--adapter', 'caddyfile'], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', ...home },
      });
      expect({ status: result.status, output: result.status === 0 ? '' : result.stderr }).toEqual({
        status: 0,
        output: '',
      });
      // `caddy fmt` leaves it as it is: the file is in Caddy's own layout.
      expect(spawnSync(caddy.path!, ['fmt', file], { encoding: 'utf8' }).stdout).toBe(fs.readFileSync(file, 'utf8'));
    });

    // Its own block: a proxy that does not start fails these, not the check above.
    describe('in front of a real Leadscan', () => {
      behindProxy({
        async start({ dir, httpsPort, httpPort, upstreamPort }) {
          const accessLog = path.join(dir, 'access.log');
          const config = substitute(
            fs.readFileSync(path.join(DEPLOY, 'Caddyfile'), 'utf8'),
            [
              [
                /^\{$/m,
                `{\n\tadmin off\n\tstorage file_system ${dir}/storage\n\tskip_install_trust\n\thttp_port ${httpPort}\n\thttps_port ${httpsPort}\n\tauto_https disable_redirects`,
              ],
              ['leads.example.com {', `https://localhost:${httpsPort} {\n\ttls internal`],
              ['reverse_proxy 127.0.0.1:3000', `reverse_proxy 127.0.0.1:${upstreamPort}`],
              ['/var/log/caddy/leadscan-access.log', accessLog],
            ],
            'deploy/Caddyfile',
          );
          const file = path.join(dir, 'Caddyfile');
          fs.writeFileSync(file, config);
          const home = { HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'config'), XDG_DATA_HOME: path.join(dir, 'data') };
          const proc = foreground(caddy.path!, ['run', '--config', file, '--adapter', 'caddyfile'], home);
          const rootCa = path.join(dir, 'storage', 'pki', 'authorities', 'local', 'root.crt');
          const ca = () => (fs.existsSync(rootCa) ? fs.readFileSync(rootCa, 'utf8') : undefined);
          await waitForProxy(`https://localhost:${httpsPort}/healthz`, ca, proc.output);
          return {
            ca: ca()!,
            accessLog,
            async stop() {
              proc.child.kill('SIGTERM');
              await proc.exited;
            },
          };
        },
      });
    });
  },
);
