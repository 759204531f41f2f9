import {
  checkConnection,
  createPostgresPool,
  guardPool,
  quoteSchema,
  schemaLockKey
} from "./chunk-YCTECULU.js";
import {
  DEFAULT_POSTGRES_SCHEMA,
  isPostgresUrl,
  redactConnectionString
} from "./chunk-XESUYX36.js";
import "./chunk-BDZLLWVY.js";
export {
  DEFAULT_POSTGRES_SCHEMA,
  checkConnection,
  createPostgresPool,
  guardPool,
  isPostgresUrl,
  quoteSchema,
  redactConnectionString,
  schemaLockKey
};
