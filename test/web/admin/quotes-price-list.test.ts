import { expect, it } from 'vitest';
import { describeEachBackend } from '../../helpers/backends.js';
import type { Person } from '../../helpers/admin-security.js';
import { useAdminFixture } from '../../helpers/admin-fixture.js';

describeEachBackend('Settings → Price list page', (backend) => {
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
  const base = () => `/w/${f.home.workspaceId}/settings/price-list`;
  const names = async () =>
    (
      await f.world.store.db
        .selectFrom('price_list_items')
        .select('name')
        .where('workspace_id', '=', f.home.workspaceId)
        .orderBy('name')
        .execute()
    ).map((r) => r.name);

  it('an owner adds an item (shown escaped, priced in the workspace currency), edits and removes it', async () => {
    const added = await post(base(), {
      name: '<b>Floor</b> & sealing',
      unit: 'm2',
      price: '42.50',
      measure: 'floor_area',
      waste: '10',
      coats: '2',
      pack: '',
      customerDescription: 'Sanded, then <i>two</i> coats of satin varnish',
    });
    expect(added.statusCode).toBe(303);
    expect(added.headers.location).toBe(`${base()}?notice=item-added`);
    const page = await get(`${base()}?notice=item-added`);
    expect(page.body).toContain('The item was added to the price list.');
    expect(page.body).toContain('&lt;b&gt;Floor&lt;/b&gt; &amp; sealing');
    expect(page.body).not.toContain('<b>Floor</b>');
    expect(page.body).toContain('$42.50 / m²');
    expect(page.body).toContain('10 % waste');
    // What the customer reads under the name on a quote line, shown (escaped) under the name.
    expect(page.body).toContain(
      '<span class="muted small item-description">Sanded, then &lt;i&gt;two&lt;/i&gt; coats of satin varnish</span>',
    );
    const row = await f.world.store.db
      .selectFrom('price_list_items')
      .selectAll()
      .where('name', '=', '<b>Floor</b> & sealing')
      .executeTakeFirstOrThrow();
    expect(Number(row.unit_price)).toBe(4250);
    const edit = await get(`${base()}/${row.id}`);
    expect(edit.statusCode).toBe(200);
    expect(edit.body).toContain('value="42.50"');
    expect(edit.body).toContain('<option value="floor_area" selected>');
    expect(edit.body).toMatch(
      /<textarea id="f-customerDescription" name="customerDescription" maxlength="700"[^>]*>Sanded, then &lt;i&gt;two&lt;\/i&gt; coats of satin varnish<\/textarea>/,
    );
    const saved = await post(`${base()}/${row.id}`, {
      name: 'Floor sealing',
      unit: 'm2',
      price: '45',
      measure: 'floor_area',
      waste: '10',
      coats: '2',
      customerDescription: 'Two coats of satin varnish',
    });
    expect(saved.headers.location).toBe(`${base()}?notice=item-saved`);
    const description = async () =>
      (
        await f.world.store.db
          .selectFrom('price_list_items')
          .select('customer_description')
          .where('id', '=', row.id)
          .executeTakeFirstOrThrow()
      ).customer_description;
    expect(await description()).toBe('Two coats of satin varnish');
    const tooLong = await post(`${base()}/${row.id}`, {
      name: 'Floor sealing',
      unit: 'm2',
      price: '45',
      customerDescription: 'x'.repeat(701),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.body).toMatch(/id="f-customerDescription-error">At most 700 characters/);
    // Emptied, it is gone: the customer then reads the name alone.
    await post(`${base()}/${row.id}`, { name: 'Floor sealing', unit: 'm2', price: '45', customerDescription: '' });
    expect(await description()).toBeNull();
    expect(await names()).toEqual(['Floor sealing', 'Paint']);
    const removed = await post(`${base()}/${row.id}/remove`, {});
    expect(removed.headers.location).toBe(`${base()}?notice=item-removed`);
    expect(await names()).toEqual(['Paint']);
  });

  it('a refused item comes back next to its field with what was typed, and nothing is added', async () => {
    const bad = await post(base(), { name: 'Tiles <i>', unit: 'm2', price: '12.345' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/id="f-price-error">Give an amount such as 42.50/);
    expect(bad.body).toContain('value="Tiles &lt;i&gt;"');
    expect(await names()).toEqual(['Paint']);
  });

  it('a member reads the list without edit forms and is refused an edit', async () => {
    const page = await get(base(), f.member);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Paint');
    expect(page.body).not.toContain('Add an item');
    const refused = await post(base(), { name: 'Tiles', unit: 'm2', price: '30' }, f.member);
    expect(refused.statusCode).toBe(403);
    expect(await names()).toEqual(['Paint']);
  });

  it('exports a CSV download and imports one back (a bad row refuses the whole file, shown under the box)', async () => {
    const csv = await get(`${base()}.csv`, f.member);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toBe('attachment; filename="price-list.csv"');
    expect(csv.body).toContain('"Paint","m2","12.50"');
    const imported = await post(`${base()}/import`, { csv: 'name,unit,price\r\nTiles,m2,30\r\nPaint,m2,14\r\n' });
    expect(imported.headers.location).toBe(`${base()}?notice=imported-1-1`);
    expect((await get(imported.headers.location as string)).body).toContain('Imported: 1 added, 1 updated.');
    expect(await names()).toEqual(['Paint', 'Tiles']);
    const bad = await post(`${base()}/import`, { csv: 'name,unit,price\r\nGrout,m2,abc\r\n' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/<ul class="field-error" id="f-file-error"><li>Row 2: [^<]+<\/li><\/ul>/);
    expect(bad.body).toMatch(/<textarea id="f-csv" name="csv"[^>]*>name,unit,price\r\nGrout,m2,abc/);
    expect(await names()).toEqual(['Paint', 'Tiles']);
  });

  /** A browser's multipart/form-data post: the form token, the paste box, and the chosen file (empty when none is). */
  const upload = (url: string, file: { name: string; text: string | Buffer }, pasted = '', as: Person = f.owner) => {
    const boundary = '----leadscanTestBoundary7MA4YWxkTrZu0gW';
    const part = (headers: string, body: string | Buffer) => [
      Buffer.from(`--${boundary}\r\n${headers}\r\n\r\n`),
      Buffer.from(body),
      Buffer.from('\r\n'),
    ];
    const payload = Buffer.concat([
      ...part('Content-Disposition: form-data; name="_csrf"', as.csrf),
      ...part(
        `Content-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: text/csv`,
        file.text,
      ),
      ...part('Content-Disposition: form-data; name="csv"', pasted),
      Buffer.from(`--${boundary}--\r\n`),
    ]);
    return f.app.inject({
      method: 'POST',
      url,
      headers: { cookie: as.cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
  };

  it('imports an uploaded CSV file (multipart); a bad file lists every bad row under the file field; the paste box is the fallback', async () => {
    const page = await get(base());
    expect(page.body).toContain('enctype="multipart/form-data"');
    expect(page.body).toContain('<input type="file" id="f-file" name="file"');
    const ok = await upload(
      `${base()}/import`,
      { name: 'prices.csv', text: '\uFEFFname,unit,price,measure\r\nTiles,m2,30,floor_area\r\nGrout,m2,4.5,\r\n' },
      'name,unit,price\r\nIgnored,each,1\r\n',
    );
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe(`${base()}?notice=imported-2-0`);
    expect(await names()).toEqual(['Grout', 'Paint', 'Tiles']);
    // Every bad row is named next to the file field, and nothing changes.
    const bad = await upload(`${base()}/import`, {
      name: 'prices.csv',
      text: 'name,unit,price\r\nA,each,1\r\nB,furlong,2\r\nC,each,ten\r\n',
    });
    expect(bad.statusCode).toBe(400);
    const list = /<ul class="field-error" id="f-file-error">(.*?)<\/ul>/s.exec(bad.body)?.[1] ?? '';
    expect(list.match(/<li>/g)).toHaveLength(2);
    expect(list).toMatch(/<li>Row 3: [^<]*unit/i);
    expect(list).toMatch(/<li>Row 4: Give an amount/);
    expect(bad.body).toContain('aria-describedby="f-file-error"');
    expect(await names()).toEqual(['Grout', 'Paint', 'Tiles']);
    // No file chosen (a browser posts an empty part): the paste box is imported.
    const pasted = await upload(`${base()}/import`, { name: '', text: '' }, 'name,unit,price\r\nSealant,each,9\r\n');
    expect(pasted.headers.location).toBe(`${base()}?notice=imported-1-0`);
    // Over 2 MB: refused next to the field, nothing imported.
    const big = await upload(`${base()}/import`, { name: 'big.csv', text: Buffer.alloc(2 * 1024 * 1024 + 10, 'a') });
    expect(big.statusCode).toBe(400);
    expect(big.body).toMatch(/id="f-file-error"><li>The file is larger than 2 MB/);
    expect(await names()).toEqual(['Grout', 'Paint', 'Sealant', 'Tiles']);
    // Only the import reads a multipart body: another form posted as one is refused unread, before its handler
    // (400 under the form limit, 413 past it: test/web/admin/multipart-bodies.test.ts).
    const elsewhere = await upload(base(), { name: 'x.csv', text: 'name,unit,price\r\n' });
    expect(elsewhere.statusCode).toBe(400);
    // A member is refused (owners import).
    expect(
      (await upload(`${base()}/import`, { name: 'p.csv', text: 'name,unit,price\r\nZ,each,1\r\n' }, '', f.member))
        .statusCode,
    ).toBe(403);
    expect(await names()).toEqual(['Grout', 'Paint', 'Sealant', 'Tiles']);
  });
});
