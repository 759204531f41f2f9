import { dirname } from 'node:path';

/**
 * The PATH sessions' processes resolve programs on: the folder of the node running correx first
 * (node may not live in /usr/bin), then the system's. Never the workspace, never the caller's
 * PATH, which a hostile repository's tooling may have extended.
 */
export function defaultSearchPath(): string {
  return [dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':');
}
