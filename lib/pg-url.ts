// A PostgreSQL connection URL with another login or database; the one place that builds them.
export function pgUrl(base: string, change: { user?: string; password?: string; database?: string }): string {
  const url = new URL(base);
  if (change.user !== undefined) url.username = encodeURIComponent(change.user);
  if (change.password !== undefined) url.password = encodeURIComponent(change.password);
  if (change.database !== undefined) url.pathname = "/" + encodeURIComponent(change.database);
  return url.toString();
}
