import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSession } from '../../src/domain/auth/sessions.js';
import { createUser } from '../../src/domain/users/create-user.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { launchChromium } from './chromium.js';

/** Set LEADSCAN_SCREENSHOTS=dir to keep the lead page at 1280 and 390 px. */
const SHOTS = process.env.LEADSCAN_SCREENSHOTS;

/**
 * The daily work on a lead in a real browser: an owner adds a note, assigns the lead to a member and sets a
 * follow-up date; the lead is then under Follow-up due, and the member, signed in, finds it under Assigned to me.
 */
describeEachBackend('Notes, assignee and follow-up in Chromium', (backend) => {
  let browser: Browser;
  let world: TestWorld;
  let seeded: Seeded;
  let base: string;
  const contexts: BrowserContext[] = [];
  let leadId: string;
  let otherId: string;

  async function signedIn(userId: string): Promise<Page> {
    const { sessionId } = await createSession({ ctx: world.ctx, input: { userId } });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    await context.addCookies([{ name: 'leadscan_session', value: sessionId, url: base }]);
    const page = await context.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    return page;
  }

  let owner: Page;
  let member: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    world = await createWorld(backend, { env: { LOAD_SHED_EVENT_LOOP_DELAY_MS: '0' } });
    seeded = await world.seed('Harbor Renovations');
    base = await world.listen();
    const post = async (body: Record<string, string>) => {
      const res = await fetch(`${base}/api/intake/${seeded.source.token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { id: string }).id;
    };
    leadId = await post({
      name: 'Grace Hopper',
      phone: '+1 514-555-0199',
      email: 'grace@example.com',
      notes: 'Kitchen refit, 12 m²',
      budget: '25,000',
    });
    otherId = await post({ name: 'Alan Turing', phone: '+1 514-555-0142' });
    const ann = await createUser({
      ctx: world.ctx,
      input: { email: 'ann@harbor.example', workspaceId: seeded.workspaceId, role: 'owner', displayName: 'Ann Owner' },
    });
    const tom = await createUser({
      ctx: world.ctx,
      input: {
        email: 'tom@harbor.example',
        workspaceId: seeded.workspaceId,
        role: 'member',
        displayName: 'Tom Becker',
      },
    });
    owner = await signedIn(ann.userId);
    member = await signedIn(tom.userId);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await world?.close();
  });

  const inbox = () => `${base}/w/${seeded.workspaceId}/pipelines/${seeded.pipelineId}/leads`;
  const rowNames = async (page: Page) =>
    (await page.locator('#leads tbody tr td:first-child a').allTextContents()).map((t) => t.trim());

  it('adds a note, assigns the lead to a member, sets a follow-up, and lists it under Follow-up due', async () => {
    await owner.goto(`${base}/w/${seeded.workspaceId}/leads/${leadId}`);
    await owner.getByLabel('Add a note').fill('Called, back Tuesday.\nWants a quote for the island too.');
    await owner.getByRole('button', { name: 'Add note' }).click();
    await owner.waitForURL(/notice=note-added/);
    expect(await owner.locator('#notes').innerText()).toContain(
      'Called, back Tuesday.\nWants a quote for the island too.',
    );
    expect(await owner.locator('#notes').innerText()).toContain('Ann Owner');

    await owner.getByLabel('Assigned to').selectOption({ label: 'Tom Becker' });
    await owner.getByRole('button', { name: 'Assign', exact: true }).click();
    await owner.waitForURL(/notice=lead-assigned/);
    expect(await owner.locator('#assignee').innerText()).toContain('Tom Becker');

    // Today in the workspace's time zone (UTC unless set) is due.
    const today = new Date().toISOString().slice(0, 10);
    await owner.getByLabel('Follow up on').fill(today);
    await owner.getByRole('button', { name: 'Set date' }).click();
    await owner.waitForURL(/notice=follow-up-saved/);
    expect(await owner.locator('#follow-up').innerText()).toContain('Due');
    const history = await owner.locator('#history').innerText();
    expect(history).toContain('Assigned to Tom Becker by Ann Owner');
    expect(history).toContain(`Follow-up set to ${today} by Ann Owner`);

    if (SHOTS) {
      fs.mkdirSync(SHOTS, { recursive: true });
      for (const width of [1280, 390]) {
        await owner.setViewportSize({ width, height: 900 });
        await owner.screenshot({ path: path.join(SHOTS, `lead-work-${backend}-${width}.png`), fullPage: true });
      }
      await owner.setViewportSize({ width: 1280, height: 900 });
    }

    await owner.goto(inbox());
    expect((await rowNames(owner)).sort()).toEqual(['Alan Turing', 'Grace Hopper']);
    await owner.getByLabel('Follow-up due').check();
    await owner.getByRole('button', { name: 'Apply' }).click();
    await owner.waitForURL(/due=1/);
    expect(await rowNames(owner)).toEqual(['Grace Hopper']);
    if (SHOTS)
      await owner.screenshot({ path: path.join(SHOTS, `lead-work-inbox-${backend}-1280.png`), fullPage: true });
    await owner.goto(`${inbox()}?assigned=none`);
    expect(await rowNames(owner)).toEqual(['Alan Turing']);
    expect(otherId).toBeTruthy();
  }, 120_000);

  it('shows the member the lead under Assigned to me, and the owner nothing there', async () => {
    await member.goto(inbox());
    await member.getByLabel('Assigned', { exact: true }).selectOption({ label: 'Assigned to me' });
    await member.getByRole('button', { name: 'Apply' }).click();
    await member.waitForURL(/assigned=me/);
    expect(await rowNames(member)).toEqual(['Grace Hopper']);
    await owner.goto(`${inbox()}?assigned=me`);
    expect(await rowNames(owner)).toEqual([]);
    // The member opens it and sees the owner's note, without a Delete for it.
    await member.getByRole('link', { name: 'Grace Hopper' }).click();
    await member.waitForURL(`**/leads/${leadId}`);
    expect(await member.locator('#notes').innerText()).toContain('Called, back Tuesday.');
    expect(await member.locator('#notes').getByRole('button', { name: 'Delete' }).count()).toBe(0);
  }, 120_000);
});
