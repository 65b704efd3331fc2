import type { SignedInUser } from '../../domain/auth/sessions.js';
import type { WorkspaceAccess } from '../../domain/members/workspace-access.js';
import { html, type SafeHtml } from '../html.js';
import { adminAssetHref } from './assets/index.js';
import { workspacePath, type NavItem } from './admin-route.js';

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
    unread: { leads: number; scans: number; quarantine?: number };
  };
}

/** Screens a switch of workspace keeps: the same screen, except owner-only ones for a member and Account. */
function switchTarget(w: WorkspaceAccess, area: string): string {
  if (area === 'sources' || area === 'members' || area === 'settings')
    return workspacePath(w.workspaceId, w.role === 'owner' ? area : 'leads');
  return workspacePath(w.workspaceId, area === '' || area === 'account' ? 'leads' : area);
}

function switcher(current: WorkspaceAccess | undefined, all: WorkspaceAccess[], area: string): SafeHtml | string {
  if (all.length === 0 || !current) return '';
  const label = current.workspaceName;
  if (all.length === 1) return html`<span class="switcher workspace-name" title="Workspace">${label}</span>`;
  return html`<details class="switcher">
<summary aria-label="Switch workspace (now ${label})">${label}</summary>
<ul>${all.map(
    (w) =>
      html`<li><a href="${switchTarget(w, area)}"${
        w.workspaceId === current.workspaceId ? html` aria-current="true"` : ''
      }>${w.workspaceName}</a></li>`,
  )}</ul>
</details>`;
}

/** Up to two letters standing for the person in the top bar (the email stays the link's name and its title). */
function initialsOf(user: SignedInUser): string {
  const words = (user.displayName || user.email.split('@')[0] || '?').split(/[\s._-]+/).filter(Boolean);
  return (
    words
      .slice(0, 2)
      .map((word) => [...word][0]!.toUpperCase())
      .join('') || '?'
  );
}

/** Quarantine's badge: catches of the last 7 days, not restored (domain/quarantine/count-recent-catches.ts). */
function catchesBadge(count: number): SafeHtml | string {
  return count > 0
    ? html` <span class="count quiet" aria-label="${count} caught in the last 7 days"
      title="Caught in the last 7 days">${count}</span>`
    : '';
}

function countBadge(count: number): SafeHtml | string {
  return count > 0 ? html` <span class="count" aria-label="${count} new">${count}</span>` : '';
}

/** Every admin page: our stylesheet and script only (the CSP allows nothing else), the top bar when signed in. */
export function shell(input: ShellInput): string {
  const chrome = input.chrome;
  const home = chrome?.workspace ?? chrome?.workspaces[0];
  // One bar: brand, workspace, screens, the person. On a phone the screens fold into a Menu (a <details>, so it
  // opens without the script, from the keyboard, and says it is expanded); wider, the fold is undone (admin-css.ts,
  // `details.unfold`) and they show in the bar.
  const initials = chrome ? html`<span class="who-initials" aria-hidden="true">${initialsOf(chrome.user)}</span>` : '';
  const top = chrome
    ? html`<header class="topbar"><div class="topbar-inner">
<a class="brand" href="/"><span class="brand-mark"
  aria-hidden="true"></span><span class="brand-name">Leadscan</span></a>
${switcher(home, chrome.workspaces, chrome.area)}
${
  home
    ? html`<details class="menu unfold"><summary><span class="menu-icon"
      aria-hidden="true"></span><span class="menu-label">Menu</span></summary>
<nav aria-label="Screens" class="screens"><ul class="nav">${chrome.nav
        .filter((item) => item.access === 'member' || home.role === 'owner')
        .map(
          (item) =>
            html`<li><a href="${workspacePath(home.workspaceId, item.path)}"${
              item.area === chrome.area ? html` aria-current="page"` : ''
            }>${item.label}${
              item.area === 'quarantine'
                ? catchesBadge(chrome.unread.quarantine ?? 0)
                : countBadge(
                    item.area === 'leads' ? chrome.unread.leads : item.area === 'scans' ? chrome.unread.scans : 0,
                  )
            }</a></li>`,
        )}</ul></nav>
</details>`
    : ''
}
<div class="topbar-end">
<a class="who" href="/account" title="${chrome.user.email}"${
        chrome.area === 'account' ? html` aria-current="page"` : ''
      }>${initials}<span class="who-email">${chrome.user.email}</span></a>
<form class="inline" method="post" action="/logout"><input type="hidden" name="_csrf" value="${chrome.csrf}"><button
  type="submit" class="secondary">Sign out</button></form>
</div>
</div></header>`
    : '';
  // The workspace's locale, for the script that writes times (admin-client.ts): one date format per workspace.
  const locale = chrome?.workspace?.locale;
  return html`<!doctype html>
<html lang="en"${locale ? html` data-locale="${locale}"` : ''}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${input.title} · Leadscan</title>
<link rel="icon" href="${adminAssetHref('favicon.svg')}" type="image/svg+xml">
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
