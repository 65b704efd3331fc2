import type { SignedInUser } from '../../domain/auth/sessions.js';
import type { WorkspaceAccess } from '../../domain/members/workspace-access.js';
import { html, type SafeHtml } from '../html.js';
import { adminAssetHref } from './assets/index.js';
import { workspacePath, type NavItem } from './routes.js';

export interface ShellInput {
  title: string;
  body: SafeHtml;
  /** Signed in: the top bar with the nav, the switcher, Account and Sign out. */
  chrome?: {
    user: SignedInUser;
    csrf: string;
    nav: NavItem[];
    area: string;
    workspace: WorkspaceAccess | undefined;
    workspaces: WorkspaceAccess[];
    /** Leads (over all pipelines) and scans nobody in the nav's workspace has opened yet: badges on Leads and Scans. */
    unread: { leads: number; scans: number };
  };
}

function switcher(current: WorkspaceAccess | undefined, all: WorkspaceAccess[], area: string): SafeHtml | string {
  if (all.length === 0) return '';
  const label = current?.workspaceName ?? 'Workspaces';
  if (all.length === 1 && current) return html`<span class="switcher workspace-name" title="Workspace">${label}</span>`;
  // Stay on the same screen when switching; owner-only screens fall back to Scans for a member.
  const target = (w: WorkspaceAccess) => workspacePath(w.workspaceId, area === 'sources' || area === 'members' ? (w.role === 'owner' ? area : 'scans') : area === 'account' ? 'scans' : area);
  return html`<details class="switcher">
<summary aria-label="Switch workspace (now ${label})">${label}</summary>
<ul>${all.map((w) => html`<li><a href="${target(w)}"${w.workspaceId === current?.workspaceId ? html` aria-current="true"` : ''}>${w.workspaceName}</a></li>`)}</ul>
</details>`;
}

function countBadge(count: number): SafeHtml | string {
  return count > 0 ? html` <span class="count" aria-label="${count} new">${count}</span>` : '';
}

/** Every admin page: our stylesheet and script only (the CSP allows nothing else), the top bar when signed in. */
export function shell(input: ShellInput): string {
  const chrome = input.chrome;
  const home = chrome?.workspace ?? chrome?.workspaces[0];
  const top = chrome
    ? html`<header class="topbar"><div class="topbar-inner">
<a class="brand" href="/"><span class="brand-mark" aria-hidden="true"></span>Leadscan</a>
${switcher(chrome.workspace, chrome.workspaces, chrome.area)}
${home
  ? html`<nav aria-label="Screens"><ul class="nav">${chrome.nav
      .filter((item) => item.access === 'member' || home.role === 'owner')
      .map(
        (item) =>
          html`<li><a href="${workspacePath(home.workspaceId, item.path)}"${item.area === chrome.area ? html` aria-current="page"` : ''}>${item.label}${countBadge(item.area === 'leads' ? chrome.unread.leads : item.area === 'scans' ? chrome.unread.scans : 0)}</a></li>`,
      )}</ul></nav>`
  : ''}
<div class="topbar-end">
<a class="small who" href="/account" title="${chrome.user.email}"${chrome.area === 'account' ? html` aria-current="page"` : ''}>${chrome.user.email}</a>
<form class="inline" method="post" action="/logout"><input type="hidden" name="_csrf" value="${chrome.csrf}"><button type="submit" class="secondary">Sign out</button></form>
</div>
</div></header>`
    : '';
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${input.title} · Leadscan</title>
<link rel="stylesheet" href="${adminAssetHref('admin.css')}">
<script src="${adminAssetHref('admin.js')}" defer></script>
</head>
<body>
${top}
<main id="main">
${input.body}
</main>
</body>
</html>
`.value;
}
