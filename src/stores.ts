/**
 * `correx/stores`: a store opened from a location string (a SQLite path or a PostgreSQL URL), as
 * the CLI takes it, and sessions copied between stores. Loads both drivers.
 */
export {
  openStores,
  parseStoreLocation,
  StoreLocationError,
  type OpenStoresOptions,
  type OpenedStores,
  type StoreKind,
  type StoreLocation,
} from './infrastructure/open-store.js';
export {
  copySessions,
  StoreCopyError,
  type CopySessionsOptions,
  type SessionCopyReport,
} from './infrastructure/store-copy.js';
