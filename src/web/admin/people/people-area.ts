import { sourceNames } from '../../../domain/leads/source-names.js';
import { BACKUPS_KEEP_IT, BOOKS_KEEP_IT, erasePerson } from '../../../domain/persons/erase-person.js';
import { exportPerson, type PersonExport } from '../../../domain/persons/export-person.js';
import { matchedContact } from '../../../domain/persons/person-data.js';
import { html, type SafeHtml } from '../../html.js';
import type { AdminArea, WorkspaceCall } from '../admin-route.js';
import { workspacePath } from '../admin-route.js';
import { sendAttachment } from '../attachment.js';
import { actionButton, csrfField, field, formErrorsOf, type FormErrors } from '../form-controls.js';
import { when } from '../formats.js';

/**
 * Personal data (docs/operations.md): an owner answers a person's request to see or erase what the workspace holds
 * about them, by email or phone, with the verbs `leadscan person export|erase` use. Every step is a POST, so the
 * person's email or phone never lands in a URL (browser history, proxy logs).
 */

interface Wanted {
  email: string;
  phone: string;
}

function wantedOf(call: WorkspaceCall): Wanted {
  return { email: (call.body.email ?? '').slice(0, 400), phone: (call.body.phone ?? '').slice(0, 400) };
}

/** The counts in the URL after an erasure: digits only, so nothing from the URL is shown as text. */
function count(value: string | undefined): number | null {
  return value && /^\d{1,7}$/.test(value) ? Number(value) : null;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Rows listed on the page; the export and the erasure take every one. */
export const PERSON_ROWS_SHOWN = 100;

function erasedNotice(call: WorkspaceCall): SafeHtml | string {
  if (call.query.notice !== 'person-erased') return '';
  const [leads, quarantine, records] = [
    count(call.query.leads),
    count(call.query.quarantine),
    count(call.query.records),
  ];
  const what =
    leads === null || quarantine === null || records === null
      ? 'everything that matched'
      : `${plural(leads, 'lead', 'leads')}, ${plural(
          quarantine,
          'quarantined submission',
          'quarantined submissions',
        )} and ${plural(records, 'retry record', 'retry records')}`;
  const kept = count(call.query.kept);
  const books = kept
    ? ` Kept ${plural(kept, 'issued invoice', 'issued invoices')} (credit notes included): ${BOOKS_KEEP_IT.replace(
        /^Kept: /,
        '',
      )}`
    : '';
  return html`<p class="notice ok" role="status">Erased ${what}.${books} ${BACKUPS_KEEP_IT}</p>`;
}

function peoplePage(
  call: WorkspaceCall,
  input: { wanted: Wanted; errors?: FormErrors; found?: PersonExport; names?: Map<string, string> },
): SafeHtml {
  const ws = workspacePath(call.workspace.workspaceId);
  const { wanted, found, names } = input;
  const hidden: Record<string, string> = found ? { ...found.match } : {};
  const who = found ? matchedContact(found.match) : '';
  const total = found ? found.leads.length + found.quarantine.length : 0;
  const leadsShown = found ? found.leads.slice(0, PERSON_ROWS_SHOWN) : [];
  const quarantineShown = found ? found.quarantine.slice(0, PERSON_ROWS_SHOWN - leadsShown.length) : [];
  const notListed = total - leadsShown.length - quarantineShown.length;
  return html`<div class="page-head"><div><h1>Personal data</h1>
  <p class="muted">When someone asks what you hold about them, or asks you to erase it: find every lead
  and quarantined submission of this workspace with their email or phone.</p></div></div>
${erasedNotice(call)}
<section class="card" aria-labelledby="find-heading">
<h2 id="find-heading">Find a person</h2>
<form method="post" action="${ws}/people" novalidate>${csrfField(call.csrf)}
<div class="grid-2">
${field({
  name: 'email',
  label: 'Email',
  type: 'email',
  value: wanted.email,
  errors: input.errors,
  hint: 'Compared without regard to case',
  autocomplete: 'off',
})}
${field({
  name: 'phone',
  label: 'Phone',
  type: 'tel',
  value: wanted.phone,
  errors: input.errors,
  hint: 'Or a phone number, compared by its digits',
  autocomplete: 'off',
})}
</div>
<div class="actions"><button type="submit">Find</button></div>
</form>
</section>
${
  found
    ? html`<section class="card" aria-labelledby="found-heading">
<div class="page-head"><div><h2 id="found-heading">${
        total === 0
          ? html`Nothing stored matches ${who}`
          : html`${plural(found.leads.length, 'lead', 'leads')} and ${plural(
              found.quarantine.length,
              'quarantined submission',
              'quarantined submissions',
            )} match ${who}`
      }</h2>
<p class="muted small">The export holds every field and request detail (IP address, user agent, origin), as JSON.</p>
</div>
<div class="actions">${actionButton({
        action: `${ws}/people/export`,
        csrf: call.csrf,
        label: 'Download export',
        fields: hidden,
      })}${
        total > 0
          ? actionButton({
              action: `${ws}/people/erase`,
              csrf: call.csrf,
              label: 'Erase all of it',
              kind: 'danger',
              fields: hidden,
              confirm: `Erase ${total} record(s) of ${who} for good? This cannot be undone.`,
            })
          : ''
      }</div></div>
${
  total > 0
    ? html`<table class="list" id="person-records"><thead><tr><th scope="col">What</th><th scope="col">Name</th>
    <th scope="col">Source</th><th scope="col">Received</th></tr></thead><tbody>
${leadsShown.map(
  (lead) =>
    html`<tr><td data-label="What"><a href="${ws}/leads/${lead.id}">Lead</a></td><td data-label="Name">${
      lead.name ?? lead.email ?? lead.phone ?? '—'
    }</td><td data-label="Source">${
      names?.get(lead.sourceId) ?? lead.sourceId
    }</td><td data-label="Received">${when(lead.receivedAt)}</td></tr>`,
)}
${quarantineShown.map(
  (item) =>
    html`<tr><td data-label="What">Quarantined</td><td data-label="Name">${
      item.fields.name ?? item.fields.email ?? item.fields.phone ?? '—'
    }</td><td data-label="Source">${
      names?.get(item.sourceId) ?? item.sourceId
    }</td><td data-label="Received">${when(item.receivedAt)}</td></tr>`,
)}
</tbody></table>
${
  notListed > 0
    ? html`<p class="muted small">…and ${notListed} more, not listed here. The export holds every one, and Erase takes
    every one.</p>`
    : ''
}`
    : ''
}
</section>`
    : ''
}`;
}

/** The field a refusal of the lookup (neither or both given, too few digits) is shown beside: the one typed in. */
function askedField(wanted: Wanted): string {
  return wanted.phone.trim() && !wanted.email.trim() ? 'phone' : 'email';
}

export const peopleArea: AdminArea = {
  routes: [
    {
      method: 'GET',
      path: '/w/:workspaceId/people',
      access: 'owner',
      handler: async (call) =>
        call.render(200, {
          title: 'Personal data',
          area: 'leads',
          body: peoplePage(call, { wanted: { email: '', phone: '' } }),
        }),
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/people',
      access: 'owner',
      handler: async (call) => {
        const wanted = wantedOf(call);
        const [found, names] = await Promise.all([
          exportPerson({ ctx: call.ctx, input: { ...wanted, lookupOnly: true } }),
          sourceNames({ ctx: call.ctx, input: {} }),
        ]);
        return call.render(200, {
          title: 'Personal data',
          area: 'leads',
          body: peoplePage(call, { wanted, found, names }),
        });
      },
      form: {
        field: 'email',
        only: ['invalid_arguments'],
        rerender: async (call, { status, error }) => {
          const wanted = wantedOf(call);
          // Beside the field that was typed in: the phone's when only a phone was given.
          const errors = formErrorsOf(error, askedField(wanted));
          return call.render(status, {
            title: 'Personal data',
            area: 'leads',
            body: peoplePage(call, { wanted, errors }),
          });
        },
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/people/export',
      access: 'owner',
      handler: async (call) => {
        const found = await exportPerson({
          ctx: call.ctx,
          input: { ...wantedOf(call) },
        });
        return sendAttachment(call.reply, {
          contentType: 'application/json; charset=utf-8',
          filename: 'personal-data.json',
          body: `${JSON.stringify(found, null, 2)}\n`,
          noStore: true,
        });
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/people/erase',
      access: 'owner',
      handler: async (call) => {
        const workspaceId = call.workspace.workspaceId;
        const { deleted, kept } = await erasePerson({ ctx: call.ctx, input: { ...wantedOf(call) } });
        const counts = new URLSearchParams({
          leads: String(deleted.leads.length),
          quarantine: String(deleted.quarantine.length),
          records: String(deleted.idempotencyRecords.length),
          ...(kept.length > 0 ? { kept: String(kept.length) } : {}),
        });
        return call.redirect(`${workspacePath(workspaceId, 'people')}?${counts.toString()}`, 'person-erased');
      },
    },
  ],
};
