// Kept apart from postgres-connection.ts so that naming a store location never loads `pg`
// (about 0.15 s of CPU for a command that opens a SQLite file).

/** The default schema correx keeps its tables in. */
export const DEFAULT_POSTGRES_SCHEMA = 'correx';

/** True for a `postgres://` or `postgresql://` URL. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/** The URL with any password replaced by `***`, safe to print and log. */
export function redactConnectionString(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    if (url.password) url.password = '***';
    for (const key of [...url.searchParams.keys()])
      if (/pass/i.test(key)) url.searchParams.set(key, '***');
    return url.toString();
  } catch {
    return connectionString.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
  }
}
