import { addPriceListItem } from '../../../domain/price-list/add-price-list-item.js';
import { exportPriceList } from '../../../domain/price-list/export-price-list.js';
import { importPriceList } from '../../../domain/price-list/import-price-list.js';
import type { ItemFields } from '../../../domain/price-list/item-fields.js';
import { getPriceListItem, listPriceList } from '../../../domain/price-list/list-price-list.js';
import { MEASURES, UNIT_LABELS, UNITS, type PriceListItem } from '../../../domain/price-list/price-list-item.js';
import { removePriceListItem } from '../../../domain/price-list/remove-price-list-item.js';
import { updatePriceListItem } from '../../../domain/price-list/update-price-list-item.js';
import { amountText, formatDecimal, formatMoney, rateText } from '../../../domain/money.js';
import { getWorkspaceSettings, type WorkspaceSettings } from '../../../domain/settings/workspace-settings.js';
import { html, type SafeHtml } from '../../html.js';
import type { AdminArea, WorkspaceCall } from '../admin-route.js';
import { fileOf, workspacePath } from '../admin-route.js';
import { AppError } from '../../../domain/errors.js';
import { sendAttachment } from '../attachment.js';
import { actionButton, csrfField, field, selectField, type FormErrors } from '../form-controls.js';

/** The largest CSV file an import takes (5,000 rows fit in well under this). */
const MAX_IMPORT_BYTES = 2 * 1024 * 1024;

/** What the item form shows, as typed. */
interface ItemValues {
  name: string;
  unit: string;
  price: string;
  measure: string;
  waste: string;
  coats: string;
  pack: string;
  taxes: string[];
  customerDescription: string;
}

export const MEASURE_LABELS: Record<string, string> = {
  floor_area: 'Floor area',
  ceiling_area: 'Ceiling area',
  wall_area_net: 'Wall area (net of doors and windows)',
  wall_area_gross: 'Wall area (gross)',
  perimeter: 'Perimeter',
  skirting: 'Skirting (perimeter less doors)',
  volume: 'Volume',
  doors: 'Doors',
  windows: 'Windows',
};

const PRICE_LIST_NOTICES: Record<string, string> = {
  'item-added': 'The item was added to the price list.',
  'item-saved': 'The item was saved. Quotes already priced from it keep their lines.',
  'item-removed': 'The item was removed from the price list. Quotes already priced from it keep their lines.',
};

function priceListNotice(call: WorkspaceCall): SafeHtml | string {
  const code = call.query.notice ?? '';
  const imported = /^imported-(\d{1,5})-(\d{1,5})$/.exec(code);
  if (imported)
    return html`<p class="notice ok" role="status">Imported: ${imported[1]} added, ${imported[2]} updated.</p>`;
  const text = PRICE_LIST_NOTICES[code];
  return text ? html`<p class="notice ok" role="status">${text}</p>` : '';
}

const emptyValues = (settings: WorkspaceSettings): ItemValues => ({
  name: '',
  unit: settings.units === 'imperial' ? 'ft2' : 'm2',
  price: '',
  measure: '',
  waste: '0',
  coats: '1',
  pack: '',
  taxes: settings.taxes.filter((t) => t.onByDefault).map((t) => t.name),
  customerDescription: '',
});

const valuesOf = (item: PriceListItem, currency: string): ItemValues => ({
  name: item.name,
  unit: item.unit,
  price: amountText(item.unitPrice, currency),
  measure: item.measure ?? '',
  waste: rateText(item.waste),
  coats: formatDecimal(item.coats, 2).replace(/\.?0+$/, ''),
  pack: item.pack === null ? '' : formatDecimal(item.pack, 2).replace(/\.?0+$/, ''),
  taxes: item.taxes,
  customerDescription: item.customerDescription ?? '',
});

function postedValues(body: Record<string, string | undefined>, settings: WorkspaceSettings): ItemValues {
  return {
    name: body.name ?? '',
    unit: body.unit ?? '',
    price: body.price ?? '',
    measure: body.measure ?? '',
    waste: body.waste ?? '',
    coats: body.coats ?? '',
    pack: body.pack ?? '',
    taxes: settings.taxes.filter((_t, i) => body[`tax${i + 1}`] === 'on').map((t) => t.name),
    customerDescription: body.customerDescription ?? '',
  };
}

const fieldsOf = (values: ItemValues): ItemFields => ({
  ...values,
  waste: values.waste || '0',
  coats: values.coats || '1',
});

function itemForm(
  call: WorkspaceCall,
  settings: WorkspaceSettings,
  action: string,
  button: string,
  values: ItemValues,
  errors: FormErrors,
): SafeHtml {
  return html`<form method="post" action="${action}" novalidate class="item-form">
${csrfField(call.csrf)}
${field({ name: 'name', label: 'Name', value: values.name, errors, maxlength: 200 })}
${field({
  name: 'customerDescription',
  label: 'Description for the customer (optional)',
  value: values.customerDescription,
  errors,
  maxlength: 700,
  textarea: true,
  hint:
    'Under the name on each quote line, as the customer reads it: “Washable matt finish, two coats”. How a ' +
    'quantity was measured is kept apart, for you.',
})}
<div class="item-grid">
${selectField(
  'unit',
  'Unit',
  UNITS.map((u) => [u, UNIT_LABELS[u]]),
  values.unit,
  errors,
)}
${field({ name: 'price', label: `Unit price (${settings.currency})`, value: values.price, errors, maxlength: 20 })}
${selectField(
  'measure',
  'Measured by',
  [['', 'Not measured (typed on the quote)'], ...MEASURES.map((m): [string, string] => [m, MEASURE_LABELS[m] ?? m])],
  values.measure,
  errors,
)}
${field({ name: 'waste', label: 'Waste (%)', value: values.waste, errors, maxlength: 8 })}
${field({ name: 'coats', label: 'Multiplier (coats)', value: values.coats, errors, maxlength: 8 })}
${field({
  name: 'pack',
  label: 'One pack covers',
  value: values.pack,
  errors,
  maxlength: 12,
  hint: 'In the item’s unit; empty when sold by the unit.',
})}
</div>
${
  settings.taxes.length === 0
    ? html`<p class="hint">No taxes are set up (Settings).</p>`
    : html`<fieldset class="field"${
        errors.taxes ? html` aria-describedby="f-taxes-error"` : ''
      }><legend>Taxes</legend>${settings.taxes.map(
        (t, i) =>
          html`<label class="radio"><input type="checkbox" name="tax${i + 1}" value="on"${
            values.taxes.some((n) => n.toLowerCase() === t.name.toLowerCase()) ? html` checked` : ''
          }> ${t.name} (${rateText(t.rate)} %)</label>`,
      )}${errors.taxes ? html`<p class="field-error" id="f-taxes-error">${errors.taxes}</p>` : ''}</fieldset>`
}
<button type="submit">${button}</button>
</form>`;
}

function itemRow(call: WorkspaceCall, settings: WorkspaceSettings, item: PriceListItem): SafeHtml {
  const base = workspacePath(call.workspace.workspaceId, `settings/price-list/${item.id}`);
  const extras = [
    item.waste ? `${rateText(item.waste)} % waste` : '',
    item.coats !== 100 ? `× ${formatDecimal(item.coats, 2).replace(/\.?0+$/, '')}` : '',
    item.pack !== null ? `packs of ${formatDecimal(item.pack, 2).replace(/\.?0+$/, '')} ${UNIT_LABELS[item.unit]}` : '',
  ].filter(Boolean);
  return html`<tr>
<td data-label="Name">${item.name}${
    item.customerDescription ? html`<span class="muted small item-description">${item.customerDescription}</span>` : ''
  }</td>
<td data-label="Price" class="num">${formatMoney(
    item.unitPrice,
    settings.currency,
    settings.locale,
  )} / ${UNIT_LABELS[item.unit]}</td>
<td data-label="Measured by" class="meta">${item.measure ? MEASURE_LABELS[item.measure] : '—'}${
    extras.length ? html`<span class="muted small"> · ${extras.join(' · ')}</span>` : ''
  }</td>
<td data-label="Taxes" class="meta">${item.taxes.join(', ') || '—'}</td>
${
  call.workspace.role === 'owner'
    ? html`<td class="actions"><a class="button secondary" href="${base}">Edit</a>${actionButton({
        action: `${base}/remove`,
        csrf: call.csrf,
        label: 'Remove',
        kind: 'danger',
        confirm: `Remove ${item.name} from the price list?`,
      })}</td>`
    : ''
}
</tr>`;
}

interface ListForms {
  add?: { values: ItemValues; errors: FormErrors };
  /** What was pasted, and the refusal: each bad row of the file (or the one problem of the whole file). */
  import?: { csv: string; problems: string[] };
}

/**
 * The import's file (a real upload) and, for a few rows copied from a spreadsheet, a paste box. A refusal lists every
 * bad row under the file field.
 */
function importFields(posted: ListForms['import']): SafeHtml {
  const problems = posted?.problems ?? [];
  return html`<div class="field"><label for="f-file">CSV file</label><input type="file" id="f-file" name="file"
    accept=".csv,text/csv"${problems.length ? html` aria-invalid="true" aria-describedby="f-file-error"` : ''}>
${
  problems.length
    ? html`<ul class="field-error" id="f-file-error">${problems.map((p) => html`<li>${p}</li>`)}</ul>`
    : ''
}</div>
<div class="field"><label for="f-csv">Or paste the CSV</label><textarea id="f-csv" name="csv" rows="4"
  maxlength="60000">${posted?.csv ?? ''}</textarea><p class="hint">Used when no file is chosen.</p></div>`;
}

function priceListPage(
  call: WorkspaceCall,
  settings: WorkspaceSettings,
  items: PriceListItem[],
  forms: ListForms = {},
): SafeHtml {
  const ws = workspacePath(call.workspace.workspaceId);
  const owner = call.workspace.role === 'owner';
  return html`${owner ? html`<p class="small"><a href="${ws}/settings">← Settings</a></p>` : ''}
<div class="page-head"><div><h1>Price list</h1>
<p class="muted">What quotes are priced from: an item measured by a room’s figure becomes one line per room.${
    owner ? '' : ' Owners change it.'
  }</p></div>
<div class="actions"><a class="button secondary" id="export-price-list" href="${ws}/settings/price-list.csv"
  download>Export CSV</a></div></div>
${priceListNotice(call)}
<section class="card table-card" aria-labelledby="items-heading">
<h2 id="items-heading">Items</h2>
${
  items.length === 0
    ? html`<p class="empty">No items yet.${owner ? ' Add one below, or import a CSV.' : ''}</p>`
    : html`<table class="list wide-labels" id="price-list">
<thead><tr><th scope="col">Name</th><th scope="col">Unit price</th><th scope="col">Measured by</th>
<th scope="col">Taxes</th>${owner ? html`<th scope="col"><span class="offscreen">Actions</span></th>` : ''}</tr></thead>
<tbody>${items.map((item) => itemRow(call, settings, item))}</tbody>
</table>`
}
</section>
${
  owner
    ? html`<section class="card" aria-labelledby="add-heading" id="add-item">
<h2 id="add-heading">Add an item</h2>
${itemForm(
  call,
  settings,
  `${ws}/settings/price-list`,
  'Add item',
  forms.add?.values ?? emptyValues(settings),
  forms.add?.errors ?? {},
)}
</section>
<section class="card" aria-labelledby="import-heading" id="import">
<h2 id="import-heading">Import CSV</h2>
<p class="muted small">A header row naming the columns (name, unit and price required; taxes, measure, waste, coats,
pack and description, what the customer reads under the name, optional). A row whose name matches an item
replaces it; the others are added. One bad row refuses the whole file.</p>
<form method="post" action="${ws}/settings/price-list/import" enctype="multipart/form-data" novalidate>
${csrfField(call.csrf)}
${importFields(forms.import)}
<button type="submit">Import</button>
</form>
</section>`
    : ''
}`;
}

function editPage(
  call: WorkspaceCall,
  settings: WorkspaceSettings,
  item: PriceListItem,
  values: ItemValues,
  errors: FormErrors = {},
): SafeHtml {
  const ws = workspacePath(call.workspace.workspaceId);
  return html`<p class="small"><a href="${ws}/settings/price-list">← Price list</a></p>
<div class="page-head"><div><h1>${item.name}</h1>
<p class="muted">A change prices new lines; quotes already made keep theirs.</p></div></div>
<section class="card">${itemForm(
    call,
    settings,
    `${ws}/settings/price-list/${item.id}`,
    'Save item',
    values,
    errors,
  )}</section>`;
}

const settingsOf = (call: WorkspaceCall) =>
  getWorkspaceSettings({ ctx: call.ctx, input: { workspaceId: call.workspace.workspaceId } });

async function renderList(call: WorkspaceCall, status: number, forms: ListForms = {}) {
  const workspaceId = call.workspace.workspaceId;
  const [settings, items] = await Promise.all([
    settingsOf(call),
    listPriceList({ ctx: call.ctx, input: { workspaceId } }),
  ]);
  return call.render(status, {
    title: 'Price list',
    area: 'settings',
    body: priceListPage(call, settings, items, forms),
  });
}

/** Settings → Price list (docs/admin-app.md): members read it, owners add, edit, remove, import; anyone exports. */
export const priceListArea: AdminArea = {
  routes: [
    {
      method: 'GET',
      path: '/w/:workspaceId/settings/price-list',
      access: 'member',
      handler: (call) => renderList(call, 200),
    },
    {
      method: 'GET',
      path: '/w/:workspaceId/settings/price-list.csv',
      access: 'member',
      handler: async (call) => {
        const csv = await exportPriceList({ ctx: call.ctx, input: { workspaceId: call.workspace.workspaceId } });
        return sendAttachment(call.reply, {
          contentType: 'text/csv; charset=utf-8',
          filename: 'price-list.csv',
          body: csv,
        });
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/settings/price-list',
      access: 'owner',
      handler: async (call) => {
        const workspaceId = call.workspace.workspaceId;
        const settings = await settingsOf(call);
        const values = postedValues(call.body, settings);
        await addPriceListItem({
          ctx: call.ctx,
          input: { workspaceId, role: call.workspace.role, item: fieldsOf(values) },
        });
        return call.redirect(workspacePath(workspaceId, 'settings/price-list'), 'item-added');
      },
      form: {
        field: 'name',
        rerender: async (call, { status, errors }) =>
          renderList(call, status, { add: { values: postedValues(call.body, await settingsOf(call)), errors } }),
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/settings/price-list/import',
      access: 'owner',
      upload: { maxBytes: MAX_IMPORT_BYTES },
      handler: async (call) => {
        const workspaceId = call.workspace.workspaceId;
        const file = fileOf(call, 'file');
        if (file?.truncated)
          throw new AppError('invalid_fields', `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB`, [
            {
              field: 'file',
              code: 'too_long',
              message: `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB; split it`,
            },
          ]);
        const csv = file ? file.data.toString('utf8') : (call.body.csv ?? '');
        const counts = await importPriceList({ ctx: call.ctx, input: { workspaceId, role: call.workspace.role, csv } });
        return call.redirect(
          workspacePath(workspaceId, 'settings/price-list'),
          `imported-${counts.added}-${counts.updated}`,
        );
      },
      form: {
        field: 'file',
        // A refusal names the file's bad rows (or its one problem), listed under the file field.
        rerender: async (call, { status, error }) => {
          const problems = error.fieldErrors?.length ? error.fieldErrors.map((e) => e.message) : [error.detail];
          return renderList(call, status, { import: { csv: call.body.csv ?? '', problems } });
        },
      },
    },
    {
      method: 'GET',
      path: '/w/:workspaceId/settings/price-list/:itemId',
      access: 'owner',
      handler: async (call) => {
        const [settings, item] = await Promise.all([
          settingsOf(call),
          getPriceListItem({ ctx: call.ctx, input: { itemId: call.params.itemId ?? '' } }),
        ]);
        return call.render(200, {
          title: item.name,
          area: 'settings',
          body: editPage(call, settings, item, valuesOf(item, settings.currency)),
        });
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/settings/price-list/:itemId',
      access: 'owner',
      handler: async (call) => {
        const workspaceId = call.workspace.workspaceId;
        const [settings, item] = await Promise.all([
          settingsOf(call),
          getPriceListItem({ ctx: call.ctx, input: { itemId: call.params.itemId ?? '' } }),
        ]);
        await updatePriceListItem({
          ctx: call.ctx,
          input: {
            workspaceId,
            role: call.workspace.role,
            itemId: item.id,
            item: fieldsOf(postedValues(call.body, settings)),
          },
        });
        return call.redirect(workspacePath(workspaceId, 'settings/price-list'), 'item-saved');
      },
      form: {
        field: 'name',
        rerender: async (call, { status, errors }) => {
          const [settings, item] = await Promise.all([
            settingsOf(call),
            getPriceListItem({ ctx: call.ctx, input: { itemId: call.params.itemId ?? '' } }),
          ]);
          return call.render(status, {
            title: item.name,
            area: 'settings',
            body: editPage(call, settings, item, postedValues(call.body, settings), errors),
          });
        },
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/settings/price-list/:itemId/remove',
      access: 'owner',
      handler: async (call) => {
        const workspaceId = call.workspace.workspaceId;
        await removePriceListItem({
          ctx: call.ctx,
          input: { role: call.workspace.role, itemId: call.params.itemId ?? '' },
        });
        return call.redirect(workspacePath(workspaceId, 'settings/price-list'), 'item-removed');
      },
    },
  ],
};
