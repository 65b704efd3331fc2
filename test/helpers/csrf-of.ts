/** The hidden CSRF field of an admin page, as a browser's form would send it back. */
export function csrfOf(page: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(page);
  if (!match) throw new Error('no CSRF field on the page');
  return match[1]!;
}
