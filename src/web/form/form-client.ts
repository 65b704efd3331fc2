import type { FormProblem } from './messages.js';

/**
 * What the script is told by the server: served as `(formClient)(document, window, config)` from /f/assets/form.js
 * (assets.ts), so the messages it shows are the server's own tables (messages.ts), not a copy.
 */
export interface FormClientConfig {
  /** The built-in fields' names (their controls are `#f-<name>`). */
  fields: string[];
  /** Name, phone, email: described by the "at least one" hint. */
  contact: string[];
  /** Not lead fields: the widget's own fields (sent as botCheckToken) and the no-script key (sent as a header). */
  dropFields: string[];
  hintId: string;
  messages: {
    contactHint: string;
    missingContact: string;
    botCheckScoreFailed: string;
    sending: string;
    retrying: string;
  };
  fieldMessages: Readonly<Record<string, string>>;
  problems: Readonly<Record<string, FormProblem>>;
  failed: FormProblem;
  recaptchaV3: string;
  /** How long to wait for reCAPTCHA v3 to hand out a token before sending without one (the server then refuses). */
  tokenWaitMs: number;
  /** A post that gets no answer in this time is treated like a lost connection: kept and sent again. */
  timeoutMs: number;
  /** Waits between attempts of a post that failed on the network or on our side (the last one repeats). */
  retryDelaysMs: number[];
  pageUrlField: string;
  pageUrlMax: number;
  pendingPrefix: string;
  embed: { hello: string; page: string; height: string };
}

type Payload = Record<string, string | string[]>;
interface Pending {
  key: string;
  payload: Payload;
}
interface FieldProblem {
  field?: unknown;
  code?: unknown;
  message?: unknown;
  max?: unknown;
}

/**
 * The hosted form's script (progressive enhancement: without it the form posts to /f/{token} and the server
 * renders the answer). It posts JSON to the intake endpoint with one Idempotency-Key per submission, so a double
 * click or a retry after a lost answer is one lead, and it sends one request at a time. A post that fails on the
 * network or on our side is kept (in the page and in localStorage) and sent again with the same key until it is
 * answered; a reload with a kept post resumes it and shows it in the fields. In a frame it talks to the embed
 * snippet (embed-snippet.ts): it learns the embedding page's address (sent as pageUrl) and reports its height.
 *
 * It must stay self-contained: no imports at run time, no outer names (the served text is this function's compiled
 * source). Typed against the slice of the DOM it uses (below), like the admin app's script.
 */
export function formClient(doc: FormDocument, win: FormWindow, config: FormClientConfig): void {
  const M = config.messages;
  const E = config.embed;

  // ---- In a frame: the embedding page's address and our height (docs/admin-app.md, "Embedding") ----
  const framed = Boolean(win.parent) && win.parent !== win;
  let parentOrigin: string | null = null;
  if (framed) doc.documentElement.classList.add('embedded');

  const height = () => Math.ceil(doc.documentElement.getBoundingClientRect().height);

  const reportHeight = () => {
    // Only to the origin that told us its address: our height goes to no one else.
    if (parentOrigin) win.parent.postMessage({ type: E.height, height: height() }, parentOrigin);
  };

  const acceptPageUrl = (url: unknown) => {
    const field = doc.getElementById(`f-${config.pageUrlField}`);
    if (!field || typeof url !== 'string' || url.length > config.pageUrlMax || !/^https?:\/\//i.test(url)) return;
    field.value = url;
  };

  if (framed) {
    win.addEventListener('message', (event: FormMessageEvent) => {
      const data = event.data as { type?: unknown; url?: unknown } | null;
      if (event.source !== win.parent || !data || data.type !== E.page || typeof data.url !== 'string') return;
      // The address must be of the page that sent it: another origin cannot make us record its pages.
      let origin: string;
      try {
        origin = new URL(data.url).origin;
      } catch {
        return;
      }
      if (origin !== event.origin) return;
      parentOrigin = event.origin;
      acceptPageUrl(data.url);
      reportHeight();
    });
    if (win.ResizeObserver) new win.ResizeObserver(reportHeight).observe(doc.documentElement);
    win.addEventListener('load', reportHeight);
    // Ask the snippet for the page's address; the message carries nothing, so any origin may see it.
    win.parent.postMessage({ type: E.hello }, '*');
  }

  const form = doc.getElementById('lead-form') as FormElement | null;
  if (!form || !win.fetch || !win.FormData) return;
  const statusEl = doc.getElementById('form-status') as FormControl;
  const button = form.querySelector('button[type="submit"]') as FormControl;
  const hint = doc.getElementById(config.hintId);
  const thanks = doc.getElementById('thanks') as FormControl;
  const provider = form.getAttribute('data-bot-check');
  const providerField = form.getAttribute('data-bot-check-field');
  const siteKey = form.getAttribute('data-site-key');
  const isV3 = provider === config.recaptchaV3;

  const uuid = (): string => {
    if (win.crypto && typeof win.crypto.randomUUID === 'function') return win.crypto.randomUUID();
    // randomUUID needs a secure context; getRandomValues does not (a form served over plain http).
    const b = win.crypto.getRandomValues(new Uint8Array(16));
    b[6] = ((b[6] ?? 0) & 15) | 64;
    b[8] = ((b[8] ?? 0) & 63) | 128;
    const h = Array.from(b, (x) => (x + 256).toString(16).slice(1)).join('');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  };

  // Made once per page load. It changes only after the server refused the submission outright (400/422), when
  // nothing was stored and the corrected form is a new submission.
  let idempotencyKey = uuid();
  let sending = false;

  const input = (name: string) => doc.getElementById(`f-${name}`);

  // The first focusable control of a field (a group's first box).
  const focusable = (el: FormControl) => (el.tagName === 'FIELDSET' ? el.querySelector('input') : el);

  const pendingKey = config.pendingPrefix + (form.getAttribute('data-intake') ?? '');
  const loadPending = (): Pending | null => {
    try {
      const kept = JSON.parse(win.localStorage.getItem(pendingKey) ?? 'null') as Partial<Pending> | null;
      return kept && typeof kept.key === 'string' && kept.payload && typeof kept.payload === 'object'
        ? (kept as Pending)
        : null;
    } catch {
      return null;
    }
  };
  const savePending = (pending: Pending) => {
    try {
      win.localStorage.setItem(pendingKey, JSON.stringify(pending));
    } catch {
      /* kept in the page only */
    }
  };
  const clearPending = () => {
    try {
      win.localStorage.removeItem(pendingKey);
    } catch {
      /* nothing kept */
    }
  };

  const setFieldError = (name: string, message: string): boolean => {
    const el = input(name);
    const error = doc.getElementById(`f-${name}-error`);
    if (!el || !error) return false;
    error.textContent = message;
    if (message) el.setAttribute('aria-invalid', 'true');
    else el.removeAttribute('aria-invalid');
    return true;
  };

  const setStatus = (text: string, isError: boolean) => {
    statusEl.textContent = text;
    statusEl.classList.toggle('error', isError);
  };

  const customNames = (): string[] => {
    const names: string[] = [];
    form.querySelectorAll('[data-custom]').forEach((el) => names.push(el.getAttribute('data-custom') ?? ''));
    return names;
  };

  // A form whose owner hid or relabelled a contact field carries its own words for the hint (form-page.ts).
  const hintWords = {
    plain: hint?.getAttribute('data-hint') ?? M.contactHint,
    missing: hint?.getAttribute('data-missing') ?? M.missingContact,
  };
  const showHint = (missing: boolean) => {
    if (!hint) return;
    hint.textContent = missing ? hintWords.missing : hintWords.plain;
    hint.classList.toggle('error', missing);
  };

  const clearErrors = () => {
    config.fields.concat(customNames()).forEach((name) => setFieldError(name, ''));
    showHint(false);
  };

  const fieldMessage = (e: FieldProblem): string => {
    const code = typeof e.code === 'string' ? e.code : '';
    const template = Object.hasOwn(config.fieldMessages, code) ? config.fieldMessages[code] : undefined;
    if (template !== undefined && (!template.includes('{max}') || typeof e.max === 'number')) {
      return template.replace('{max}', String(e.max));
    }
    return String(e.message ?? '');
  };

  const problemText = (code: unknown): string => {
    if (code === 'bot_check_failed' && isV3) return M.botCheckScoreFailed;
    const known = typeof code === 'string' && Object.hasOwn(config.problems, code) ? config.problems[code] : undefined;
    return (known ?? config.failed).text;
  };

  const showProblem = (problem: { code?: unknown; errors?: unknown } | null) => {
    const code = problem?.code;
    const others: string[] = [];
    const errors = Array.isArray(problem?.errors) ? (problem.errors as FieldProblem[]) : [];
    const shown = config.fields.concat(customNames());
    errors.forEach((e) => {
      const name = e.field === 'message' ? 'notes' : String(e.field);
      if (shown.indexOf(name) < 0 || !setFieldError(name, fieldMessage(e))) others.push(String(e.message ?? ''));
    });
    if (code === 'missing_contact') {
      showHint(true);
      config.contact.forEach((name) => input(name)?.setAttribute('aria-invalid', 'true'));
    }
    setStatus([problemText(code)].concat(others).join(' '), true);
    const first = shown.map(input).find((el) => el?.getAttribute('aria-invalid') === 'true');
    if (first) focusable(first)?.focus();
  };

  // Bot-check tokens are single use: once the server has answered a failed submit, the widget must hand out a
  // fresh one.
  const rearmWidget = () => {
    try {
      if (provider === 'turnstile' && win.turnstile) win.turnstile.reset();
      else if (provider === 'hcaptcha' && win.hcaptcha) win.hcaptcha.reset();
      else if (provider === 'recaptcha' && win.grecaptcha) win.grecaptcha.reset();
    } catch {
      /* the widget re-renders on its own if it cannot be reset */
    }
  };

  // reCAPTCHA v3 has no widget: its tokens are single use and expire after two minutes, so each submit (a retry
  // too) asks for a fresh one. Resolves '' when the script is missing or does not answer, and the server refuses.
  const v3Token = () =>
    new Promise<string>((resolve) => {
      let done = false;
      const settle = (token: unknown) => {
        if (done) return;
        done = true;
        resolve(typeof token === 'string' ? token : '');
      };
      const g = win.grecaptcha;
      if (!g || typeof g.ready !== 'function' || !siteKey) return settle('');
      win.setTimeout(() => settle(''), config.tokenWaitMs);
      try {
        g.ready(() => {
          try {
            Promise.resolve(g.execute?.(siteKey, { action: 'submit' })).then(settle, () => settle(''));
          } catch {
            settle('');
          }
        });
      } catch {
        settle('');
      }
    });

  const finish = () => {
    sending = false;
    button.disabled = false;
    form.removeAttribute('aria-busy');
  };

  const showThanks = () => {
    form.hidden = true;
    thanks.hidden = false;
    thanks.focus();
    reportHeight();
  };

  let retryTimer: unknown = null;
  let attempt = 0;

  const retryLater = (pending: Pending) => {
    // Not a thank-you: the message is kept and goes out again by itself, with the same key.
    setStatus(M.retrying, true);
    const delays = config.retryDelaysMs;
    const wait = delays[Math.min(attempt, delays.length - 1)] ?? 1000;
    attempt += 1;
    win.clearTimeout(retryTimer);
    retryTimer = win.setTimeout(() => post(pending), wait);
  };

  const post = (pending: Pending) => {
    const controller = win.AbortController ? new win.AbortController() : null;
    const timer = controller ? win.setTimeout(() => controller.abort(), config.timeoutMs) : null;
    win
      .fetch(form.getAttribute('data-intake') ?? '', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': pending.key },
        body: JSON.stringify(pending.payload),
        signal: controller ? controller.signal : undefined,
      })
      .then(
        (response) => {
          win.clearTimeout(timer);
          return response
            .json()
            .catch(() => null)
            .then((body) => {
              const answer = body as { ok?: unknown; code?: unknown; errors?: unknown } | null;
              if (response.ok && answer && answer.ok === true) {
                clearPending();
                showThanks();
                return;
              }
              // Our side failed, or the first attempt is still being stored, or too many at once: the same post again.
              if (response.status >= 500 || response.status === 409 || response.status === 429)
                return retryLater(pending);
              // Refused outright (400/404/422): nothing was stored; the corrected form is a new submission.
              clearPending();
              if (response.status === 400 || response.status === 422) idempotencyKey = uuid();
              showProblem(answer);
              rearmWidget();
              finish();
            });
        },
        () => {
          // The answer was lost, not refused: keep the key and the payload, so sending again is the same submission
          // (the server replays its answer) and cannot make a second lead.
          win.clearTimeout(timer);
          retryLater(pending);
        },
      );
  };

  const send = (payload: Payload) => {
    const pending = { key: idempotencyKey, payload };
    savePending(pending);
    attempt = 0;
    post(pending);
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (sending) return;
    sending = true;
    button.disabled = true;
    form.setAttribute('aria-busy', 'true');
    clearErrors();
    setStatus(M.sending, false);

    const payload: Payload = Object.create(null) as Payload;
    const lists = customNames();
    new win.FormData(form).forEach((value, key) => {
      if (typeof value !== 'string') return;
      // A group of boxes sends every ticked one; everything else its first value.
      if (lists.indexOf(key) >= 0 && form.querySelector(`input[type="checkbox"][name="${key}"]`)) {
        const list = payload[key];
        payload[key] = Array.isArray(list) ? list.concat(value) : [value];
      } else if (!(key in payload)) payload[key] = value;
    });
    if (!payload[config.pageUrlField]) delete payload[config.pageUrlField];
    if (provider) payload.botCheckToken = (providerField && payload[providerField]) || '';
    config.dropFields.forEach((name) => delete payload[name]);

    if (!isV3) return send(payload);
    void v3Token().then((token) => {
      payload.botCheckToken = token;
      send(payload);
    });
  });

  // An error goes as the person fixes its field: typing in it (or ticking a box of its group) clears that field's
  // message, and a contact field given a value clears the "at least one" hint. The server checks again on Send.
  const fixing = (event: { target: unknown }) => {
    const name = (event.target as FormControl | null)?.name ?? '';
    if (!name) return;
    if (input(name)?.getAttribute('aria-invalid') === 'true') setFieldError(name, '');
    if (config.contact.indexOf(name) >= 0 && hint?.classList.contains('error')) {
      const given = config.contact.some((contact) => (input(contact)?.value ?? '').trim() !== '');
      if (given) {
        showHint(false);
        config.contact.forEach((contact) => {
          if (!doc.getElementById(`f-${contact}-error`)?.textContent) input(contact)?.removeAttribute('aria-invalid');
        });
      }
    }
  };
  form.addEventListener('input', fixing);
  form.addEventListener('change', fixing);

  // The visitor's own controls: the page's hidden fields (render stamp, page address, key) are the new page's,
  // and a kept post's values go out as they were kept whatever the page holds.
  const isVisitorControl = (el: FormControl) =>
    Boolean(el.name) && ['hidden', 'submit', 'button', 'reset', 'file', 'image'].indexOf(el.type) < 0;

  // A kept post is shown in the fields it came from: the visitor sees what is being sent, and if it is refused
  // (400/422) corrects it instead of typing it all again. A box or a radio is ticked exactly when the post had
  // its value (an unticked one sends nothing); a text, a list or a date takes the value sent.
  const refill = (payload: Payload) => {
    Array.prototype.forEach.call(form.elements, (el: FormControl) => {
      if (!isVisitorControl(el)) return;
      const sent = Object.prototype.hasOwnProperty.call(payload, el.name)
        ? ([] as unknown[]).concat(payload[el.name]).map(String)
        : null;
      if (el.type === 'checkbox' || el.type === 'radio') el.checked = sent !== null && sent.indexOf(el.value) >= 0;
      else if (sent !== null) el.value = sent[0] === undefined ? '' : sent[0];
    });
  };

  // A post kept from before a reload (or a closed tab) goes out again, with its own key.
  const kept = loadPending();
  if (kept) {
    refill(kept.payload);
    sending = true;
    button.disabled = true;
    form.setAttribute('aria-busy', 'true');
    setStatus(M.retrying, true);
    post(kept);
  }
}

/** The slice of the DOM the script uses; names and shapes as in lib.dom.d.ts. */
export interface FormControl {
  tagName: string;
  name: string;
  type: string;
  value: string;
  checked: boolean;
  disabled: boolean;
  hidden: boolean;
  textContent: string | null;
  classList: {
    add(name: string): void;
    remove(name: string): void;
    toggle(name: string, on: boolean): void;
    contains(name: string): boolean;
  };
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  querySelector(selector: string): FormControl | null;
  querySelectorAll(selector: string): { forEach(each: (element: FormControl) => void): void };
  addEventListener(type: string, listener: (event: { preventDefault(): void; target: unknown }) => void): void;
  focus(): void;
  getBoundingClientRect(): { height: number };
}

interface FormElement extends FormControl {
  elements: ArrayLike<FormControl>;
}

interface FormMessageEvent {
  data: unknown;
  origin: string;
  source: unknown;
}

export interface FormDocument {
  documentElement: FormControl;
  getElementById(id: string): FormControl | null;
}

interface Widget {
  reset(): void;
  ready?(then: () => void): void;
  execute?(siteKey: string, options: { action: string }): unknown;
}

export interface FormWindow {
  parent: FormWindow & { postMessage(message: unknown, targetOrigin: string): void };
  addEventListener(type: 'message', listener: (event: FormMessageEvent) => void): void;
  addEventListener(type: 'load', listener: () => void): void;
  ResizeObserver?: new (callback: () => void) => { observe(target: FormControl): void };
  AbortController?: new () => { signal: unknown; abort(): void };
  FormData: new (form: FormElement) => { forEach(each: (value: unknown, key: string) => void): void };
  fetch(
    url: string,
    init: { method: 'POST'; headers: Record<string, string>; body: string; signal: unknown },
  ): Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;
  crypto: { randomUUID?(): string; getRandomValues(array: Uint8Array): Uint8Array };
  localStorage: {
    getItem(key: string): string | null;
    setItem(key: string, value: string): void;
    removeItem(key: string): void;
  };
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
  turnstile?: Widget;
  hcaptcha?: Widget;
  grecaptcha?: Widget;
}
