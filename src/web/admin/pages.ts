import { httpStatusOf } from '../../http/error-statuses.js';
import type { AppError } from '../../domain/errors.js';
import { html } from '../html.js';
import { shell } from './layout.js';

/** Refusals as pages: people get HTML, not problem+json. 404 reads the same for "missing" and "not yours". */
export function errorPage(error: AppError, requestId: string): string {
  const [heading, text] = (() => {
    switch (error.code) {
      case 'csrf_failed':
        return ['The form expired', 'Nothing was changed. Go back, reload the page and try again.'];
      case 'owner_only':
        return ['Only an owner can do this', 'Nothing was changed. Ask an owner of this workspace.'];
      case 'rate_limited':
        return ['Please wait a moment', error.detail];
      default:
        if (httpStatusOf(error) === 404) return ['Not found', 'This page does not exist, or it is not in a workspace of yours.'];
        if (httpStatusOf(error) < 500) return ['That did not work', error.detail];
        return ['Something went wrong', 'Nothing was changed. Please try again in a moment.'];
    }
  })();
  return shell({
    title: heading,
    body: html`<div class="auth"><div class="card">
<h1>${heading}</h1>
<p>${text}</p>
${httpStatusOf(error) >= 500 ? html`<p class="muted small">Reference: <code>${requestId}</code></p>` : ''}
<p><a href="/">Back to Leadscan</a></p>
</div></div>`,
  });
}
