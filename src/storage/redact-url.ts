/** Query parameters of a connection URL that carry a credential (libpq and pg take a password this way too). */
const SECRET_PARAMETER = /pass|secret|token|key/i;

/**
 * A database URL fit for a message or a log line: every credential replaced by ***, the user-info password and any
 * query parameter that carries one (`?password=`, `?sslpassword=`, …). Anything that does not parse is not shown.
 */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    for (const name of [...parsed.searchParams.keys()]) {
      if (SECRET_PARAMETER.test(name)) parsed.searchParams.set(name, '***');
    }
    return parsed.toString();
  } catch {
    return 'postgres://…';
  }
}
