import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DomainContext } from '../../domain/context.js';
import type { SignedInUser } from '../../domain/auth/sessions.js';
import type { PipelineUnread } from '../../domain/leads/unread-counts.js';
import type { WorkspaceAccess } from '../../domain/members/workspace-access.js';
import type { SafeHtml } from '../html.js';

/**
 * Who may use a route. `owner`/`member` routes live under `/w/:workspaceId/…` and are checked against the
 * person's membership on every request; `signed-in` routes (the Account screen) need a session only.
 */
export type RouteAccess = 'owner' | 'member' | 'signed-in';

/** What every admin handler gets: the request, who is asking, and helpers to answer with a page. */
export interface AdminCall {
  request: FastifyRequest;
  reply: FastifyReply;
  ctx: DomainContext;
  user: SignedInUser;
  /** The workspace of a `/w/:workspaceId/…` route, with the person's role; undefined for `signed-in` routes. */
  workspace: WorkspaceAccess | undefined;
  /** Every workspace of the person (the switcher). */
  workspaces: WorkspaceAccess[];
  /** The CSRF token every form of this session carries (hidden field `_csrf`). */
  csrf: string;
  params: Record<string, string>;
  query: Record<string, string | undefined>;
  body: Record<string, string>;
  /** Unread leads per pipeline of the page's workspace, read once a request (the nav's badge sums them). */
  unreadCounts(): Promise<PipelineUnread[]>;
  /** Renders a page in the admin layout with the admin security headers (the nav's unread badge reads the database). */
  render(status: number, page: PageContent): Promise<FastifyReply>;
  /** 303 to a path of ours (after a POST), optionally with a notice code shown on the next page. */
  redirect(path: string, notice?: string): FastifyReply;
}

export interface PageContent {
  title: string;
  /** The nav item to highlight, e.g. 'scans'. */
  area: string;
  body: SafeHtml;
}

/** A call to a route under `/w/:workspaceId/…`: the gate has checked the membership, so the workspace is there. */
export interface WorkspaceCall extends AdminCall {
  workspace: WorkspaceAccess;
}

/**
 * A route of an area. Its `access` says what its handler gets: an owner or member route a WorkspaceCall, a
 * signed-in route (no workspace in the URL) a plain AdminCall. Handlers answer through `call.render`,
 * `call.redirect` or `call.reply`.
 */
/** A file posted as multipart/form-data to a route with `upload` (`fileOf`); `truncated` when it was over the size. */
export interface UploadedFile {
  filename: string;
  data: Buffer;
  truncated: boolean;
}

/** The file a multipart form posted under `name`, if any was chosen (a browser posts an empty part when none is). */
export function fileOf(call: AdminCall, name: string): UploadedFile | undefined {
  const value = (call.request.body as Record<string, unknown> | undefined)?.[name];
  const file = value && typeof value === 'object' && 'data' in value ? (value as UploadedFile) : undefined;
  return file && (file.data.length > 0 || file.truncated) ? file : undefined;
}

/** `upload`: the route takes one file in a multipart/form-data post, up to `maxBytes` (plugin.ts). */
type RouteUpload = { upload?: { maxBytes: number } };

export type AdminRoute =
  | ({ method: 'GET' | 'POST'; path: string; access: Exclude<RouteAccess, 'signed-in'>; handler(call: WorkspaceCall): Promise<unknown> } & RouteUpload)
  | ({ method: 'GET' | 'POST'; path: string; access: 'signed-in'; handler(call: AdminCall): Promise<unknown> } & RouteUpload);

export interface NavItem {
  /** Matches PageContent.area. */
  area: string;
  label: string;
  /** The screen's path inside the workspace, e.g. 'scans' → /w/{id}/scans. */
  path: string;
  /** Members do not see owner-only screens in the nav (the routes refuse them anyway). */
  access: 'owner' | 'member';
}

/**
 * One area of the web app (Scans, Sources, …): its nav item and its routes. A new area is a folder under
 * web/admin/ exporting one of these, added to ADMIN_AREAS in areas.ts; the plugin registers its routes behind the
 * session, workspace, role and CSRF checks, and the security suite then requires a case for each route.
 */
export interface AdminArea {
  nav?: NavItem;
  routes: AdminRoute[];
}

export function workspacePath(workspaceId: string, rest = ''): string {
  return `/w/${encodeURIComponent(workspaceId)}${rest ? `/${rest}` : ''}`;
}

/** The signed-in person of a request, or null after a redirect to /login (made by the admin plugin). */
export type SignedInCheck = (
  request: FastifyRequest,
  reply: FastifyReply,
) => Promise<{ user: SignedInUser; sessionId: string } | null>;
