import { afterAll, beforeAll, expect, it } from 'vitest';
import { updateWorkspaceSettings } from '../../../src/domain/settings/update-workspace-settings.js';
import { getWorkspaceSettings } from '../../../src/domain/settings/workspace-settings.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { createWorld, type TestWorld } from '../../helpers/test-app.js';

describeEachBackend('workspace settings for quotes', (backend) => {
  let world: TestWorld;
  beforeAll(async () => {
    world = await createWorld(backend);
  });
  afterAll(async () => {
    await world.close();
  });

  it('defaults to USD, en-US, no taxes, 30 days', async () => {
    const { workspaceId } = await world.seed('Defaults');
    const s = await getWorkspaceSettings({ ctx: world.ctx, input: { workspaceId } });
    expect(s).toMatchObject({
      currency: 'USD',
      locale: 'en-US',
      taxes: [],
      quoteValidDays: 30,
      quoteTerms: null,
      taxNumbers: [],
    });
  });

  it('sets currency, locale, taxes (three at most, NAME=off removes), validity, terms and business details', async () => {
    const { workspaceId } = await world.seed('Quebec');
    const ctx = world.ctx;
    const s = await updateWorkspaceSettings({
      ctx,
      input: {
        workspaceId,
        currency: 'cad',
        locale: 'fr-ca',
        taxes: [
          { name: 'GST', rate: '5' },
          { name: 'QST', rate: '9.975' },
          { name: 'Eco', rate: '1.5', onByDefault: false },
        ],
        quoteValidDays: '45',
        quoteTerms: 'Half up front.\nBalance on completion.',
        businessAddress: '1 rue Principale\nMontréal',
        businessPhone: '+1 514 555 0100',
        businessEmail: 'office@example.com',
        taxNumbers: [{ name: 'GST/HST', value: '123456789 RT0001' }],
      },
    });
    expect(s).toMatchObject({
      currency: 'CAD',
      locale: 'fr-CA',
      taxes: [
        { name: 'GST', rate: 5000, onByDefault: true },
        { name: 'QST', rate: 9975, onByDefault: true },
        { name: 'Eco', rate: 1500, onByDefault: false },
      ],
      quoteValidDays: 45,
      quoteTerms: 'Half up front.\nBalance on completion.',
      businessEmail: 'office@example.com',
      taxNumbers: [{ name: 'GST/HST', value: '123456789 RT0001' }],
    });
    await expect(
      updateWorkspaceSettings({ ctx, input: { workspaceId, taxes: [{ name: 'PST', rate: '7' }] } }),
    ).rejects.toMatchObject({
      code: 'invalid_fields',
      fieldErrors: [{ field: 'taxes', code: 'too_many' }],
    });
    const after = await updateWorkspaceSettings({
      ctx,
      input: {
        workspaceId,
        taxes: [
          { name: 'eco', rate: 'off' },
          { name: 'PST', rate: '7' },
        ],
        taxNumbers: [{ name: 'gst/hst', value: '' }],
      },
    });
    expect(after.taxes.map((t) => t.name)).toEqual(['GST', 'QST', 'PST']);
    expect(after.taxNumbers).toEqual([]);
    const cleared = await updateWorkspaceSettings({ ctx, input: { workspaceId, quoteTerms: '', businessEmail: '' } });
    expect(cleared.quoteTerms).toBeNull();
    expect(cleared.businessEmail).toBeNull();
  });

  it('refuses every bad value at once, each next to its field, and changes nothing', async () => {
    const { workspaceId } = await world.seed('Refusals');
    const error = await updateWorkspaceSettings({
      ctx: world.ctx,
      input: {
        workspaceId,
        currency: 'XYZQ',
        locale: 'not a locale!',
        taxes: [{ name: 'GST', rate: '9.9755' }],
        quoteValidDays: '0',
        businessEmail: 'nobody',
      },
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_fields' });
    const fields = (error as { fieldErrors: Array<{ field: string }> }).fieldErrors.map((f) => f.field).sort();
    expect(fields).toEqual(['businessEmail', 'currency', 'locale', 'quoteValidDays', 'taxes']);
    expect(await getWorkspaceSettings({ ctx: world.ctx, input: { workspaceId } })).toMatchObject({
      currency: 'USD',
      taxes: [],
    });
  });
});
