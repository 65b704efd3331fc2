import { inWorkspace, type DomainContext } from '../../domain/context.js';
import type { SignedInUser } from '../../domain/auth/sessions.js';
import { unreadCounts, type PipelineUnread } from '../../domain/leads/unread-counts.js';
import type { WorkspaceAccess } from '../../domain/members/workspace-access.js';
import { countRecentCatches } from '../../domain/quarantine/count-recent-catches.js';
import { countNewScans } from '../../domain/scans/count-new-scans.js';
import type { ShellInput } from './layout.js';
import type { NavItem } from './admin-route.js';

export interface TopBarViewer {
  user: SignedInUser;
  sessionId: string;
  workspace?: WorkspaceAccess;
}

/**
 * The top bar of a signed-in page: the page's workspace (else the person's first) with its unread counts. One maker
 * for the gate's pages, its error pages and the browser's not-found page, so they all show the same bar.
 */
export function topBarMaker(ctx: DomainContext, nav: NavItem[]) {
  const unreadOf = (workspace: WorkspaceAccess | undefined) => () =>
    workspace ? unreadCounts({ ctx: inWorkspace(ctx, workspace.workspaceId), input: {} }) : Promise.resolve([]);
  const topBar = async (
    viewer: TopBarViewer,
    workspaces: WorkspaceAccess[],
    area: string,
    leadCounts: () => Promise<PipelineUnread[]>,
  ): Promise<NonNullable<ShellInput['chrome']>> => {
    const home = viewer.workspace ?? workspaces[0];
    const [leads, scans, quarantine] = await Promise.all([
      leadCounts().then((counts) => counts.reduce((sum, p) => sum + p.unread, 0)),
      home ? countNewScans({ ctx: inWorkspace(ctx, home.workspaceId), input: {} }) : 0,
      home ? countRecentCatches({ ctx: inWorkspace(ctx, home.workspaceId), input: {} }) : 0,
    ]);
    return {
      user: viewer.user,
      csrf: ctx.csrf.tokenFor(viewer.sessionId),
      nav,
      area,
      workspace: viewer.workspace,
      workspaces,
      unread: { leads, scans, quarantine },
    };
  };
  return { topBar, unreadOf };
}
