import { SPAM_RULE_LIMITS, type SpamRuleList, type SpamRules } from '../../../domain/sources/spam-rules.js';
import type { SpamRulesView } from '../../../domain/sources/update-spam-rules.js';
import { html, type SafeHtml } from '../../html.js';
import type { WorkspaceCall } from '../admin-route.js';
import { workspacePath } from '../admin-route.js';
import { csrfField, field, type FormErrors } from '../form-controls.js';
import { notice } from '../notices.js';

const FIELDS: Array<[list: SpamRuleList, label: string, hint: string]> = [
  ['blockedEmails', 'Blocked emails', 'One address a line, any case: a post from it goes to Quarantine.'],
  [
    'blockedDomains',
    'Blocked email domains',
    'One a line, e.g. spam-agency.example: its addresses and its subdomains’ go to Quarantine.',
  ],
  [
    'blockedWords',
    'Blocked words',
    'One word or phrase a line, matched whole and in any case in the name, message and extra fields.',
  ],
  [
    'allowedSites',
    'Allowed sites',
    'Optional. One host a line (www.example.com, or *.example.com for its subdomains). When set, a post sent from ' +
      'any other site goes to Quarantine; a post that names no site (a server-side integration) and this server’s ' +
      'own hosted form are always let through.',
  ],
];

/** A source's spam rules page (docs/admin-app.md, "Spam rules"): four lists, one entry a line, saved together. */
export function spamRulesPage(
  call: WorkspaceCall,
  input: { view: SpamRulesView; errors?: FormErrors; values?: Partial<Record<SpamRuleList, string>> },
): SafeHtml {
  const { view } = input;
  const source = workspacePath(call.workspace.workspaceId, `sources/${view.sourceId}`);
  const value = (list: keyof SpamRules) => input.values?.[list] ?? view.rules[list].join('\n');
  return html`<p class="small"><a href="${source}">← ${view.name}</a></p>
<div class="page-head"><div><h1>Spam rules</h1>
<p class="muted">${view.name}: posts that match go to <a href="${workspacePath(
    call.workspace.workspaceId,
    'quarantine',
  )}">Quarantine</a> with the rule that caught them, where Restore makes them leads. The sender always sees the usual
  thank-you.</p></div></div>
${notice(call.query.notice)}
<section class="card" aria-labelledby="rules-heading">
<h2 id="rules-heading" class="offscreen">Rules</h2>
<form method="post" action="${source}/spam" novalidate class="spam-rules">
${csrfField(call.csrf)}
${FIELDS.map(([list, label, hint]) =>
  field({
    name: list,
    label,
    value: value(list),
    errors: input.errors,
    textarea: true,
    hint: `${hint} At most ${SPAM_RULE_LIMITS.entries} entries.`,
  }),
)}
<button type="submit">Save rules</button>
</form>
</section>`;
}

/** The source page's line about its rules, with the link to edit them. */
export function spamRulesSummary(base: string, rules: SpamRules | null): SafeHtml {
  const blocked = rules ? rules.blockedEmails.length + rules.blockedDomains.length + rules.blockedWords.length : 0;
  const sites = rules?.allowedSites.length ?? 0;
  return html`<section class="card" aria-labelledby="spam-heading">
<h2 id="spam-heading">Spam rules</h2>
<p class="muted small">${
    blocked === 0 && sites === 0
      ? 'None: only the hidden trap field catches bots.'
      : `${blocked} blocked ${blocked === 1 ? 'entry' : 'entries'}; ${
          sites === 0 ? 'any site may post' : `${sites} allowed ${sites === 1 ? 'site' : 'sites'}`
        }.`
  }</p>
<p><a class="button secondary" href="${base}/spam" id="spam-rules-link">Edit spam rules</a></p>
</section>`;
}
