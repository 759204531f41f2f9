import {
  migrateSqlite,
  parseStoreLocation
} from "./chunk-ORXSUEWY.js";
import {
  migratePostgres
} from "./chunk-3PFGHKN4.js";
import "./chunk-XXOLSKOG.js";
import "./chunk-YCTECULU.js";
import {
  DEFAULT_POSTGRES_SCHEMA,
  redactConnectionString
} from "./chunk-XESUYX36.js";
import "./chunk-3K2LSKRX.js";
import "./chunk-5UEANXJE.js";
import "./chunk-XFVAXZIU.js";
import "./chunk-CORQQBM5.js";
import "./chunk-IRD534JB.js";
import "./chunk-A7ITNCWT.js";
import "./chunk-W32ANIA4.js";
import "./chunk-AYFXHFZY.js";
import "./chunk-BDZLLWVY.js";

// src/infrastructure/migrate-store.ts
async function migrateStore(location, options = {}) {
  const parsed = parseStoreLocation(location);
  if (parsed.kind === "sqlite")
    return { kind: "sqlite", location: parsed.path, ...migrateSqlite(parsed.path) };
  const schema = options.schema ?? DEFAULT_POSTGRES_SCHEMA;
  const report = await migratePostgres(parsed.url, { schema });
  return {
    kind: "postgres",
    location: redactConnectionString(parsed.url),
    schema,
    fromVersion: report.fromVersion,
    toVersion: report.toVersion
  };
}
export {
  migrateStore
};
