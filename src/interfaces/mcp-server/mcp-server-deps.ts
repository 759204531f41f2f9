import type { CorrexEventStore } from '../../core/event-catalog.js';
import type { RecordingContext } from '../../core/kernel/index.js';
import type { SessionHost } from '../session-host.js';

/** What `correx mcp` hands the MCP server: the store, a session host, and where things are. */
export type McpServerDeps = {
  readonly version: string;
  readonly store: CorrexEventStore;
  /** Runs the sessions started here in this process, in the background. */
  readonly host: SessionHost;
  /** $CORREX_HOME: the pre-images of recorded changes live under it. */
  readonly correxHome: string;
  /** Stamps the events an undo records. */
  readonly recording: RecordingContext;
  /** Who the server acts for (recorded as the one who undoes). */
  readonly user: string;
  /** The folder relative workspaces are resolved against (where the MCP host started correx). */
  readonly cwd: string;
  /** Folders new sessions may work in (real paths). */
  readonly allowedRoots: readonly string[];
  /** The live process that drives a session now; null none, undefined: the store cannot tell. */
  readonly sessionDriver?: (
    sessionId: string,
  ) => Promise<{ readonly pid: number; readonly host: string } | null | undefined>;
  /** Where the server says what went wrong beside a call (stderr: stdout is the protocol's). */
  readonly log: (line: string) => void;
};
