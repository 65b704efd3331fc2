import { expect, it } from 'vitest';
import { describeEachBackend } from '../../helpers/backends.js';
import type { Person } from '../../helpers/admin-security.js';
import { useAdminFixture } from '../../helpers/admin-fixture.js';
import { cliJson, runCli } from '../../helpers/cli.js';

describeEachBackend('workspace settings: the Settings screen and `leadscan workspace settings`', (backend) => {
  const f = useAdminFixture(backend);

  const get = (url: string, as: Person = f.owner) =>
    f.app.inject({ method: 'GET', url, headers: { cookie: as.cookie } });
  const post = (url: string, fields: Record<string, string>, as: Person = f.owner) =>
    f.app.inject({
      method: 'POST',
      url,
      headers: { cookie: as.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: as.csrf, ...fields }).toString(),
    });
  const settingsRow = () =>
    f.world.store.db
      .selectFrom('workspaces')
      .select(['name', 'time_zone', 'units'])
      .where('id', '=', f.home.workspaceId)
      .executeTakeFirstOrThrow();
  const url = () => `/w/${f.home.workspaceId}/settings`;

  it('starts as UTC and metric; an owner changes name, time zone and units in one save', async () => {
    expect(await settingsRow()).toEqual({ name: 'Home', time_zone: 'UTC', units: 'metric' });
    const page = await get(url());
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<option value="UTC" selected>');
    expect(page.body).toContain('<option value="metric" selected>');
    const saved = await post(url(), { name: 'Home Renovations', timeZone: 'America/Toronto', units: 'imperial' });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe(`${url()}?notice=settings-saved`);
    expect(await settingsRow()).toEqual({ name: 'Home Renovations', time_zone: 'America/Toronto', units: 'imperial' });
    const after = await get(`${url()}?notice=settings-saved`);
    expect(after.body).toContain('Settings saved.');
    expect(after.body).toContain('<option value="America/Toronto" selected>');
  });

  it('refuses an unknown zone, bad units and a taken name next to their fields, and changes nothing', async () => {
    const before = await settingsRow();
    const bad = await post(url(), { name: 'Home', timeZone: 'Mars/Olympus_Mons', units: 'cubits' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/id="f-timeZone-error">Choose a time zone from the list/);
    expect(bad.body).toMatch(/id="f-units-error">Choose metric/);
    const taken = await post(url(), { name: 'away', timeZone: 'UTC', units: 'metric' });
    expect(taken.statusCode).toBe(409);
    expect(taken.body).toMatch(/id="f-name-error">A workspace named &quot;away&quot; already exists/);
    expect(await settingsRow()).toEqual(before);
  });

  it('the CLI shows and changes the same settings', async () => {
    const env = { DATABASE_URL: f.world.testDb.url, APP_SECRET: f.world.appSecret };
    expect(await cliJson(['workspace', 'settings', 'Home'], env)).toEqual({
      workspaceId: f.home.workspaceId,
      name: 'Home',
      timeZone: 'UTC',
      units: 'metric',
      leadRetentionMonths: null,
      scanRetentionMonths: null,
      currency: 'USD',
      locale: 'en-US',
      taxes: [],
      quoteValidDays: 30,
      quoteTerms: null,
      businessAddress: null,
      businessPhone: null,
      businessEmail: null,
      taxNumbers: [],
      deposit: null,
      followUpDays: 3,
      customerReminderDays: [],
      invoiceReminderDays: [],
      invoicePrefix: 'INV-',
      paymentTermsDays: 14,
      paymentInstructions: null,
      booksYears: 10,
    });
    const changed = await runCli(
      ['workspace', 'settings', f.home.workspaceId, '--time-zone', 'Europe/Paris', '--units', 'imperial'],
      env,
    );
    expect(changed.code).toBe(0);
    expect(changed.stdout).toBe(
      `Home (${f.home.workspaceId})\n  time zone: Europe/Paris\n  units:     imperial\n  leads kept: always\n  scans kept: always\n` +
        '  currency:  USD\n  locale:    en-US\n  taxes:     none\n  quotes valid: 30 days\n' +
        '  follow up after: 3 days\n  customer reminders: off\n  invoice reminders: off\n' +
        '  invoice numbers: INV-0001, …; payment terms: 14 days\n  books kept: 10 years\n',
    );
    const refused = await runCli(['workspace', 'settings', 'Home', '--units', 'furlongs'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Choose metric (m, m²) or imperial (ft-in, ft²)');
    expect(await settingsRow()).toEqual({ name: 'Home', time_zone: 'Europe/Paris', units: 'imperial' });
    const kept = await cliJson<{ leadRetentionMonths: number | null; scanRetentionMonths: number | null }>(
      ['workspace', 'settings', 'Home', '--lead-retention', '36', '--scan-retention', '3'],
      env,
    );
    expect(kept).toMatchObject({ leadRetentionMonths: 36, scanRetentionMonths: 3 });
    const wrong = await runCli(['workspace', 'settings', 'Home', '--lead-retention', '5'], env);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('Choose off or 3, 6, 12, 24, 36 months');
  });

  it('an owner sets retention on the screen; off by default; a value off the list is refused next to its field', async () => {
    const page = await get(url());
    expect(page.body).toContain('<legend>Retention</legend>');
    expect(page.body).toMatch(/id="f-leadRetention"[^>]*>\s*<option value="off" selected>/);
    const saved = await post(url(), {
      name: 'Home',
      timeZone: 'UTC',
      units: 'metric',
      leadRetention: '12',
      scanRetention: '24',
    });
    expect(saved.statusCode).toBe(303);
    const row = await f.world.store.db
      .selectFrom('workspaces')
      .select(['lead_retention_months', 'scan_retention_months'])
      .where('id', '=', f.home.workspaceId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ lead_retention_months: 12, scan_retention_months: 24 });
    expect((await get(url())).body).toContain('<option value="12" selected>12 months</option>');
    const bad = await post(url(), {
      name: 'Home',
      timeZone: 'UTC',
      units: 'metric',
      leadRetention: '7',
      scanRetention: 'off',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/id="f-leadRetention-error">Choose off or 3, 6, 12, 24, 36 months/);
    const records = await f.world.store.db
      .selectFrom('audit_log')
      .select(['action', 'details'])
      .where('action', '=', 'settings.changed')
      .execute();
    expect(records).toEqual([
      {
        action: 'settings.changed',
        details: JSON.stringify({ lead_retention_months: true, scan_retention_months: true }),
      },
    ]);
  });

  it('an owner sets what quotes use on the screen: currency, locale, taxes (the form replaces them), terms and business details', async () => {
    const page = await get(url());
    expect(page.body).toContain('name="currency"');
    expect(page.body).toContain('value="USD"');
    const base = { name: 'Home', timeZone: 'UTC', units: 'metric' };
    const quoteForm = {
      currency: 'cad',
      locale: 'fr-CA',
      taxName1: 'GST',
      taxRate1: '5',
      taxDefault1: 'on',
      taxName2: 'QST',
      taxRate2: '9.975',
      taxDefault2: 'on',
      taxName3: 'Eco',
      taxRate3: '1',
      quoteValidDays: '21',
      quoteTerms: 'Half up front.',
      businessAddress: '1 Main St',
      businessPhone: '+1 555 0100',
      businessEmail: 'office@example.com',
      taxNumberName1: 'GST/HST',
      taxNumberValue1: '123456789 RT0001',
    };
    const saved = await post(url(), { ...base, ...quoteForm });
    expect(saved.statusCode).toBe(303);
    const row = await f.world.store.db
      .selectFrom('workspaces')
      .select(['currency', 'locale', 'taxes', 'quote_valid_days', 'tax_numbers'])
      .where('id', '=', f.home.workspaceId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ currency: 'CAD', locale: 'fr-CA', quote_valid_days: 21 });
    expect(JSON.parse(row.taxes as string)).toEqual([
      { name: 'GST', rate: 5000, onByDefault: true },
      { name: 'QST', rate: 9975, onByDefault: true },
      { name: 'Eco', rate: 1000, onByDefault: false },
    ]);
    const shown = await get(url());
    expect(shown.body).toContain('name="taxRate2" value="9.975"');
    // A row left empty removes its tax.
    const { taxName3: _n, taxRate3: _r, ...withoutEco } = quoteForm;
    expect((await post(url(), { ...base, ...withoutEco })).statusCode).toBe(303);
    const after = await f.world.store.db
      .selectFrom('workspaces')
      .select('taxes')
      .where('id', '=', f.home.workspaceId)
      .executeTakeFirstOrThrow();
    expect((JSON.parse(after.taxes as string) as Array<{ name: string }>).map((t) => t.name)).toEqual(['GST', 'QST']);
    const bad = await post(url(), {
      ...base,
      ...quoteForm,
      currency: 'ZZZ',
      taxRate1: 'five',
      businessEmail: 'nobody',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/id="f-currency-error">Give a three-letter currency code/);
    // The rate's problem beside its own row's field, not under the whole block.
    expect(bad.body).toMatch(
      /name="taxRate1" value="five"[^>]*aria-invalid="true" aria-describedby="f-taxRate1-error"/,
    );
    expect(bad.body).toMatch(/id="f-taxRate1-error">Give a percentage/);
    expect(bad.body).not.toContain('id="f-taxes-error"');
    expect(bad.body).toMatch(/id="f-businessEmail-error">Enter an email address/);
    expect(bad.body).toContain('value="ZZZ"');

    // Rates typed as people write them; currency and locale chosen from lists.
    const typed = await post(url(), { ...base, ...quoteForm, taxRate1: '5%', taxRate2: ' 9.975 % ', taxRate3: '1 %' });
    expect(typed.statusCode).toBe(303);
    const rates = await f.world.store.db
      .selectFrom('workspaces')
      .select('taxes')
      .where('id', '=', f.home.workspaceId)
      .executeTakeFirstOrThrow();
    expect((JSON.parse(rates.taxes as string) as Array<{ rate: number }>).map((t) => t.rate)).toEqual([
      5000, 9975, 1000,
    ]);
    const lists = (await get(url())).body;
    expect(lists).toMatch(
      /<select id="f-currency" name="currency"[^>]*>[\s\S]*<option value="CAD" selected>CAD — Canadian Dollar<\/option>/,
    );
    expect(lists).toMatch(/<select id="f-locale" name="locale"[^>]*>[\s\S]*<option value="fr-CA" selected>/);
    expect(lists).toContain('<option value="en-US">');
  });
});
