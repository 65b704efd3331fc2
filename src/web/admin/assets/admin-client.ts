/**
 * The admin app's only script: conveniences on top of pages that work without it (docs/security.md, "How it is
 * kept safe"). It is served as `(adminClient)(document, window)` from /admin/assets/admin.js, so it must stay
 * self-contained: no imports, no outer names (the served text is this function's compiled source).
 *
 * - `button[data-copy-target="#id"]` copies that element's text; `button[data-copy-url]` copies the text the URL
 *   answers to a POST carrying the button's `data-csrf` token (the upload key is fetched only when asked for, and
 *   the copy is audited, so it is a POST like every other action). Copy buttons are `hidden` until this script runs.
 * - `form[data-confirm="…"]` asks before submitting (Regenerate, Delete, Remove).
 * - `time[data-local]` is rewritten in the viewer's time zone.
 * - The top bar's Menu (on a phone) closes on Escape, giving focus back to its button, and on a tap outside it.
 * - `dl[data-live-totals]` (the quote builder) recomputes each `fieldset[data-line]`'s amount, the subtotal, each
 *   tax and the total as the lines are typed (the free `[data-new-line]` too, once something is typed in it), by the
 * server's rules (src/domain/money.ts, ported here because the
 *   script cannot import): integers only, BigInt products divided once, half away from zero. Save still computes them.
 * - `[data-drag]` (the builder's line handles) shows the handles and hides the ↑/↓ buttons at desktop width: a line
 *   dragged, or moved with ↑/↓ on its focused handle, posts the builder form with `do=reorder:{id}` and the whole
 *   order in `line-order`, so the edits on the page are saved with it.
 *
 * - `p[data-contrast-of="#input"]` (the form editor's colour) says, as the owner picks a colour, whether white text
 *   on it meets WCAG AA: the ratio comes from `shared.contrastWithWhite`, the server's own function
 *   (domain/forms/accent-colour.ts, served as its source), and the words from the element's `data-pass`/`data-fail`.
 *
 * Typed against the small slice of the DOM it uses (below) rather than `lib: dom`, which would put browser
 * globals into the server's type space and clash with Node's own fetch and Buffer types.
 */
export function adminClient(doc: ClientDocument, win: ClientWindow, shared: AdminShared): void {
  const say = (button: ClientElement, text: string) => {
    const target = button.getAttribute('data-status');
    const status = target ? doc.querySelector(target) : null;
    if (status) status.textContent = text;
  };

  const copyText = async (text: string): Promise<void> => {
    if (win.navigator.clipboard && win.isSecureContext) {
      await win.navigator.clipboard.writeText(text);
      return;
    }
    // Plain http on another host has no Clipboard API: copy through a temporary selection.
    const area = doc.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'offscreen';
    doc.body.appendChild(area);
    area.select();
    const ok = doc.execCommand('copy');
    area.remove();
    if (!ok) throw new Error('copy refused');
  };

  const fetchText = async (url: string, csrf: string): Promise<string> => {
    const res = await win.fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { accept: 'text/plain', 'content-type': 'application/x-www-form-urlencoded' },
      body: `_csrf=${encodeURIComponent(csrf)}`,
    });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return res.text();
  };

  doc.querySelectorAll('button[data-copy-target], button[data-copy-url]').forEach((button) => {
    button.hidden = false;
    button.addEventListener('click', () => {
      const targetSelector = button.getAttribute('data-copy-target');
      const url = button.getAttribute('data-copy-url');
      const text = targetSelector
        ? Promise.resolve(doc.querySelector(targetSelector)?.textContent?.trim() ?? '')
        : fetchText(url ?? '', button.getAttribute('data-csrf') ?? '');
      text
        .then(copyText)
        .then(() => say(button, 'Copied'))
        .catch(() => say(button, 'Could not copy; select the text and copy it by hand'));
    });
  });

  // Times arrive as UTC text; show them in the viewer's own time zone, written as the workspace writes dates (its
  // locale, the long date of its quotes and emails: docs/admin-app.md, "Dates").
  const locale = doc.documentElement.getAttribute('data-locale') ?? undefined;
  doc.querySelectorAll('time[data-local]').forEach((time) => {
    const iso = time.getAttribute('datetime');
    if (iso) time.textContent = new Date(iso).toLocaleString(locale, { dateStyle: 'long', timeStyle: 'short' });
  });

  // The Menu opens without the script (a <details>); with it, Escape and a tap elsewhere close it as a menu would.
  const menu = doc.querySelector('details.menu') as ClientDetails | null;
  if (menu) {
    doc.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape' || !menu.open) return;
      menu.open = false;
      menu.querySelector('summary')?.focus();
    });
    doc.addEventListener('click', (event) => {
      if (menu.open && !menu.contains(event.target)) menu.open = false;
    });
  }

  // The quote builder's totals as the lines are typed (the same integer arithmetic as src/domain/money.ts).
  const totals = doc.querySelector('dl[data-live-totals]');
  const builder = totals ? doc.querySelector('form#builder') : null;
  if (totals && builder) {
    const minor = Number(totals.getAttribute('data-minor-digits') ?? '2');
    const format = new Intl.NumberFormat(totals.getAttribute('data-locale') ?? undefined, {
      style: 'currency',
      currency: totals.getAttribute('data-currency') ?? 'USD',
    });
    // Intl reads a decimal string exactly (no float ever holds the amount).
    const money = (units: bigint | undefined) =>
      units === undefined ? '—' : format.format(decimal(units, minor) as unknown as number);
    const decimal = (units: bigint, scale: number) => {
      const digits = (units < 0n ? -units : units).toString().padStart(scale + 1, '0');
      const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
      return units < 0n ? `-${text}` : text;
    };
    // parseDecimal: "42.50" at scale 2 is 4250n; extra digits round half away from zero, or are refused.
    const parse = (text: string, scale: number, round: boolean): bigint | undefined => {
      const match = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text.trim());
      if (!match || ((match[2] ?? '') === '' && (match[3] ?? '') === '')) return undefined;
      const fraction = match[3] ?? '';
      const dropped = fraction.slice(scale);
      if (!round && /[1-9]/.test(dropped)) return undefined;
      let units = BigInt(`${match[2] || '0'}${fraction.slice(0, scale).padEnd(scale, '0')}`);
      if (round && dropped.length > 0 && dropped[0]! >= '5') units += 1n;
      return match[1] === '-' ? -units : units;
    };
    // divRound: a ÷ b rounded half away from zero (b > 0).
    const divRound = (a: bigint, b: bigint) => {
      const q = a / b;
      const r = a % b;
      if (2n * (r < 0n ? -r : r) >= b) return a < 0n ? q - 1n : q + 1n;
      return q;
    };
    const field = (line: ClientElement, name: string) =>
      line.querySelector(`[name="${line.getAttribute('data-line') ?? ''}-${name}"]`) as ClientInput | null;
    const taxes: Array<{ index: string; rate: bigint; cell: ClientElement }> = [];
    totals.querySelectorAll('[data-tax]').forEach((cell) => {
      taxes.push({
        index: cell.getAttribute('data-tax') ?? '',
        rate: BigInt(cell.getAttribute('data-rate') ?? '0'),
        cell,
      });
    });
    const recompute = () => {
      let subtotal: bigint | undefined = 0n;
      const bases = taxes.map((): bigint | undefined => 0n);
      builder.querySelectorAll('fieldset[data-line]').forEach((line) => {
        // The free line counts once a description or a price is typed in it, as Save then adds it (quantity 1 if
        // empty).
        const fresh = line.getAttribute('data-new-line') !== null;
        if (
          fresh &&
          (field(line, 'description')?.value ?? '').trim() === '' &&
          (field(line, 'price')?.value ?? '').trim() === ''
        ) {
          const cell = line.querySelector('[data-line-amount]');
          if (cell) cell.textContent = '';
          return;
        }
        const typedQuantity = field(line, 'quantity')?.value ?? '';
        const quantity = parse(fresh && typedQuantity.trim() === '' ? '1' : typedQuantity, 2, true);
        const price = parse(field(line, 'price')?.value ?? '', minor, false);
        const amount = quantity === undefined || price === undefined ? undefined : divRound(quantity * price, 100n);
        const cell = line.querySelector('[data-line-amount]');
        if (cell) cell.textContent = money(amount);
        // A line counts unless it is optional and not ticked. A line made optional here has no tick box yet: Save makes
        // it optional and unticked, so it stops counting at once (docs/quotes.md, "Optional lines").
        const chosen = field(line, 'chosen');
        const counts = !field(line, 'optional')?.checked || (chosen?.type === 'checkbox' && chosen.checked);
        if (!counts) return;
        // Nor does a line in an alternative not taken (its section, as its Section select now says).
        const section = field(line, 'section')?.value;
        const holder = section ? doc.querySelector(`[id="section-${section}"]`) : null;
        if (holder && holder.getAttribute('data-not-taken') !== null) return;
        subtotal = amount === undefined || subtotal === undefined ? undefined : subtotal + amount;
        taxes.forEach((tax, i) => {
          const base = bases[i];
          if (field(line, `tax${tax.index}`)?.checked)
            bases[i] = amount === undefined || base === undefined ? undefined : base + amount;
        });
      });
      let total: bigint | undefined = subtotal;
      taxes.forEach((tax, i) => {
        const base = bases[i];
        const amount = base === undefined ? undefined : divRound(tax.rate * base, 100_000n);
        tax.cell.textContent = money(amount);
        total = amount === undefined || total === undefined ? undefined : total + amount;
      });
      const subtotalCell = totals.querySelector('[data-subtotal]');
      if (subtotalCell) subtotalCell.textContent = money(subtotal);
      const totalCell = totals.querySelector('[data-total]');
      if (totalCell) totalCell.textContent = money(total);
    };
    builder.addEventListener('input', recompute);
    builder.addEventListener('change', recompute);
  }

  // The builder's lines: drag a row by its handle, or focus the handle and press ↑ or ↓, and the new order is saved
  // at once with what the form shows (a row dropped in another section takes that section), as the arrow buttons do
  // without the script. The page comes back at the moved line, marked as saved.
  const builderForm = doc.querySelector('form#builder');
  const lines = builderForm?.querySelector('.lines-card') ?? null;
  if (builderForm && lines) {
    const idOf = (row: ClientElement) => (row.getAttribute('data-line') ?? '').replace(/^line-/, '');
    const rows = () => {
      const all: ClientElement[] = [];
      lines.querySelectorAll('[data-section] > fieldset[data-line]').forEach((row) => all.push(row));
      return all;
    };
    const commit = (row: ClientElement) => {
      const section = row.parentElement;
      const select = row.querySelector('select[name$="-section"]') as ClientInput | null;
      if (section && select) select.value = (section.getAttribute('id') ?? '').replace(/^section-/, '');
      const order = builderForm.querySelector('[data-line-order]') as ClientInput | null;
      const action = builderForm.querySelector('[data-line-action]') as ClientInput | null;
      if (!order || !action) return;
      order.value = rows().map(idOf).join(',');
      action.setAttribute('name', 'do');
      action.value = `reorder:${idOf(row)}`;
      builderForm.submit();
    };
    let dragged: ClientElement | null = null;
    let home: { parent: ClientElement | null; next: ClientElement | null } = { parent: null, next: null };
    let dropped = false;
    lines.className += ' scripted';
    lines.querySelectorAll('[data-drag]').forEach((handle) => {
      const row = handle.closest('fieldset[data-line]');
      if (!row) return;
      handle.hidden = false;
      handle.addEventListener('pointerdown', () => row.setAttribute('draggable', 'true'));
      handle.addEventListener('pointerup', () => row.removeAttribute('draggable'));
      // The keys on the handle, or on the row itself when it has the focus after a move (its fragment focuses it).
      row.addEventListener('keydown', (event) => {
        if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
        if (event.target !== handle && event.target !== row) return;
        event.preventDefault();
        const all = rows();
        const other = all[all.indexOf(row) + (event.key === 'ArrowUp' ? -1 : 1)];
        const parent = other?.parentElement;
        if (!other || !parent) return;
        // Within a section a row swaps with its neighbour; past the section's edge it joins the next section's end.
        const same = parent === row.parentElement;
        parent.insertBefore(row, (event.key === 'ArrowUp') === same ? other : other.nextElementSibling);
        commit(row);
      });
      row.addEventListener('dragstart', (event) => {
        dragged = row;
        dropped = false;
        home = { parent: row.parentElement, next: row.nextElementSibling };
        if (event.dataTransfer) {
          event.dataTransfer.effectAllowed = 'move';
          event.dataTransfer.setData('text/plain', idOf(row));
        }
        row.className += ' dragging';
      });
      row.addEventListener('dragend', () => {
        row.removeAttribute('draggable');
        row.className = row.className.replace(/ dragging/g, '');
        if (!dropped && home.parent) home.parent.insertBefore(row, home.next);
        dragged = null;
      });
    });
    lines.addEventListener('dragover', (event) => {
      const moving = dragged;
      const over = (event.target as ClientElement | null)?.closest?.('[data-section]');
      if (!moving || !over) return;
      event.preventDefault();
      const target = (event.target as ClientElement).closest('fieldset[data-line]');
      if (target === moving) return;
      if (target && target.parentElement === over) {
        const box = target.getBoundingClientRect();
        over.insertBefore(moving, event.clientY > box.top + box.height / 2 ? target.nextElementSibling : target);
        return;
      }
      // Over a section's heading or its empty place: to its start when above its first row, else to its end.
      const first = over.querySelector(':scope > fieldset[data-line]');
      if (first && first !== moving && event.clientY < first.getBoundingClientRect().top)
        over.insertBefore(moving, first);
      else if (moving.parentElement !== over || moving.nextElementSibling) over.appendChild(moving);
    });
    lines.addEventListener('drop', (event) => {
      const moving = dragged;
      if (!moving) return;
      event.preventDefault();
      dropped = true;
      if (moving.parentElement !== home.parent || moving.nextElementSibling !== home.next) commit(moving);
    });
  }

  // The form editor's colour: the contrast with white as the owner picks (Save still checks it on the server).
  doc.querySelectorAll('p[data-contrast-of]').forEach((hint) => {
    const picker = doc.querySelector(hint.getAttribute('data-contrast-of') ?? '') as ClientInput | null;
    if (!picker) return;
    const min = Number(hint.getAttribute('data-min') ?? '4.5');
    const update = () => {
      const hex = picker.value.toLowerCase();
      if (!/^#[0-9a-f]{6}$/.test(hex)) return;
      const ratio = shared.contrastWithWhite(hex);
      const ok = ratio >= min;
      hint.textContent = (hint.getAttribute(ok ? 'data-pass' : 'data-fail') ?? '')
        .replace('{colour}', hex)
        .replace('{ratio}', ratio.toFixed(2));
      hint.className = `small contrast-hint ${ok ? 'ok' : 'bad'}`;
    };
    picker.addEventListener('input', update);
    picker.addEventListener('change', update);
  });

  doc.querySelectorAll('form[data-confirm]').forEach((form) => {
    form.addEventListener('submit', (event) => {
      if (!win.confirm(form.getAttribute('data-confirm') ?? 'Are you sure?')) event.preventDefault();
    });
  });
}

/** The server's own functions the script is given (web/admin/assets/index.ts), each served as its source. */
export interface AdminShared {
  contrastWithWhite(hex: string): number;
}

/** The slice of the DOM the script uses; names and shapes as in lib.dom.d.ts. */
export interface ClientElement {
  hidden: boolean;
  textContent: string | null;
  className: string;
  parentElement: ClientElement | null;
  nextElementSibling: ClientElement | null;
  getAttribute(name: string): string | null;
  querySelector(selector: string): ClientElement | null;
  querySelectorAll(selector: string): { forEach(each: (element: ClientElement) => void): void };
  closest(selector: string): ClientElement | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  insertBefore(node: ClientElement, before: ClientElement | null): unknown;
  appendChild(node: ClientElement): unknown;
  getBoundingClientRect(): { top: number; height: number };
  focus(): void;
  submit(): void;
  addEventListener(type: string, listener: (event: ClientEvent) => void): void;
  remove(): void;
}

/** What the listeners read of an event (a key, the pointer's height, a drag's data). */
interface ClientEvent {
  key?: string;
  clientY: number;
  target: unknown;
  dataTransfer?: { effectAllowed: string; setData(type: string, data: string): void } | null;
  preventDefault(): void;
}

interface ClientDetails extends ClientElement {
  open: boolean;
  contains(node: unknown): boolean;
}

interface ClientInput extends ClientElement {
  type: string;
  value: string;
  checked: boolean;
}

interface ClientTextArea extends ClientElement {
  value: string;
  select(): void;
}

export interface ClientDocument {
  body: { appendChild(node: ClientElement): unknown };
  documentElement: { getAttribute(name: string): string | null };
  querySelector(selector: string): ClientElement | null;
  querySelectorAll(selector: string): { forEach(each: (element: ClientElement) => void): void };
  addEventListener(type: 'keydown' | 'click', listener: (event: { key?: string; target: unknown }) => void): void;
  createElement(tag: 'textarea'): ClientTextArea;
  execCommand(command: 'copy'): boolean;
}

export interface ClientWindow {
  isSecureContext: boolean;
  navigator: { clipboard?: { writeText(text: string): Promise<void> } };
  fetch(
    url: string,
    init: { method: 'POST'; credentials: 'same-origin'; headers: Record<string, string>; body: string },
  ): Promise<{ ok: boolean; status: number; text(): Promise<string> }>;
  confirm(message: string): boolean;
}
