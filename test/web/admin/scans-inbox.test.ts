import { expect, it } from 'vitest';
import { erasePerson } from '../../../src/domain/persons/erase-person.js';
import { deleteLead } from '../../../src/domain/leads/delete-lead.js';
import { describeEachBackend } from '../../helpers/backends.js';
import type { Person } from '../../helpers/admin-security.js';
import { useAdminFixture } from '../../helpers/admin-fixture.js';
import { cliJson, runCli } from '../../helpers/cli.js';
import { inWorkspace } from '../../../src/domain/context.js';

describeEachBackend('the Scans inbox: New marks, Not attached / All, scans attached to leads', (backend) => {
  const f = useAdminFixture(backend);

  const get = (url: string, as: Person = f.owner) =>
    f.app.inject({ method: 'GET', url, headers: { cookie: as.cookie } });
  const post = (url: string, fields: Record<string, string> = {}, as: Person = f.owner) =>
    f.app.inject({
      method: 'POST',
      url,
      headers: { cookie: as.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: as.csrf, ...fields }).toString(),
    });
  const ws = (rest = '') => `/w/${f.home.workspaceId}${rest}`;
  const scanLead = async () =>
    (
      await f.world.store.db
        .selectFrom('scans')
        .select('lead_id')
        .where('id', '=', f.homeScanId)
        .executeTakeFirstOrThrow()
    ).lead_id ?? null;

  it('a new scan is New for the whole workspace until someone opens it, and the top bar counts it', async () => {
    const list = await get(ws('/scans'));
    expect(list.body).toMatch(
      /<a href="\/w\/ws_[0-9a-f]+\/scans"[^>]*>Scans <span class="count" aria-label="1 new">1<\/span>/,
    );
    expect(list.body).toContain('<span class="badge new">New</span>');
    // A member opens it: it is opened for the owner too.
    expect((await get(ws(`/scans/${f.homeScanId}`), f.member)).statusCode).toBe(200);
    const after = await get(ws('/scans'));
    expect(after.body).not.toContain('<span class="badge new">New</span>');
    expect(after.body).not.toMatch(/Scans <span class="count"/);
    // Downloading the bytes does not count as opening; the other workspace's mark is its own.
    expect(await f.world.store.db.selectFrom('scan_unread').select('scan_id').execute()).toEqual([
      { scan_id: f.awayScanId },
    ]);
  });

  it('a member attaches a scan to a lead found by phone; it leaves Not attached, shows on the lead, and detaches', async () => {
    const found = await get(ws(`/scans/${f.homeScanId}?find=${encodeURIComponent('555 0100')}`), f.member);
    expect(found.body).toContain('Home lead');
    expect(found.body).toContain(`name="leadId" value="${f.extra.homeLeadId}"`);
    // The other workspace's lead is never offered, and cannot be attached by id.
    expect(found.body).not.toContain('Away lead');
    const foreign = await post(ws(`/scans/${f.homeScanId}/attach`), { leadId: f.extra.awayLeadId! }, f.member);
    expect(foreign.statusCode).toBe(404);
    expect(await scanLead()).toBeNull();

    const attached = await post(ws(`/scans/${f.homeScanId}/attach`), { leadId: f.extra.homeLeadId! }, f.member);
    expect(attached.statusCode).toBe(303);
    expect(await scanLead()).toBe(f.extra.homeLeadId);
    expect((await get(ws('/scans'))).body).not.toContain(`/scans/${f.homeScanId}"`);
    const all = await get(ws('/scans?scans=all'));
    expect(all.body).toContain(`/scans/${f.homeScanId}"`);
    expect(all.body).toContain('Home lead');
    const leadPage = await get(ws(`/leads/${f.extra.homeLeadId}`));
    expect(leadPage.body).toContain(`href="/w/${f.home.workspaceId}/scans/${f.homeScanId}"`);

    expect((await post(ws(`/scans/${f.homeScanId}/detach`), {}, f.member)).statusCode).toBe(303);
    expect(await scanLead()).toBeNull();
    expect((await get(ws('/scans'))).body).toContain(`/scans/${f.homeScanId}"`);
  });

  it('deleting or erasing the lead keeps the scan and drops the link', async () => {
    await post(ws(`/scans/${f.homeScanId}/attach`), { leadId: f.extra.homeLeadId! });
    await deleteLead({ ctx: inWorkspace(f.world.ctx, f.home.workspaceId), input: { id: f.extra.homeLeadId! } });
    expect(await scanLead()).toBeNull();
    expect(
      await f.world.store.db.selectFrom('scans').select('id').where('id', '=', f.homeScanId).execute(),
    ).toHaveLength(1);

    const away = f.awayScanId;
    await f.world.store.db.updateTable('scans').set({ lead_id: f.extra.awayLeadId! }).where('id', '=', away).execute();
    await erasePerson({ ctx: inWorkspace(f.world.ctx, f.away.workspaceId), input: { phone: '555 0199' } });
    const row = await f.world.store.db
      .selectFrom('scans')
      .select('lead_id')
      .where('id', '=', away)
      .executeTakeFirstOrThrow();
    expect(row.lead_id ?? null).toBeNull();
  });

  it('the CLI attaches and detaches, and lists only unattached scans on request', async () => {
    const env = { DATABASE_URL: f.world.testDb.url, APP_SECRET: f.world.appSecret };
    expect(await cliJson(['scans', 'attach', f.homeScanId, '--lead', f.extra.homeLeadId!], env)).toEqual({
      scanId: f.homeScanId,
      leadId: f.extra.homeLeadId,
    });
    const unattached = await cliJson<Array<{ id: string }>>(
      ['scans', 'list', '--workspace', f.home.workspaceId, '--unattached'],
      env,
    );
    expect(unattached).toEqual([]);
    const every = await cliJson<Array<{ id: string; lead: { id: string } | null }>>(
      ['scans', 'list', '--workspace', f.home.workspaceId],
      env,
    );
    expect(every.map((s) => [s.id, s.lead?.id])).toEqual([[f.homeScanId, f.extra.homeLeadId]]);
    // A lead of another workspace is refused like a missing one.
    const refused = await runCli(['scans', 'attach', f.homeScanId, '--lead', f.extra.awayLeadId!, '--json'], env);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ ok: false, code: 'lead_not_found' });
    expect(await cliJson(['scans', 'detach', f.homeScanId], env)).toEqual({ scanId: f.homeScanId });
    expect(await scanLead()).toBeNull();
  });
});
