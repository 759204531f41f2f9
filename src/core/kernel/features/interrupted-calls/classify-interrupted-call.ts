import { layeredGet, type LayeredRecord } from '../../../base/layered-record.js';
import type { BehaviourFlags } from '../../../base/behaviour-flag.js';
import { sha256Hex, type Sha256 } from '../../../base/sha256.js';
import type { PayloadOf } from '../../../events/event-definition.js';
import type { WorldObservation } from '../../../toolintent/toolintent-events.js';
import { hasCapability, type ToolDefinition } from '../../../tools/tool-contract.js';
import type { toolCallClassified } from '../../../tools/tool-call-outcome-events.js';
import type { CallRecord } from '../../decider/kernel-state.js';
import {
  INTERRUPTED_EXEC_IS_UNKNOWN,
  INTERRUPTED_WRITE_ASKS_WHEN_CHANGED,
} from '../../config/kernel-flags.js';

export type CallClassificationPayload = PayloadOf<typeof toolCallClassified>;

/**
 * True for the tool whose interrupted call resume can find applied from its targets alone: the
 * built-in `write_file`, whose targets then hold exactly the content it was asked to write.
 */
export function isReadBackOnResume(toolName: string): boolean {
  return toolName === 'write_file';
}

/**
 * Classifies a call whose intent was recorded but whose receipt never was, from fresh
 * observations of its write targets. Pure.
 * - read-only tools have nothing to lose or repeat: not applied, run it;
 * - every target still has its recorded pre-hash: not applied, run it — except for a tool that
 *   executes code (`exec`), whose program may have changed anything before its redirects saw a
 *   byte (`node effect.mjs >> log`): under `interrupted-exec-is-unknown` that is unknown;
 * - a `write_file` whose targets now hold exactly the content it was asked to write: applied,
 *   record it (the write is not repeated);
 * - a `write_file` whose targets hold neither (under `interrupted-write-asks-when-changed`):
 *   someone changed them since, so unknown and asked, idempotent or not;
 * - anything else (other changes, or a tool with effects we cannot observe such as `exec`):
 *   unknown; re-run only an idempotent tool, otherwise ask a person.
 */
export function classifyInterruptedCall(
  call: CallRecord,
  tool: ToolDefinition | undefined,
  observations: LayeredRecord<WorldObservation>,
  idempotentTools: ReadonlySet<string>,
  sha256: Sha256 = sha256Hex,
  flags: BehaviourFlags = new Set(),
): CallClassificationPayload {
  const targets = call.targets.map((target) => ({
    path: target.path,
    recorded: target.sha256,
    observed: observedHash(layeredGet(observations, target.path)),
  }));
  const base = {
    type: 'tool_call_classified' as const,
    callId: call.callId,
    tool: call.tool,
    targets,
  };
  if (tool !== undefined && hasCapability(tool, 'READ_ONLY')) {
    return {
      ...base,
      classification: 'not_applied',
      action: 'execute',
      reason: 'a read-only call has no effect to lose or repeat',
    };
  }
  const runsCode =
    flags.has(INTERRUPTED_EXEC_IS_UNKNOWN.name) &&
    (tool === undefined || hasCapability(tool, 'EXECUTES'));
  if (
    !runsCode &&
    targets.length > 0 &&
    targets.every((target) => target.observed === target.recorded)
  ) {
    return {
      ...base,
      classification: 'not_applied',
      action: 'execute',
      reason: 'every target still has the content recorded before the call',
    };
  }
  const content = call.args?.content;
  if (isReadBackOnResume(call.tool) && typeof content === 'string' && targets.length > 0) {
    const written = sha256(content);
    if (targets.every((target) => target.observed === written)) {
      return {
        ...base,
        classification: 'applied',
        action: 'record',
        reason: 'the target already holds exactly the content the call writes',
      };
    }
  }
  if (
    flags.has(INTERRUPTED_WRITE_ASKS_WHEN_CHANGED.name) &&
    isReadBackOnResume(call.tool) &&
    targets.length > 0
  ) {
    return {
      ...base,
      classification: 'unknown',
      action: 'ask',
      reason:
        'the target holds neither the content recorded before the call nor the content it writes: it was changed since (or a link on its path now leads elsewhere), so a person decides whether it is written again',
    };
  }
  const why = runsCode
    ? `${call.tool} runs a program whose effects reach beyond the targets the probe can observe`
    : targets.length === 0
      ? `${call.tool} has effects the probe cannot observe`
      : 'the targets changed, but not to a state the call is known to produce';
  return idempotentTools.has(call.tool)
    ? {
        ...base,
        classification: 'unknown',
        action: 'execute',
        reason: `${why}; ${call.tool} is idempotent, so it runs again`,
      }
    : {
        ...base,
        classification: 'unknown',
        action: 'ask',
        reason: `${why}; ${call.tool} is not idempotent, so a person decides whether it runs again`,
      };
}

function observedHash(observation: WorldObservation | undefined): string | null {
  return observation === undefined || observation.kind === 'missing' ? null : observation.sha256;
}
