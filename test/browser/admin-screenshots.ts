/**
 * Screenshots of the web app for the README (docs/*.png): `node --import tsx test/browser/admin-screenshots.ts`.
 * A throwaway SQLite database with believable data, a signed-in owner, Chromium at 1280 and 390 px wide.
 * `SHOTS_DIR=/tmp/shots` writes there instead, every screen at both widths, plus a member refused an owner's page.
 */
import path from 'node:path';
import { createSession } from '../../src/domain/auth/sessions.js';
import { createSource } from '../../src/domain/sources/create-source.js';
import { setSourceActive } from '../../src/domain/sources/set-source-active.js';
import { updateSpamRules } from '../../src/domain/sources/update-spam-rules.js';
import { markAsSpam } from '../../src/domain/quarantine/mark-as-spam.js';
import { createUser } from '../../src/domain/users/create-user.js';
import { setPasswordWithLink } from '../../src/domain/auth/setup-links.js';
import { resetPassword } from '../../src/domain/users/reset-password.js';
import { acceptInvitation } from '../../src/domain/invitations/accept-invitation.js';
import { listInvitationsFor } from '../../src/domain/invitations/list-invitations.js';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createPipeline } from '../../src/domain/pipelines/create-pipeline.js';
import { createWorkspace } from '../../src/domain/workspaces/create-workspace.js';
import { createDomainContext } from '../../src/runtime.js';
import { openDatabase } from '../../src/storage/database.js';
import { launchChromium } from './chromium.js';
import { userActor } from '../../src/domain/audit/actor.js';
import { regenerateUploadKey } from '../../src/domain/keys/regenerate-upload-key.js';
import { showUploadKey } from '../../src/domain/keys/show-upload-key.js';
import { exportPerson } from '../../src/domain/persons/export-person.js';
import { runRetention } from '../../src/domain/retention/run-retention.js';
import { updateWorkspaceSettings } from '../../src/domain/settings/update-workspace-settings.js';
import { rectangularRoom } from '../fixtures/roomplan.js';
import { inWorkspace } from '../../src/domain/context.js';

const OUT = process.env.SHOTS_DIR
  ? path.resolve(process.env.SHOTS_DIR)
  : path.resolve(import.meta.dirname, '../../docs');
const EVERY_SCREEN = Boolean(process.env.SHOTS_DIR);

// Not the vitest helpers (they need a running vitest): the same parts, put together by hand.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadscan-shots-'));
const appSecret = crypto.randomBytes(32).toString('base64url');
const config = loadConfig({
  DATABASE_URL: path.join(dir, 'shots.sqlite'),
  APP_SECRET: appSecret,
  LOG_LEVEL: 'silent',
  PUBLIC_BASE_URL: 'https://leads.harbor-renovations.com',
  INTAKE_RATE_LIMIT: '0',
  // Email on (the Notifications screen says through which relay); nothing is sent, the notifier is not started.
  SMTP_URL: 'smtp://leadscan:not-a-real-password@smtp.mail-relay.example:587',
  MAIL_FROM: 'Harbor Leads <leads@harbor-renovations.com>',
});
const store = openDatabase(config.database);
await store.migrate();
const ctx = createDomainContext({ config, store, appSecret });
const app = await buildApp(ctx, { logger: false });
try {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const workspace = await createWorkspace({ ctx, input: { name: 'Harbor Renovations' } });
  const pipeline = await createPipeline({ ctx: inWorkspace(ctx, workspace.id), input: { name: 'Sales' } });
  const source = await createSource({
    ctx: inWorkspace(ctx, workspace.id),
    input: { pipelineId: pipeline.id, name: 'Website form' },
  });
  const seeded = { workspaceId: workspace.id, pipelineId: pipeline.id, uploadKey: workspace.uploadKey, source };
  const roofing = await createWorkspace({ ctx, input: { name: 'Harbor Roofing' } });
  const landing = await createSource({
    ctx: inWorkspace(ctx, seeded.workspaceId),
    input: { pipelineId: seeded.pipelineId, name: 'Kitchen landing page' },
  });
  const ads = await createSource({
    ctx: inWorkspace(ctx, seeded.workspaceId),
    input: { pipelineId: seeded.pipelineId, name: 'Spring ads (Facebook)' },
  });
  await setSourceActive({ ctx, input: { sourceId: ads.id, active: false } });
  const names = [
    'Ada Lovelace',
    'Grace Hopper',
    'Alan Turing',
    'Katherine Johnson',
    'Edsger Dijkstra',
    'Barbara Liskov',
  ];
  const messages = [
    'Kitchen remodel, about 12 m². We would like a quote before the summer.\nCabinets stay.',
    'Leaking skylight in the upstairs bathroom; water comes in when it rains hard.',
    '',
    'Looking to finish the basement: flooring, drywall and a small bathroom. Flexible on timing, budget around 30k.',
    'Two windows in the living room need replacing.',
    'Deck repair',
  ];
  // The pages the leads came from: ads and a newsletter carry their campaign in the address (utm_…, gclid).
  const pages = [
    'https://www.harbor-renovations.com/kitchens?utm_source=google&utm_medium=cpc&utm_campaign=spring-kitchens&gclid=EAIaIQobChMI7',
    'https://www.harbor-renovations.com/contact?utm_source=facebook&utm_medium=social&utm_campaign=roof-check',
    undefined,
    'https://www.harbor-renovations.com/basements?utm_source=google&utm_medium=cpc&utm_campaign=basement-finishing&gclid=Cj0KCQjw',
    'https://www.harbor-renovations.com/windows?utm_source=newsletter&utm_medium=email&utm_campaign=may-2026',
    undefined,
  ];
  const leadIds: string[] = [];
  for (const [i, name] of names.entries()) {
    const token = i % 3 === 2 ? landing.token : seeded.source.token;
    const email = i % 2 === 0 ? `${name.split(' ')[0]!.toLowerCase()}@example.com` : undefined;
    const pageUrl = pages[i];
    const res = await app.inject({
      method: 'POST',
      url: `/api/intake/${token}`,
      payload: {
        name,
        phone: '+1 415 555 01' + String(10 + i),
        ...(email ? { email } : {}),
        ...(messages[i] ? { notes: messages[i] } : {}),
        ...(pageUrl ? { pageUrl } : {}),
      },
    });
    leadIds.push((res.json() as { id: string }).id);
  }
  // Ada writes again a day later, her email in capitals and her phone written another way: a possible duplicate.
  const again = await app.inject({
    method: 'POST',
    url: `/api/intake/${seeded.source.token}`,
    payload: {
      name: 'Ada Lovelace',
      email: 'ADA@example.com',
      phone: '(415) 555-0110',
      notes: 'Following up on my kitchen quote: can you also look at the pantry?',
    },
  });
  const duplicateId = (again.json() as { id: string }).id;
  // Spam rules on the website form, and what they, the trap field and a person caught.
  await updateSpamRules({
    ctx: inWorkspace(ctx, seeded.workspaceId),
    input: {
      sourceId: seeded.source.id,
      set: {
        blockedEmails: ['offers@seo-rocket.example'],
        blockedDomains: ['cheap-leads.example'],
        blockedWords: ['casino', 'crypto investment', 'backlinks'],
        allowedSites: ['www.harbor-renovations.com', '*.harbor-renovations.com'],
      },
    },
  });
  for (const [payload, origin] of [
    [
      {
        name: 'Rank First SEO',
        email: 'offers@seo-rocket.example',
        notes: 'We can put your site on page one of Google.',
      },
      'https://www.harbor-renovations.com',
    ],
    [
      { name: 'Jake', email: 'jake@mail.example', notes: 'Quality backlinks for your renovation site, 50% off' },
      'https://www.harbor-renovations.com',
    ],
    [
      { name: 'Lena Park', email: 'lena@example.com', notes: 'Bathroom tiles, small job' },
      'https://contractor-directory.example',
    ],
    [{ name: 'zzz', email: 'bot@example.net', website: 'https://spam.example' }, 'https://www.harbor-renovations.com'],
  ] as const) {
    await app.inject({ method: 'POST', url: `/api/intake/${seeded.source.token}`, headers: { origin }, payload });
  }
  // The landing page's source has a bot check: its leads passed it (set here rather than through a provider).
  await store.db.updateTable('leads').set({ bot_check: 'passed' }).where('source_id', '=', landing.id).execute();
  const uploads = [
    ['Kitchen', 'Dining room', 'Hall'],
    ['Primary bedroom', 'Ensuite bathroom'],
    ['Basement'],
    ['Living room', 'Kitchen', 'Pantry', 'Laundry'],
  ];
  const agents = [
    'RoomScan Pro/3.2 (iPhone15,3; iOS 17.5)',
    'RoomScan Pro/3.2 (iPad13,4; iPadOS 17.4)',
    'MagicPlan/9.1 (Pixel 8; Android 14)',
  ];
  for (const [i, rooms] of uploads.entries()) {
    const body = JSON.stringify({
      rooms: rooms.map((name) => ({
        name,
        floor: 0,
        walls: Array.from({ length: 40 + i * 30 }, (_, w) => ({ id: w, length: 2.5 })),
      })),
    });
    await app.inject({
      method: 'POST',
      url: '/api/scan/upload',
      headers: { 'x-scan-key': seeded.uploadKey, 'user-agent': agents[i % agents.length]! },
      payload: body,
    });
  }
  const owner = await createUser({
    ctx,
    input: {
      email: 'maria@harbor-renovations.com',
      displayName: 'Maria Santos',
      workspaceId: seeded.workspaceId,
      role: 'owner',
    },
  });
  await createUser({
    ctx,
    input: {
      email: 'tom@harbor-renovations.com',
      displayName: 'Tom Becker',
      workspaceId: seeded.workspaceId,
      role: 'member',
    },
  });
  // Maria proves her email through the operator's link, then accepts the second workspace's invitation.
  // (Email is on, so the invitation went to the outbox; the operator's link stands in for it.)
  const link = await resetPassword({ ctx, input: { email: owner.email } });
  await setPasswordWithLink({
    ctx,
    input: { token: new URL(link.setupUrl).pathname.split('/').pop()!, password: 'screenshot password' },
  });
  await createUser({ ctx, input: { email: 'maria@harbor-renovations.com', workspaceId: roofing.id, role: 'owner' } });
  const [invitation] = await listInvitationsFor({ ctx, input: { userId: owner.userId } });
  await acceptInvitation({ ctx, input: { userId: owner.userId, invitationId: invitation!.invitationId } });
  // A pending invitation each way: Lee (an account of Harbor Roofing) into Harbor Renovations, Maria into Harbor Decks.
  await createUser({ ctx, input: { email: 'lee@harbor-roofing.com', workspaceId: roofing.id, role: 'member' } });
  await createUser({
    ctx,
    input: {
      email: 'lee@harbor-roofing.com',
      workspaceId: seeded.workspaceId,
      role: 'member',
      invitedBy: { userId: owner.userId, email: owner.email },
    },
  });
  const decks = await createWorkspace({ ctx, input: { name: 'Harbor Decks' } });
  await createUser({ ctx, input: { email: 'maria@harbor-renovations.com', workspaceId: decks.id, role: 'member' } });
  // A measured scan from a RoomPlan app: a kitchen, an L-shaped living room and a hall scanned with it.
  const living = rectangularRoom({
    width: 6,
    length: 5,
    height: 2.5,
    at: [0, 0],
    doors: [{ wall: 0, offset: 4.6, width: 0.9, height: 2.05 }],
    windows: [
      { wall: 2, offset: 1.6, width: 1.6, height: 1.3 },
      { wall: 3, offset: 2.5, width: 1.2, height: 1.3 },
    ],
  });
  const measured = {
    rooms: [
      {
        name: 'Kitchen',
        ...rectangularRoom({
          width: 4.2,
          length: 3.1,
          height: 2.45,
          yaw: 0.2,
          doors: [{ wall: 0, offset: 1, width: 0.82, height: 2.04 }],
          windows: [{ wall: 1, offset: 1.5, width: 1.2, height: 1.1 }],
        }),
      },
      { name: 'Living room', ...living },
      {
        name: 'Hall',
        ...rectangularRoom({
          width: 1.4,
          length: 4.8,
          height: 2.45,
          missingWalls: [1],
          doors: [{ wall: 3, offset: 1.2, width: 0.9, height: 2.05 }],
        }),
      },
    ],
  };
  const measuredUpload = await app.inject({
    method: 'POST',
    url: '/api/scan/upload',
    headers: {
      'x-scan-key': seeded.uploadKey,
      'user-agent': 'Polycam/3.9 (iPhone15,3; iOS 17.5)',
      'content-type': 'application/json',
    },
    payload: JSON.stringify(measured),
  });
  const measuredScanId =
    (measuredUpload.json() as { scanId?: string; id?: string }).scanId ??
    (await store.db.selectFrom('scans').select('id').orderBy('received_at', 'desc').executeTakeFirstOrThrow()).id;
  // A few days of the owner's work for the Audit log, and retention chosen on Settings.
  const asMaria = { ...ctx, actor: userActor({ userId: owner.userId, displayName: 'Maria Costa' }) };
  await updateWorkspaceSettings({
    ctx: asMaria,
    input: { workspaceId: seeded.workspaceId, leadRetention: '24', scanRetention: '12' },
  });
  await showUploadKey({ ctx: inWorkspace(asMaria, seeded.workspaceId), input: { audit: 'key.shown' } });
  await regenerateUploadKey({ ctx: inWorkspace(asMaria, seeded.workspaceId), input: {} });
  await exportPerson({ ctx: inWorkspace(asMaria, seeded.workspaceId), input: { email: 'nobody@example.com' } });
  await runRetention(ctx);
  const { sessionId } = await createSession({
    ctx,
    input: { userId: owner.userId, signIn: { displayName: 'Maria Costa' } },
  });
  await markAsSpam({
    ctx: inWorkspace(ctx, seeded.workspaceId),
    input: { id: leadIds[5]!, by: { userId: owner.userId, label: 'Maria Santos' } },
  });
  const tom = await store.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'tom@harbor-renovations.com')
    .executeTakeFirstOrThrow();
  const memberSession = (await createSession({ ctx, input: { userId: tom.id } })).sessionId;

  const browser = await launchChromium();
  try {
    for (const width of [1280, 390]) {
      const context = await browser.newContext({
        viewport: { width, height: 900 },
        deviceScaleFactor: width < 500 ? 2 : 1,
      });
      await context.addCookies([{ name: 'leadscan_session', value: sessionId, url: base }]);
      const page = await context.newPage();
      const shots: Array<[string, string]> = [
        ['leads-inbox', `/w/${seeded.workspaceId}/leads`],
        ['stages', `/w/${seeded.workspaceId}/pipelines/${seeded.pipelineId}/stages`],
        ['lead-page', `/w/${seeded.workspaceId}/leads/${leadIds[3]}`],
        ['scans', `/w/${seeded.workspaceId}/scans`],
        ['sources', `/w/${seeded.workspaceId}/sources`],
        ['source', `/w/${seeded.workspaceId}/sources/${seeded.source.id}`],
        ['members', `/w/${seeded.workspaceId}/members`],
        ['account', '/account'],
        ['settings', `/w/${seeded.workspaceId}/settings`],
        ['audit', `/w/${seeded.workspaceId}/audit`],
        ['notifications', `/w/${seeded.workspaceId}/notifications`],
        ['scan', `/w/${seeded.workspaceId}/scans/${measuredScanId}`],
        ['quarantine', `/w/${seeded.workspaceId}/quarantine`],
        ['spam-rules', `/w/${seeded.workspaceId}/sources/${seeded.source.id}/spam`],
        ['duplicate-lead', `/w/${seeded.workspaceId}/leads/${duplicateId}`],
      ];
      // The README shows every screen wide, and all but Stages at phone width.
      const narrow = (n: string) => EVERY_SCREEN || n !== 'stages';
      for (const [name, url] of width < 500 ? shots.filter(([n]) => narrow(n)) : shots) {
        await page.goto(`${base}${url}`);
        await page.screenshot({ path: path.join(OUT, `${name}-${width}.png`), fullPage: true });
      }
      if (EVERY_SCREEN) {
        await context.clearCookies();
        await context.addCookies([{ name: 'leadscan_session', value: memberSession, url: base }]);
        await page.goto(`${base}/w/${seeded.workspaceId}/settings`);
        await page.screenshot({ path: path.join(OUT, `forbidden-${width}.png`), fullPage: true });
      }
      await context.close();
    }
  } finally {
    await browser.close();
  }
} finally {
  await app.close();
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
