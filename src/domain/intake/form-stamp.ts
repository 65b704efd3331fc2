import type { DomainContext } from '../context.js';
import type { LeadSource } from '../sources/source.js';

/**
 * The hosted form's signed render time (docs/security.md, "The form's render stamp"). Every hosted form carries
 * `formStamp`: when it was rendered, for which source, signed with a key derived from APP_SECRET. A person takes
 * more than two seconds to fill in a form; a script that posts at once, or makes up a stamp, does not.
 *
 * The field is also the marker of a hosted-form post: a post that carries `formStamp` (even empty) came from the
 * hosted form's script or was made to look so, and is held to the form's rules (its own fields, the stamp). The
 * no-script POST /f/{token} is a hosted-form post by its path.
 */
export const FORM_STAMP_FIELD = 'formStamp';
export const TOO_FAST_REASON = 'too_fast';
export const MIN_FILL_MS = 2000;

export function isHostedFormPost(body: Record<string, unknown>): boolean {
  return Object.hasOwn(body, FORM_STAMP_FIELD);
}

/** `too_fast` when a hosted-form post came under two seconds after its form was rendered, or its stamp is not good. */
export function formStampReason(ctx: DomainContext, source: LeadSource, body: Record<string, unknown>): string | null {
  if (!isHostedFormPost(body)) return null;
  const at = ctx.formStamps.renderedAt(source.id, body[FORM_STAMP_FIELD]);
  return at === null || ctx.clock.now().getTime() - at < MIN_FILL_MS ? TOO_FAST_REASON : null;
}
