import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import createClient from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import type { paths } from './generated/leadscan-api.js';

const run = promisify(execFile);
const GENERATED = path.join(import.meta.dirname, 'generated', 'leadscan-api.d.ts');

/**
 * The served /openapi.json checked by the tools people build with: Redocly's recommended rules pass with no error
 * and no warning, and a client generated from it (openapi-typescript types, openapi-fetch calls) posts a lead and a
 * scan. The generated types are kept in test/http/generated/ so `npm run typecheck` checks the calls below against
 * them; this test fails when the document changes and they were not regenerated (LEADSCAN_REGENERATE_CLIENT=1).
 */
describeEachBackend('the OpenAPI document with Redocly and a generated client', (backend) => {
  let world: TestWorld;
  let seeded: Seeded;
  let base: string;
  let dir: string;
  let docPath: string;

  beforeAll(async () => {
    world = await createWorld(backend);
    seeded = await world.seed();
    base = await world.listen();
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'leadscan-openapi-'));
    docPath = path.join(dir, 'openapi.json');
    await fs.writeFile(docPath, await (await fetch(`${base}/openapi.json`)).text());
  });
  afterAll(async () => {
    await world?.close();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it("passes Redocly's recommended rules with no error and no warning", async () => {
    const bin = path.resolve('node_modules/.bin/redocly');
    const { stdout, stderr } = await run(bin, ['lint', docPath, '--extends=recommended', '--format=json'], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    }).catch((e: { stdout: string; stderr: string }) => e);
    const report = JSON.parse(stdout) as {
      totals: { errors: number; warnings: number };
      problems: Array<{ ruleId: string; message: string }>;
    };
    expect(
      report.problems.map((p) => `${p.ruleId}: ${p.message}`),
      stderr,
    ).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it('generates client types equal to the kept ones, and that client posts a lead and a scan', async () => {
    const generated = astToString(await openapiTS(new URL(`file://${docPath}`)));
    // LEADSCAN_REGENERATE_CLIENT=1 rewrites the kept types after a change to the document.
    if (process.env.LEADSCAN_REGENERATE_CLIENT) await fs.writeFile(GENERATED, generated);
    expect(generated).toBe(await fs.readFile(GENERATED, 'utf8'));

    const client = createClient<paths>({ baseUrl: base });
    const lead = await client.POST('/api/intake/{token}', {
      params: { path: { token: seeded.source.token } },
      body: { name: 'Marie Tremblay', email: 'marie@example.com' },
    });
    expect(lead.response.status, JSON.stringify(lead.error)).toBe(200);
    expect(lead.data?.ok).toBe(true);

    const scan = await client.POST('/api/scan/upload', {
      params: { header: { 'x-scan-key': seeded.uploadKey } as never },
      headers: { 'x-scan-key': seeded.uploadKey },
      body: { rooms: [{ name: 'Kitchen' }] },
    });
    expect(scan.response.status).toBe(200);
    expect(scan.data?.ok).toBe(true);
  });
});
