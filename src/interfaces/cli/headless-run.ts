import type { OperatorMode } from '../../core/approvals/approval-tier.js';
import { CorrexError } from '../../core/base/correx-error.js';
import { parseDuration } from '../../core/base/duration.js';
import type { CorrexEventStore } from '../../core/event-catalog.js';
import { replay } from '../../core/events/replay.js';
import { sessionProjection } from '../../core/sessions/session-projection.js';
import {
  createPreimageStore,
  preimageDirectory,
} from '../../infrastructure/sandbox/preimage-store.js';
import type { CommandContext } from './cli-context.js';
import type { JsonEventStream } from './json-event-stream.js';
import type { StoredText } from './run-summary.js';
import { preimageText } from '../preimage-text.js';

/** The flags of `run`/`resume` for scripts and CI. */
export type HeadlessOptions = {
  readonly json?: boolean;
  /** true: wait with no bound; a string: the longest wait for one decision (90s, 30m, 2h). */
  readonly waitForApproval?: boolean | string;
};

/** What `run`/`resume` hand to the code that starts or wakes the session. */
export type HeadlessRun = {
  /** Streams the session's log from after `after` (`--json`; a no-op without it). */
  follow(sessionId: string, after: number): void;
  /** Refuses prompt mode with nobody to ask (a usage error), before anything is recorded. */
  checkMode(mode: OperatorMode): void;
};

export const JSON_HELP =
  'print NDJSON on stdout: each event as `correx tail --json` prints it, then a summary object (docs/headless.md)';
export const WAIT_HELP =
  'without a terminal in prompt mode: wait for decisions made elsewhere (correx approve, the web page), each up to DURATION if given';

/** The longest wait for one decision in ms (undefined: no bound); a bad duration is a usage error. */
export function waitDuration(option: boolean | string | undefined): number | undefined {
  if (typeof option !== 'string') return undefined;
  const ms = parseDuration(option);
  if (ms === null)
    throw new CorrexError(
      'usage',
      `--wait-for-approval takes a duration such as 90s, 30m or 2h, got ${JSON.stringify(option)}`,
    );
  return ms;
}

/**
 * Prompt mode asks a person at the terminal; with stdin not a terminal there is nobody to ask,
 * and waiting silently forever is the worst answer a script can get. So it is refused at once,
 * naming the fix, unless the caller asked to wait for decisions made elsewhere.
 */
export function refuseUnattendedPrompt(
  context: Pick<CommandContext, 'ask'>,
  mode: OperatorMode,
  options: HeadlessOptions,
): void {
  if (mode !== 'prompt' || context.ask !== undefined || options.waitForApproval !== undefined)
    return;
  throw new CorrexError(
    'usage',
    'prompt mode asks for approvals on a terminal and stdin is not one: pass --mode auto (or yolo, deny), or --wait-for-approval [DURATION] to wait for `correx approve` or the web page',
  );
}

/** Says on stderr (and in the JSON stream) which call waits, until when, and how to decide it. */
export async function announceWait(
  context: Pick<CommandContext, 'err' | 'ask'>,
  store: CorrexEventStore,
  rootSessionId: string,
  wait: {
    readonly sessionId: string;
    readonly callId: string;
    readonly until: number | null;
    readonly unattended?: boolean;
  },
  stream: JsonEventStream | undefined,
): Promise<void> {
  const { state } = await replay(store, sessionProjection, wait.sessionId);
  const pending = state.pendingApprovals.find((call) => call.callId === wait.callId);
  const decide = [
    `correx approve ${wait.sessionId} ${wait.callId}`,
    `correx deny ${wait.sessionId} ${wait.callId} --reason ...`,
  ];
  const until = wait.until === null ? null : new Date(wait.until).toISOString();
  if (wait.unattended === true)
    context.err(
      `correx: ${wait.callId}${pending === undefined ? '' : ` (${pending.tool}, ${pending.tier})`} needs a person's decision and stdin is not a terminal to ask on: stopping with the session open (exit 4). Decide it with ${decide[0]} | ${decide[1]}, then correx resume ${rootSessionId}; or pass --wait-for-approval [DURATION] to wait for decisions`,
    );
  else if (context.ask === undefined)
    context.err(
      `correx: waiting ${until === null ? '' : `until ${until} `}for a decision on ${wait.callId}${pending === undefined ? '' : ` (${pending.tool}, ${pending.tier})`}: ${decide[0]} | ${decide[1]} | or the session's page of correx serve`,
    );
  await stream?.write({
    type: 'waiting',
    for: 'approval',
    sessionId: rootSessionId,
    approvalSessionId: wait.sessionId,
    callId: wait.callId,
    tool: pending?.tool ?? null,
    tier: pending?.tier ?? null,
    until,
    ...(wait.unattended === true ? { stopping: true } : {}),
    decide,
  });
}

/** Text kept in the pre-image store under a hash; null when absent or not text. */
export function storedText(correxHome: string): StoredText {
  return preimageText(createPreimageStore(preimageDirectory(correxHome)));
}
