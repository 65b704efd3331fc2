import { expect, it } from 'vitest';
import { describeEachBackend } from '../../helpers/backends.js';
import { useAdminFixture } from '../../helpers/admin-fixture.js';
import { agedStamp } from '../../helpers/form-stamp.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** The opening tag of the element with this id. */
function tagWithId(page: string, id: string): string {
  const match = new RegExp(`<(?:input|textarea|p|div|fieldset)\\b[^>]*\\bid="${id}"[^>]*>`).exec(page);
  if (!match) throw new Error(`no element with id ${id}`);
  return match[0];
}

/** A rendered form without what each rendering makes anew (its idempotency key and render stamp). */
const steady = (page: string) =>
  page.replace(/name="idempotencyKey" value="[^"]*"/, '').replace(/name="formStamp" value="[^"]*"/, '');

describeEachBackend(
  "a source's built-in form fields: shaped in the editor, held on hosted-form posts only",
  (backend) => {
    const f = useAdminFixture(backend);

    const editor = () => `/w/${f.home.workspaceId}/sources/${f.home.source.id}/form`;
    const admin = (url: string, fields: Record<string, string>) =>
      f.app.inject({
        method: 'POST',
        url,
        headers: { cookie: f.owner.cookie, ...FORM },
        payload: new URLSearchParams({ _csrf: f.owner.csrf, ...fields }).toString(),
      });
    const shape = (name: string, fields: Record<string, string>) => admin(`${editor()}/built-in/${name}`, fields);
    const move = (key: string, direction: 'up' | 'down') => admin(`${editor()}/fields/${key}/move`, { direction });
    const formPage = async () => (await f.app.inject({ method: 'GET', url: `/f/${f.home.source.token}` })).body;
    const hostedPost = (fields: Record<string, string>) =>
      f.app.inject({
        method: 'POST',
        url: `/f/${f.home.source.token}`,
        headers: FORM,
        payload: new URLSearchParams({ formStamp: agedStamp(f.world, f.home.source.id), ...fields }).toString(),
      });
    const apiPost = (body: Record<string, unknown>) =>
      f.app.inject({
        method: 'POST',
        url: `/api/intake/${f.home.source.token}`,
        headers: { 'content-type': 'application/json' },
        payload: body,
      });
    const layoutColumn = async () =>
      (
        await f.world.store.db
          .selectFrom('lead_source_texts')
          .select('form_layout')
          .where('source_id', '=', f.home.source.id)
          .executeTakeFirst()
      )?.form_layout ?? null;
    const leads = () =>
      f.world.store.db
        .selectFrom('leads')
        .select(['name', 'phone', 'address'])
        .where('source_id', '=', f.home.source.id)
        .execute();

    /** The hosted form as the browser test shapes it: Address hidden, Phone called Mobile, required and first. */
    async function mobileFirst() {
      expect((await shape('address', { label: '' })).statusCode).toBe(303);
      expect((await shape('phone', { label: '<b>Mobile</b>', shown: '1', required: '1' })).statusCode).toBe(303);
      expect((await move('phone', 'up')).statusCode).toBe(303);
    }

    it('a form nobody shaped renders byte for byte as before, and shaping it back to the default stores nothing', async () => {
      const before = steady(await formPage());
      expect(await layoutColumn()).toBeNull();
      expect(before).toContain('<label for="f-phone">Phone</label>');
      await shape('phone', { label: 'Mobile', shown: '1', required: '1' });
      await move('phone', 'down');
      expect(await layoutColumn()).not.toBeNull();
      await shape('phone', { label: '', shown: '1' });
      await move('phone', 'up');
      expect(await layoutColumn()).toBeNull();
      expect(steady(await formPage())).toBe(before);
    });

    it("shows the owner's shape: hidden fields not rendered, the label escaped, required marked, one order with the own fields", async () => {
      await mobileFirst();
      const page = await formPage();
      expect(page).not.toContain('id="f-address"');
      expect(page).toContain('<label for="f-phone">&lt;b&gt;Mobile&lt;/b&gt;</label>');
      expect(page).not.toContain('<b>Mobile</b>');
      expect(tagWithId(page, 'f-phone')).toContain('aria-required="true"');
      // Phone must be given, so the "at least one" hint is gone and the other contact fields read as optional.
      expect(page).not.toContain('id="contact-hint"');
      expect(page).toContain('<label for="f-name">Name <span class="optional">(optional)</span></label>');
      const at = (id: string) => page.indexOf(`id="${id}"`);
      expect(at('f-phone')).toBeLessThan(at('f-name'));
      expect(at('f-name')).toBeLessThan(at('f-email'));
      // The own field (the fixture's second, after "First") moves among the built-in ones: above Message now.
      const ownId = f.extra.homeFieldId ?? '';
      const own = `cf_${ownId}`;
      expect(at('f-notes')).toBeLessThan(at(`f-${own}`));
      expect((await move(ownId, 'up')).statusCode).toBe(303);
      expect((await move(ownId, 'up')).statusCode).toBe(303);
      const moved = await formPage();
      expect(moved.indexOf(`id="f-${own}"`)).toBeLessThan(moved.indexOf('id="f-notes"'));

      // The editor lists every field in that order, with its controls.
      const edit = (await f.app.inject({ method: 'GET', url: editor(), headers: { cookie: f.owner.cookie } })).body;
      expect(edit.indexOf('id="field-phone"')).toBeLessThan(edit.indexOf('id="field-name"'));
      expect(edit).toContain(`action="${editor()}/built-in/phone"`);
      expect(edit).toMatch(/<li class="form-field-row hidden-field" id="field-address"/);
    });

    it('names the shown contact fields in the hint when one is hidden or relabelled', async () => {
      await shape('name', { label: '' });
      await shape('email', { label: 'E-mail address', shown: '1' });
      const page = await formPage();
      expect(page).toContain('Please give at least one way to reach you: “Phone” or “E-mail address”.');
      expect(tagWithId(page, 'contact-hint')).toContain(
        'data-missing="Please fill in “Phone” or “E-mail address” so we can get back to you."',
      );
      const refused = await hostedPost({ notes: 'Hello' });
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain('class="hint error" data-hint=');
      expect(refused.body).toContain('>Please fill in “Phone” or “E-mail address” so we can get back to you.</p>');
    });

    it('refuses a shape without a way to reach the person, a hidden required field and a long label, next to the field', async () => {
      expect((await shape('name', { label: '' })).statusCode).toBe(303);
      expect((await shape('email', { label: '' })).statusCode).toBe(303);
      const last = await shape('phone', { label: '' });
      expect(last.statusCode).toBe(400);
      expect(last.body).toMatch(
        /<p class="field-error" id="edit-phone-shown-error">Keep at least one of Name, Phone, Email on the form/,
      );
      expect(tagWithId(last.body, 'edit-phone-shown')).toContain('aria-invalid="true"');
      const hiddenRequired = await shape('address', { label: '', required: '1' });
      expect(hiddenRequired.statusCode).toBe(400);
      expect(hiddenRequired.body).toContain(
        '<p class="field-error" id="edit-address-required-error">A hidden field cannot be required: show it, or untick Required.</p>',
      );
      const long = await shape('notes', { label: 'x'.repeat(81), shown: '1' });
      expect(long.statusCode).toBe(400);
      expect(long.body).toContain('id="edit-notes-label-error">Use at most 80 characters</p>');
      expect(long.body).toContain(`value="${'x'.repeat(81)}"`);
      const unknown = await shape('website', { label: 'Site', shown: '1' });
      expect(unknown.statusCode).toBe(404);
      // Phone is still on the form, as the refusal left it.
      expect(await formPage()).toContain('id="f-phone"');
    });

    it("holds hosted-form posts (no script and script) to a required field with the page's words; the API takes what it always took", async () => {
      await mobileFirst();
      const already = (await leads()).length;
      const noScript = await hostedPost({ name: 'Ada', email: 'ada@example.com' });
      expect(noScript.statusCode).toBe(400);
      expect(noScript.body).toContain(
        '<p class="field-error" id="f-phone-error">Please answer “&lt;b&gt;Mobile&lt;/b&gt;”.</p>',
      );
      expect(tagWithId(noScript.body, 'f-phone')).toContain('aria-invalid="true"');
      expect(tagWithId(noScript.body, 'f-name')).toContain('value="Ada"');

      // The script's post carries the render stamp: a hosted-form post, refused with the same words.
      const script = await apiPost({ formStamp: agedStamp(f.world, f.home.source.id), name: 'Ada', phone: '   ' });
      expect(script.statusCode).toBe(400);
      expect(script.headers['content-type']).toContain('application/problem+json');
      expect(script.json()).toMatchObject({
        code: 'invalid_fields',
        errors: [{ field: 'phone', code: 'required', message: 'Please answer “<b>Mobile</b>”.' }],
      });
      // Nothing given at all: missing_contact, with the required field named beside it.
      const nothing = await apiPost({ formStamp: agedStamp(f.world, f.home.source.id) });
      expect(nothing.json()).toMatchObject({
        code: 'missing_contact',
        errors: expect.arrayContaining([expect.objectContaining({ field: 'phone', code: 'required' })]),
      });
      expect(await leads()).toHaveLength(already);

      // A plain API post is not the form: no phone is fine, and a hidden field may still be sent.
      const api = await apiPost({ name: 'Grace', address: '1 Harbour Road' });
      expect(api.statusCode).toBe(200);
      expect(api.json()).toMatchObject({ ok: true });
      const encoded = await f.app.inject({
        method: 'POST',
        url: `/api/intake/${f.home.source.token}`,
        headers: FORM,
        payload: 'email=ann%40example.com',
      });
      expect(encoded.statusCode).toBe(200);
      const sent = await hostedPost({ phone: '+1 514 555 0199' });
      expect(sent.statusCode).toBe(200);
      expect((await leads()).map((l) => [l.name, l.phone, l.address])).toEqual(
        expect.arrayContaining([
          ['Grace', null, '1 Harbour Road'],
          [null, null, null],
          [null, '+1 514 555 0199', null],
        ]),
      );
    });
  },
);
