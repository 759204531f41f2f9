import type { SessionLeaseView } from '../interfaces/session-lease.js';
import type { DriverTake } from '../interfaces/interrupted-call-driver.js';
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import type { Clock } from '../core/base/clock.js';
import type { IdSource } from '../core/base/id-source.js';
import type { CorrexEvent, CorrexEventStore } from '../core/event-catalog.js';
import { describeSandbox, detectSandbox } from '../infrastructure/sandbox/sandbox-availability.js';
import type { SessionLocker } from '../infrastructure/locks/session-locker.js';
import { defaultSearchPath } from '../infrastructure/system/default-search-path.js';
import type { SessionHost } from '../interfaces/session-host.js';
import { createMcpToolSource } from '../infrastructure/mcp/mcp-tool-source.js';
import { preimageDirectory } from '../infrastructure/sandbox/preimage-store.js';
import { createLivePorts } from './live-ports.js';
import { createSessionHost } from './session-host.js';
import { withTelemetry } from './telemetry-hook.js';

export type ComposeHostOptions = {
  readonly store: CorrexEventStore;
  readonly correxHome: string;
  /** Files of correx besides its home that tools must not touch (a SQLite store elsewhere). */
  readonly protectedPaths: readonly string[];
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly allowedRoots?: readonly string[];
  /** One driver per session across processes: a lock file per session, or the store's server. */
  readonly locker: SessionLocker;
  readonly onEvent?: (event: CorrexEvent) => void;
  readonly onError?: (sessionId: string, error: unknown) => void;
  /**
   * Told how processes will be confined (a warning when they will not be), and, as a warning,
   * of each MCP server a new session could not start.
   */
  readonly notice: (line: string, warning: boolean) => void;
  /** Status lines of work that records nothing while it runs (the language server's checks). */
  readonly progress?: (line: string) => void;
  /** Record sessions and commands, drive nothing (`correx serve --no-drive`). */
  readonly recordOnly?: boolean;
  /** Hold the lock of a session waiting for a person and wake it on any answer (a server). */
  readonly attendWaiting?: boolean;
  /** The process holding a session's driver lock (SQLite's lock files). */
  readonly lockHolder?: (sessionId: string) => string | null;
  /** Who drives each session now (a shared store's driver records). */
  readonly drivers?: () => Promise<ReadonlyMap<string, SessionLeaseView>>;
  /** Every take of a session's driver lock (a shared store's driver records). */
  readonly driverTakes?: (sessionId: string) => Promise<readonly DriverTake[]>;
};

/** Wires the production session host: this machine's sandbox, the built-in tools, the disk. */
export async function composeSessionHost(options: ComposeHostOptions): Promise<SessionHost> {
  const availability = await detectSandbox();
  options.notice(describeSandbox(availability), availability.kind === 'none');
  const homeDirectory = realpathSync(homedir());
  const onEvent = (
    await withTelemetry(options.onEvent, options.env, (line) => options.notice(line, true))
  )?.onEvent;
  return createSessionHost({
    store: options.store,
    correxHome: options.correxHome,
    homeDirectory,
    env: options.env,
    protectedPaths: options.protectedPaths,
    sandbox: availability.kind,
    locker: options.locker,
    notice: (line) => options.notice(line, true),
    clock: options.clock,
    ids: options.ids,
    mcp: createMcpToolSource({
      homeDirectory,
      hiddenPaths: [options.correxHome, ...options.protectedPaths],
      availability,
      searchPath: defaultSearchPath(),
      env: options.env,
    }),
    ports: createLivePorts({
      homeDirectory,
      hiddenPaths: [options.correxHome, ...options.protectedPaths],
      availability,
      preimageDirectory: preimageDirectory(options.correxHome),
      searchPath: defaultSearchPath(),
      env: options.env,
      ...(options.progress === undefined ? {} : { progress: options.progress }),
    }),
    ...(options.allowedRoots === undefined ? {} : { allowedRoots: options.allowedRoots }),
    ...(onEvent === undefined ? {} : { onEvent }),
    ...(options.onError === undefined ? {} : { onError: options.onError }),
    ...(options.recordOnly === undefined ? {} : { recordOnly: options.recordOnly }),
    ...(options.attendWaiting === true ? { attendWaiting: true } : {}),
    ...(options.drivers === undefined ? {} : { drivers: options.drivers }),
    ...(options.driverTakes === undefined ? {} : { driverTakes: options.driverTakes }),
    ...(options.lockHolder === undefined ? {} : { lockHolder: options.lockHolder }),
  });
}
