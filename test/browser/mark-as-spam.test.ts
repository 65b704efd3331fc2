import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSession } from '../../src/domain/auth/sessions.js';
import { createUser } from '../../src/domain/users/create-user.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { launchChromium } from './chromium.js';

/**
 * A member marks a lead as spam from its page in a real browser (after the confirmation), finds it on Quarantine
 * with who marked it, and Restore brings the same lead back; a later lead with the same email in another case is
 * marked Possible duplicate in the inbox and on its page.
 */
describeEachBackend('Mark as spam and Possible duplicate in Chromium', (backend) => {
  let browser: Browser;
  let world: TestWorld;
  let seeded: Seeded;
  let base: string;

  beforeAll(async () => {
    browser = await launchChromium();
    world = await createWorld(backend, { env: { LOAD_SHED_EVENT_LOOP_DELAY_MS: '0' } });
    seeded = await world.seed('Harbor Renovations');
    base = await world.listen();
  });
  afterAll(async () => {
    await browser?.close();
    await world?.close();
  });

  const post = async (body: Record<string, string>) => {
    const res = await fetch(`${base}/api/intake/${seeded.source.token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { id: string }).id;
  };

  it('Mark as spam on the lead page, Restore on Quarantine, and the duplicate mark', async () => {
    const leadId = await post({ name: 'Grace Hopper', email: 'grace@example.com', phone: '+1 (415) 555-0100' });
    const tom = await createUser({
      ctx: world.ctx,
      input: {
        email: 'tom@harbor.example',
        workspaceId: seeded.workspaceId,
        role: 'member',
        displayName: 'Tom Becker',
      },
    });
    const { sessionId } = await createSession({ ctx: world.ctx, input: { userId: tom.userId } });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      await context.addCookies([{ name: 'leadscan_session', value: sessionId, url: base }]);
      const page = await context.newPage();
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.accept();
      });
      await page.goto(`${base}/w/${seeded.workspaceId}/leads/${leadId}`);
      await page.getByRole('button', { name: 'Mark as spam' }).click();
      await page.waitForURL(/\/quarantine\?notice=marked-spam/);
      expect(dialogs).toEqual([expect.stringContaining('Quarantine')]);
      const item = page.locator('.quarantine-item', { hasText: 'Grace Hopper' });
      await expect(item.locator('.reason').textContent()).resolves.toBe('Marked as spam by Tom Becker');
      expect(
        await world.store.db.selectFrom('leads').select('id').where('id', '=', leadId).executeTakeFirst(),
      ).toBeUndefined();

      await item.getByRole('button', { name: 'Restore' }).click();
      await page.waitForURL(new RegExp(`/leads/${leadId}\\?notice=restored`));
      await expect(page.locator('#lead-fields').textContent()).resolves.toContain('grace@example.com');

      const againId = await post({ name: 'Grace H.', email: 'GRACE@Example.com ' });
      await page.goto(`${base}/w/${seeded.workspaceId}/leads?dup=1`);
      const rows = page.locator('#leads tbody tr');
      await expect(rows.count()).resolves.toBe(1);
      await expect(rows.first().textContent()).resolves.toContain('Possible duplicate');
      await rows.first().getByRole('link', { name: 'Grace H.' }).click();
      await page.waitForURL(new RegExp(`/leads/${againId}`));
      await expect(page.locator('#possible-duplicate a').getAttribute('href')).resolves.toBe(
        `/w/${seeded.workspaceId}/leads/${leadId}`,
      );
    } finally {
      await context.close();
    }
  }, 120_000);
});
