/** Canonical UUID text, any case (docs/api.md). */
export const TOKEN_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An intake token whose shape was checked once, at the edge that read it; lower case, as stored. */
export type IntakeToken = string & { readonly __intakeToken: true };

export function isWellFormedToken(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}
