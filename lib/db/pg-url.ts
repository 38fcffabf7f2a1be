// A PostgreSQL connection URL with another login, database or socket; the one place that builds them.
export function pgUrl(
  base: string,
  change: { user?: string; password?: string; database?: string; socketDir?: string },
): string {
  const url = new URL(base);
  if (change.user !== undefined) url.username = encodeURIComponent(change.user);
  if (change.password !== undefined) url.password = encodeURIComponent(change.password);
  if (change.database !== undefined) url.pathname = "/" + encodeURIComponent(change.database);
  // node-postgres takes a Unix socket's directory as the host parameter; the port names the socket.
  if (change.socketDir !== undefined) url.searchParams.set("host", change.socketDir);
  return url.toString();
}
