import { BOT_CHECK_RESPONSE_FIELDS, RECAPTCHA_V3 } from '../bot-check-widget.js';
import { CONTACT_FIELDS, CONTACT_HINT_ID, FORM_FIELDS, FORM_KEY_FIELD } from '../form-fields.js';
import { FORM_MESSAGES } from '../messages.js';
import { PAGE_URL_FIELD, PAGE_URL_MAX } from '../../domain/lead-fields.js';
import { EMBED_MESSAGES } from '../embed-snippet.js';

const CONFIG = {
  fields: FORM_FIELDS.map((f) => f.name),
  contact: CONTACT_FIELDS,
  // Not lead fields: the widget's own fields (sent as botCheckToken) and the no-script key (sent as a header).
  dropFields: [...BOT_CHECK_RESPONSE_FIELDS, FORM_KEY_FIELD],
  hintId: CONTACT_HINT_ID,
  messages: FORM_MESSAGES,
  recaptchaV3: RECAPTCHA_V3,
  // How long to wait for reCAPTCHA v3 to hand out a token before sending without one (the server then refuses).
  tokenWaitMs: 10000,
  // A post that gets no answer in this time is treated like a lost connection: kept and sent again.
  timeoutMs: 15000,
  // Waits between attempts of a post that failed on the network or on our side (the last one repeats).
  retryDelaysMs: [1000, 2000, 4000, 8000, 15000, 30000],
  pageUrlField: PAGE_URL_FIELD,
  pageUrlMax: PAGE_URL_MAX,
  pendingPrefix: 'leadscan:pending:',
  embed: EMBED_MESSAGES,
};

/**
 * The hosted form's script (progressive enhancement: without it the form posts to /f/{token} and the server
 * renders the answer). It posts JSON to the intake endpoint with one Idempotency-Key per submission, so a double
 * click or a retry after a lost answer is one lead, and it sends one request at a time. A post that fails on the
 * network or on our side is kept (in the page and in localStorage) and sent again with the same key until it is
 * answered; a reload with a kept post resumes it and shows it in the fields. In a frame it talks to the embed
 * snippet (embed-snippet.ts): it learns the embedding page's address (sent as pageUrl) and reports its height.
 */
export const FORM_JS = `(function () {
  'use strict';
  var CONFIG = ${JSON.stringify(CONFIG)};
  var M = CONFIG.messages;
  var E = CONFIG.embed;

  // ---- In a frame: the embedding page's address and our height (docs/admin-app.md, "Embedding") ----
  var framed = window.parent && window.parent !== window;
  var parentOrigin = null;
  if (framed) document.documentElement.classList.add('embedded');

  function height() { return Math.ceil(document.documentElement.getBoundingClientRect().height); }

  function reportHeight() {
    // Only to the origin that told us its address: our height goes to no one else.
    if (parentOrigin) window.parent.postMessage({ type: E.height, height: height() }, parentOrigin);
  }

  function acceptPageUrl(url) {
    var field = document.getElementById('f-' + CONFIG.pageUrlField);
    if (!field || typeof url !== 'string' || url.length > CONFIG.pageUrlMax || !/^https?:\\/\\//i.test(url)) return;
    field.value = url;
  }

  if (framed) {
    window.addEventListener('message', function (event) {
      var data = event.data;
      if (event.source !== window.parent || !data || data.type !== E.page || typeof data.url !== 'string') return;
      // The address must be of the page that sent it: another origin cannot make us record its pages.
      var origin;
      try { origin = new URL(data.url).origin; } catch (e) { return; }
      if (origin !== event.origin) return;
      parentOrigin = event.origin;
      acceptPageUrl(data.url);
      reportHeight();
    });
    if (window.ResizeObserver) new ResizeObserver(reportHeight).observe(document.documentElement);
    window.addEventListener('load', reportHeight);
    // Ask the snippet for the page's address; the message carries nothing, so any origin may see it.
    window.parent.postMessage({ type: E.hello }, '*');
  }

  var form = document.getElementById('lead-form');
  if (!form || !window.fetch || !window.FormData) return;
  var statusEl = document.getElementById('form-status');
  var button = form.querySelector('button[type="submit"]');
  var hint = document.getElementById(CONFIG.hintId);
  var thanks = document.getElementById('thanks');
  var provider = form.getAttribute('data-bot-check');
  var providerField = form.getAttribute('data-bot-check-field');
  var siteKey = form.getAttribute('data-site-key');
  var isV3 = provider === CONFIG.recaptchaV3;

  function uuid() {
    if (window.crypto && typeof window.crypto.randomUUID === 'function') return window.crypto.randomUUID();
    // randomUUID needs a secure context; getRandomValues does not (a form served over plain http).
    var b = window.crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 15) | 64;
    b[8] = (b[8] & 63) | 128;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join('');
    return h.slice(0, 8) + '-' + h.slice(8, 12) + '-' + h.slice(12, 16) + '-' + h.slice(16, 20) + '-' + h.slice(20);
  }

  // Made once per page load. It changes only after the server refused the submission outright (400/422), when
  // nothing was stored and the corrected form is a new submission.
  var idempotencyKey = uuid();
  var sending = false;

  function input(name) { return document.getElementById('f-' + name); }

  // The first focusable control of a field (a group's first box).
  function focusable(el) { return el && el.tagName === 'FIELDSET' ? el.querySelector('input') : el; }

  var pendingKey = CONFIG.pendingPrefix + form.getAttribute('data-intake');
  function loadPending() {
    try {
      var kept = JSON.parse(window.localStorage.getItem(pendingKey) || 'null');
      return kept && typeof kept.key === 'string' && kept.payload && typeof kept.payload === 'object' ? kept : null;
    } catch (e) { return null; }
  }
  function savePending(pending) {
    try { window.localStorage.setItem(pendingKey, JSON.stringify(pending)); } catch (e) { /* kept in the page only */ }
  }
  function clearPending() {
    try { window.localStorage.removeItem(pendingKey); } catch (e) { /* nothing kept */ }
  }

  function setFieldError(name, message) {
    var el = input(name);
    var error = document.getElementById('f-' + name + '-error');
    if (!el || !error) return false;
    error.textContent = message || '';
    if (message) el.setAttribute('aria-invalid', 'true');
    else el.removeAttribute('aria-invalid');
    return true;
  }

  function setStatus(text, isError) {
    statusEl.textContent = text;
    statusEl.classList.toggle('error', Boolean(isError));
  }

  function customNames() {
    return Array.prototype.map.call(form.querySelectorAll('[data-custom]'), function (el) { return el.getAttribute('data-custom'); });
  }

  function clearErrors() {
    CONFIG.fields.concat(customNames()).forEach(function (name) { setFieldError(name, ''); });
    hint.textContent = M.contactHint;
    hint.classList.remove('error');
  }

  function fieldMessage(e) {
    if (e.code === 'too_long' && typeof e.max === 'number') return M.tooLong.replace('{max}', String(e.max));
    if (e.code === 'invalid_type') return M.invalidType;
    return String(e.message || '');
  }

  function showProblem(problem) {
    var code = problem && problem.code;
    var others = [];
    var errors = problem && Array.isArray(problem.errors) ? problem.errors : [];
    var shown = CONFIG.fields.concat(customNames());
    errors.forEach(function (e) {
      var name = e.field === 'message' ? 'notes' : e.field;
      if (shown.indexOf(name) < 0 || !setFieldError(name, fieldMessage(e))) others.push(String(e.message || ''));
    });
    if (code === 'missing_contact') {
      hint.textContent = M.missingContact;
      hint.classList.add('error');
      CONFIG.contact.forEach(function (name) { input(name).setAttribute('aria-invalid', 'true'); });
    }
    var text = M.failed;
    if (code === 'missing_contact' || code === 'invalid_fields') text = M.fixFields;
    else if (code === 'bot_check_failed') text = isV3 ? M.botCheckScoreFailed : M.botCheckFailed;
    else if (code === 'rate_limited') text = M.rateLimited;
    else if (code === 'intake_unavailable') text = M.closed;
    setStatus([text].concat(others).join(' '), true);
    var first = shown.filter(function (name) { return input(name) && input(name).getAttribute('aria-invalid') === 'true'; })[0];
    if (first) focusable(input(first)).focus();
  }

  // Bot-check tokens are single use: once the server has answered a failed submit, the widget must hand out a
  // fresh one.
  function rearmWidget() {
    try {
      if (provider === 'turnstile' && window.turnstile) window.turnstile.reset();
      else if (provider === 'hcaptcha' && window.hcaptcha) window.hcaptcha.reset();
      else if (provider === 'recaptcha' && window.grecaptcha) window.grecaptcha.reset();
    } catch (e) { /* the widget re-renders on its own if it cannot be reset */ }
  }

  // reCAPTCHA v3 has no widget: its tokens are single use and expire after two minutes, so each submit (a retry
  // too) asks for a fresh one. Resolves '' when the script is missing or does not answer, and the server refuses.
  function v3Token() {
    return new Promise(function (resolve) {
      var done = false;
      function settle(token) {
        if (done) return;
        done = true;
        resolve(typeof token === 'string' ? token : '');
      }
      var g = window.grecaptcha;
      if (!g || typeof g.ready !== 'function' || !siteKey) return settle('');
      setTimeout(function () { settle(''); }, CONFIG.tokenWaitMs);
      try {
        g.ready(function () {
          try {
            Promise.resolve(g.execute(siteKey, { action: 'submit' })).then(settle, function () { settle(''); });
          } catch (e) { settle(''); }
        });
      } catch (e) { settle(''); }
    });
  }

  function finish() {
    sending = false;
    button.disabled = false;
    form.removeAttribute('aria-busy');
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    if (sending) return;
    sending = true;
    button.disabled = true;
    form.setAttribute('aria-busy', 'true');
    clearErrors();
    setStatus(M.sending, false);

    var payload = Object.create(null);
    var lists = customNames();
    new FormData(form).forEach(function (value, key) {
      if (typeof value !== 'string') return;
      // A group of boxes sends every ticked one; everything else its first value.
      if (lists.indexOf(key) >= 0 && form.querySelector('input[type="checkbox"][name="' + key + '"]')) {
        (payload[key] = payload[key] || []).push(value);
      } else if (!(key in payload)) payload[key] = value;
    });
    if (!payload[CONFIG.pageUrlField]) delete payload[CONFIG.pageUrlField];
    if (provider) payload.botCheckToken = (providerField && payload[providerField]) || '';
    CONFIG.dropFields.forEach(function (name) { delete payload[name]; });

    if (!isV3) return send(payload);
    v3Token().then(function (token) {
      payload.botCheckToken = token;
      send(payload);
    });
  });

  function showThanks() {
    form.hidden = true;
    thanks.hidden = false;
    thanks.focus();
    reportHeight();
  }

  var retryTimer = null;
  var attempt = 0;

  function retryLater(pending) {
    // Not a thank-you: the message is kept and goes out again by itself, with the same key.
    setStatus(M.retrying, true);
    var delays = CONFIG.retryDelaysMs;
    var wait = delays[Math.min(attempt, delays.length - 1)];
    attempt += 1;
    clearTimeout(retryTimer);
    retryTimer = setTimeout(function () { post(pending); }, wait);
  }

  function post(pending) {
    var controller = window.AbortController ? new AbortController() : null;
    var timer = controller ? setTimeout(function () { controller.abort(); }, CONFIG.timeoutMs) : null;
    fetch(form.getAttribute('data-intake'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': pending.key },
      body: JSON.stringify(pending.payload),
      signal: controller ? controller.signal : undefined,
    }).then(function (response) {
      clearTimeout(timer);
      return response.json().catch(function () { return null; }).then(function (body) {
        if (response.ok && body && body.ok === true) {
          clearPending();
          showThanks();
          return;
        }
        // Our side failed, or the first attempt is still being stored, or too many at once: the same post again.
        if (response.status >= 500 || response.status === 409 || response.status === 429) return retryLater(pending);
        // Refused outright (400/404/422): nothing was stored; the corrected form is a new submission.
        clearPending();
        if (response.status === 400 || response.status === 422) idempotencyKey = uuid();
        showProblem(body);
        rearmWidget();
        finish();
      });
    }, function () {
      // The answer was lost, not refused: keep the key and the payload, so sending again is the same submission
      // (the server replays its answer) and cannot make a second lead.
      clearTimeout(timer);
      retryLater(pending);
    });
  }

  function send(payload) {
    var pending = { key: idempotencyKey, payload: payload };
    savePending(pending);
    attempt = 0;
    post(pending);
  }

  // The visitor's own controls: the page's hidden fields (render stamp, page address, key) are the new page's,
  // and a kept post's values go out as they were kept whatever the page holds.
  function isVisitorControl(el) {
    return Boolean(el.name) && ['hidden', 'submit', 'button', 'reset', 'file', 'image'].indexOf(el.type) < 0;
  }

  // A kept post is shown in the fields it came from: the visitor sees what is being sent, and if it is refused
  // (400/422) corrects it instead of typing it all again. A box or a radio is ticked exactly when the post had
  // its value (an unticked one sends nothing); a text, a list or a date takes the value sent.
  function refill(payload) {
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!isVisitorControl(el)) return;
      var sent = Object.prototype.hasOwnProperty.call(payload, el.name) ? [].concat(payload[el.name]).map(String) : null;
      if (el.type === 'checkbox' || el.type === 'radio') el.checked = sent !== null && sent.indexOf(el.value) >= 0;
      else if (sent !== null) el.value = sent[0] === undefined ? '' : sent[0];
    });
  }

  // A post kept from before a reload (or a closed tab) goes out again, with its own key.
  var kept = loadPending();
  if (kept) {
    refill(kept.payload);
    sending = true;
    button.disabled = true;
    form.setAttribute('aria-busy', 'true');
    setStatus(M.retrying, true);
    post(kept);
  }
})();
`;
