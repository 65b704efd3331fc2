import { BOT_CHECK_RESPONSE_FIELDS, RECAPTCHA_V3 } from '../bot-check-widget.js';
import { CONTACT_FIELDS, CONTACT_HINT_ID, FORM_FIELDS, FORM_KEY_FIELD } from '../form-fields.js';
import { FORM_MESSAGES } from '../messages.js';

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
};

/**
 * The hosted form's script (progressive enhancement: without it the form posts to /f/{token} and the server
 * renders the answer). It posts JSON to the intake endpoint with one Idempotency-Key per page load, so a double
 * click or a retry after a lost answer is one lead, and it sends one request at a time.
 */
export const FORM_JS = `(function () {
  'use strict';
  var CONFIG = ${JSON.stringify(CONFIG)};
  var M = CONFIG.messages;
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

  function clearErrors() {
    CONFIG.fields.forEach(function (name) { setFieldError(name, ''); });
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
    errors.forEach(function (e) {
      var name = e.field === 'message' ? 'notes' : e.field;
      if (CONFIG.fields.indexOf(name) < 0 || !setFieldError(name, fieldMessage(e))) others.push(String(e.message || ''));
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
    var first = CONFIG.fields.filter(function (name) { return input(name).getAttribute('aria-invalid') === 'true'; })[0];
    if (first) input(first).focus();
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
    new FormData(form).forEach(function (value, key) {
      if (typeof value === 'string' && !(key in payload)) payload[key] = value;
    });
    if (provider) payload.botCheckToken = (providerField && payload[providerField]) || '';
    CONFIG.dropFields.forEach(function (name) { delete payload[name]; });

    if (!isV3) return send(payload);
    v3Token().then(function (token) {
      payload.botCheckToken = token;
      send(payload);
    });
  });

  function send(payload) {
    fetch(form.getAttribute('data-intake'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey },
      body: JSON.stringify(payload),
    }).then(function (response) {
      return response.json().catch(function () { return null; }).then(function (body) {
        if (response.ok && body && body.ok === true) {
          form.hidden = true;
          thanks.hidden = false;
          thanks.focus();
          return;
        }
        if (response.status === 400 || response.status === 422) idempotencyKey = uuid();
        showProblem(body);
        rearmWidget();
        finish();
      });
    }, function () {
      // The answer was lost, not refused: keep the key and the widget's token, so sending again is the same
      // submission (the server replays its answer) and cannot make a second lead. (reCAPTCHA v3 asks for a fresh
      // token anyway: the token is not part of what the key covers.)
      setStatus(M.offline, true);
      finish();
    });
  }
})();
`;
