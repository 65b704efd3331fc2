/**
 * The admin app's only script: conveniences on top of pages that work without it (docs/security.md, "How it is
 * kept safe"). It is served as `(adminClient)(document, window)` from /admin/assets/admin.js, so it must stay
 * self-contained: no imports, no outer names (the served text is this function's compiled source).
 *
 * - `button[data-copy-target="#id"]` copies that element's text; `button[data-copy-url]` copies the text the URL
 *   answers to a POST carrying the button's `data-csrf` token (the upload key is fetched only when asked for, and
 *   the copy is audited, so it is a POST like every other action). Copy buttons are `hidden` until this script runs.
 * - `form[data-confirm="…"]` asks before submitting (Regenerate, Delete, Remove).
 * - `input[type=file][data-read-into="#id"]` reads the chosen file into that textarea (the price list's CSV import).
 * - `time[data-local]` is rewritten in the viewer's time zone.
 * - On a phone, the top bar's sideways-scrolling screens start with the current one in view.
 *
 * Typed against the small slice of the DOM it uses (below) rather than `lib: dom`, which would put browser
 * globals into the server's type space and clash with Node's own fetch and Buffer types.
 */
export function adminClient(doc: ClientDocument, win: ClientWindow): void {
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

  // Times arrive as UTC text; show them in the viewer's own time zone (docs/admin-app.md).
  doc.querySelectorAll('time[data-local]').forEach((time) => {
    const iso = time.getAttribute('datetime');
    if (iso) time.textContent = new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  });

  // On a phone the screens scroll sideways: bring the current one into view when it starts off the edge.
  const strip = doc.querySelector('.screens') as ClientScroller | null;
  const current = doc.querySelector('.screens [aria-current="page"]') as ClientScroller | null;
  if (strip && current && strip.scrollWidth > strip.clientWidth) {
    const edge = strip.getBoundingClientRect();
    const item = current.getBoundingClientRect();
    if (item.right > edge.right) strip.scrollLeft += item.right - edge.right + 24;
  }

  // A chosen file's text goes into the textarea the form posts (the price list's CSV import; no multipart upload).
  doc.querySelectorAll('input[data-read-into]').forEach((input) => {
    input.addEventListener('change', () => {
      const file = (input as ClientFileInput).files?.[0];
      const target = doc.querySelector(input.getAttribute('data-read-into') ?? '') as ClientTextArea | null;
      if (file && target) void file.text().then((text) => (target.value = text));
    });
  });

  doc.querySelectorAll('form[data-confirm]').forEach((form) => {
    form.addEventListener('submit', (event) => {
      if (!win.confirm(form.getAttribute('data-confirm') ?? 'Are you sure?')) event.preventDefault();
    });
  });
}

/** The slice of the DOM the script uses; names and shapes as in lib.dom.d.ts. */
export interface ClientElement {
  hidden: boolean;
  textContent: string | null;
  className: string;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  addEventListener(type: string, listener: (event: { preventDefault(): void }) => void): void;
  remove(): void;
}

interface ClientScroller extends ClientElement {
  scrollLeft: number;
  scrollWidth: number;
  clientWidth: number;
  getBoundingClientRect(): { left: number; right: number };
}

interface ClientFileInput extends ClientElement {
  files: { [index: number]: { text(): Promise<string> } | undefined } | null;
}

interface ClientTextArea extends ClientElement {
  value: string;
  select(): void;
}

export interface ClientDocument {
  body: { appendChild(node: ClientElement): unknown };
  querySelector(selector: string): ClientElement | null;
  querySelectorAll(selector: string): { forEach(each: (element: ClientElement) => void): void };
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
