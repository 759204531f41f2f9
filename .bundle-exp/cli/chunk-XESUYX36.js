// src/infrastructure/postgres/postgres-url.ts
var DEFAULT_POSTGRES_SCHEMA = "correx";
function isPostgresUrl(location) {
  return /^postgres(ql)?:\/\//i.test(location);
}
function redactConnectionString(connectionString) {
  try {
    const url = new URL(connectionString);
    if (url.password) url.password = "***";
    for (const key of [...url.searchParams.keys()])
      if (/pass/i.test(key)) url.searchParams.set(key, "***");
    return url.toString();
  } catch {
    return connectionString.replace(/\/\/([^:@/]*):[^@/]*@/, "//$1:***@");
  }
}

export {
  DEFAULT_POSTGRES_SCHEMA,
  isPostgresUrl,
  redactConnectionString
};
