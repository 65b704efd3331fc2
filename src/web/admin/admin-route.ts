import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DomainContext, WorkspaceContext } from '../../domain/context.js';
import type { SignedInUser } from '../../domain/auth/sessions.js';
import type { PipelineUnread } from '../../domain/leads/unread-counts.js';
import type { WorkspaceAccess } from '../../domain/members/workspace-access.js';
import type { AppError, ErrorCode } from '../../domain/errors.js';
import type { SafeHtml } from '../html.js';
import type { FormErrors } from './form-controls.js';

/**
 * Who may use a route. `owner`/`member` routes live under `/w/:workspaceId/…` and are checked against the
 * person's membership on every request; `signed-in` routes (the Account screen) need a session only; `public`
 * routes (sign-in, first start, password links, email confirmation) are for a visitor without a session.
 */
export type RouteAccess = 'owner' | 'member' | 'signed-in' | 'public';

/** What every handler gets, a public one too: the request, and helpers to answer it. */
export interface PublicCall {
  request: FastifyRequest;
  reply: FastifyReply;
  ctx: DomainContext;
  params: Record<string, string>;
  query: Record<string, string | undefined>;
  body: Record<string, string>;
  /** Sends a whole page of its own (the sign-in pages: the admin shell without the top bar). */
  send(status: number, page: string): FastifyReply;
  /** 303 to a path of ours (after a POST), optionally with a notice code shown on the next page. */
  redirect(path: string, notice?: string): FastifyReply;
}

/** What every handler behind a session gets: a PublicCall, who is asking, and the admin layout. */
export interface AdminCall extends PublicCall {
  user: SignedInUser;
  /** The workspace of a `/w/:workspaceId/…` route, with the person's role; undefined for `signed-in` routes. */
  workspace: WorkspaceAccess | undefined;
  /** Every workspace of the person (the switcher). */
  workspaces: WorkspaceAccess[];
  /** The CSRF token every form of this session carries (hidden field `_csrf`). */
  csrf: string;
  /** Unread leads per pipeline of the page's workspace, read once a request (the nav's badge sums them). */
  unreadCounts(): Promise<PipelineUnread[]>;
  /** Renders a page in the admin layout with the admin security headers (the nav's unread badge reads the database). */
  render(status: number, page: PageContent): Promise<FastifyReply>;
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
  /** The signed-in person's context inside the URL's workspace: verbs that act in a workspace take it. */
  ctx: WorkspaceContext;
}

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

/**
 * A route of an area. Its `access` says what its handler gets: an owner or member route a WorkspaceCall, a
 * signed-in route (no workspace in the URL) a plain AdminCall, a public route a PublicCall. Handlers answer
 * through `call.render` (behind a session), `call.send`, `call.redirect` or `call.reply`.
 */
export type AdminRoute =
  | ({
      method: 'GET' | 'POST';
      path: string;
      access: 'owner' | 'member';
      handler(call: WorkspaceCall): Promise<unknown>;
      form?: PageForm<WorkspaceCall>;
    } & RouteUpload)
  | ({
      method: 'GET' | 'POST';
      path: string;
      access: 'signed-in';
      handler(call: AdminCall): Promise<unknown>;
      form?: PageForm<AdminCall>;
    } & RouteUpload)
  // A public handler has no person: its call has no `user`, `workspace` or session token to reach for.
  | {
      method: 'GET' | 'POST';
      path: string;
      access: 'public';
      handler(call: PublicCall): Promise<unknown>;
      form?: PageForm<PublicCall>;
      upload?: never;
    };

/** A refusal of a form, as the gate hands it to the route's `rerender`. */
export interface FormRefusal {
  /** The status of the refusal's code (400 a bad field, 409 a name taken, 429 throttled…). */
  status: number;
  /** Messages by field name: the refusal's own field errors, else its detail beside the declared field. */
  errors: FormErrors;
  error: AppError;
}

/**
 * How a route's form answers a refusal the person can fix (docs/admin-app.md): the handler just calls the verb; when
 * the verb throws a refusal of this form, the gate sets its headers (Retry-After) and calls `rerender`, which shows
 * the form again with what was typed and the messages beside their fields. Anything else goes to the error page.
 */
export interface PageForm<C extends PublicCall> {
  /** The field a refusal without field errors of its own is shown beside. */
  field: string;
  /** Codes shown beside another field. A code named here is this form's even when its status is not (a 404). */
  fields?: Partial<Record<ErrorCode, string>>;
  /** When only these codes are the form's; by default every refusal but 403, 404 and 5xx is (isFormError). */
  only?: readonly ErrorCode[];
  rerender(call: C, refusal: FormRefusal): Promise<unknown>;
}

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
