import { httpStatusOf } from '../../http/error-statuses.js';
import type { AppError } from '../../domain/errors.js';
import { html } from '../html.js';
import { shell, type ShellInput } from './layout.js';
import { workspacePath } from './admin-route.js';

export interface ErrorPageInput {
  requestId: string;
  /** A refused GET changed nothing by its nature, so only a refused POST says "Nothing was changed". */
  method: string;
  /** The top bar, when the person is signed in. */
  chrome?: ShellInput['chrome'];
}

/** Refusals as pages: people get HTML, not problem+json. 404 reads the same for "missing" and "not yours". */
export function errorPage(error: AppError, input: ErrorPageInput): string {
  const status = httpStatusOf(error);
  const reading = input.method === 'GET' || input.method === 'HEAD';
  const [heading, text] = (() => {
    switch (error.code) {
      case 'csrf_failed':
        return ['The form expired', 'Nothing was changed. Go back, reload the page and try again.'];
      case 'owner_only':
        return reading
          ? [
              'Only owners can open this page',
              'You do not have access to this page: it is for the owners of this workspace. Ask an owner if you ' +
                'need something from it.',
            ]
          : ['Only an owner can do this', 'Nothing was changed. Ask an owner of this workspace.'];
      case 'rate_limited':
        return ['Please wait a moment', error.detail];
      default:
        if (status === 404) return ['Not found', 'This page does not exist, or it is not in a workspace of yours.'];
        if (status < 500) return ['That did not work', error.detail];
        return [
          'Something went wrong',
          reading
            ? 'The page could not be shown. Please try again in a moment.'
            : 'Nothing was changed. Please try again in a moment.',
        ];
    }
  })();
  const home = input.chrome ? (input.chrome.workspace ?? input.chrome.workspaces[0]) : undefined;
  return shell({
    title: heading,
    chrome: input.chrome,
    body: html`<div class="auth"><div class="card" id="refusal">
<h1>${heading}</h1>
<p>${text}</p>
${status >= 500 ? html`<p class="muted small">Reference: <code>${input.requestId}</code></p>` : ''}
<p>${
      home
        ? html`<a href="${workspacePath(home.workspaceId, 'leads')}">Go to the Leads inbox</a>`
        : html`<a href="/">Back to Leadscan</a>`
    }</p>
</div></div>`,
  });
}
