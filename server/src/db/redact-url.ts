/** A connection URL without its password, fit for a log line; `unreadable` when it does not parse. */
export function redactUrl(url: string, unreadable = 'the configured URL'): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return unreadable;
  }
}
