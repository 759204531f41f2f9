import { layeredHas } from '../../../base/layered-record.js';
import type { CorrexEvent } from '../../../event-catalog.js';
import type { JsonValue } from '../../../events/canonical-json.js';
import { normalizeAbsolute } from '../../../tools/tool-path.js';
import { CLAIMS_AGAINST_LOG } from '../../config/kernel-flags.js';
import type { KernelFeature, ProposedArtifactFacts } from '../../decider/kernel-feature.js';
import type { StageRunState } from '../../decider/stage-run.js';
import { emit } from '../../decider/step.js';

export type DeniedWrite = {
  readonly path: string;
  readonly callId: string;
  readonly sequence: number;
};

export type ClaimsState = {
  /** Write targets of calls that were denied, with the denial's sequence. */
  readonly deniedWrites: readonly DeniedWrite[];
  /** How many `exec` calls started in the session (their file changes may not be itemized). */
  readonly commandsRan: number;
};

export const INITIAL_CLAIMS: ClaimsState = { deniedWrites: [], commandsRan: 0 };

export function evolveClaims(
  claims: ClaimsState,
  event: CorrexEvent,
  run: StageRunState | null,
): ClaimsState {
  const payload = event.payload;
  switch (payload.type) {
    case 'tool_call_started':
      return payload.tool === 'exec'
        ? { deniedWrites: claims.deniedWrites, commandsRan: claims.commandsRan + 1 }
        : claims;
    case 'approval_denied': {
      // The denied call's write targets, as the running attempt assessed them.
      const turn = run?.turn;
      const call =
        turn?.status === 'acting' ? turn.calls.find((c) => c.callId === payload.callId) : undefined;
      const denied = (call?.writeTargets ?? []).map((path) => ({
        path,
        callId: payload.callId,
        sequence: event.sequence,
      }));
      return denied.length === 0
        ? claims
        : { deniedWrites: [...claims.deniedWrites, ...denied], commandsRan: claims.commandsRan };
    }
    default:
      return claims;
  }
}

/**
 * What is wrong with an artifact's `filesChanged` claim, compared with the recorded writes, or
 * null when nothing is. A path whose write was denied and that nothing else wrote is a false
 * claim; so is a path no write receipt names while no command ran that could have changed it
 * (a command's own changes are not itemized in every log, so then the claim cannot be refuted).
 */
export function filesChangedFailure(
  claims: ClaimsState,
  workspace: string | null,
  written: ProposedArtifactFacts['written'],
  content: JsonValue,
): string | null {
  if (typeof content !== 'object' || content === null || Array.isArray(content)) return null;
  const claimed = (content as { filesChanged?: unknown }).filesChanged;
  if (!Array.isArray(claimed)) return null;
  const root = workspace ?? '/';
  const problems: string[] = [];
  for (const entry of claimed) {
    if (typeof entry !== 'string') continue;
    const path = normalizeAbsolute(entry.startsWith('/') ? entry : `${root}/${entry}`);
    if (layeredHas(written, path)) continue;
    const denied = claims.deniedWrites.find((write) => write.path === path);
    if (denied !== undefined)
      problems.push(
        `\`${entry}\`: its write was denied (call ${denied.callId}, event #${denied.sequence}) and nothing else wrote it`,
      );
    else if (claims.commandsRan === 0)
      problems.push(`\`${entry}\`: no recorded write changed it and no command ran`);
  }
  if (problems.length === 0) return null;
  return `filesChanged does not match the log; list only files that were changed:\n${problems.map((p) => `- ${p}`).join('\n')}`;
}

/**
 * Claims against the log (flag `claims-against-log`): before validation, an artifact's
 * `filesChanged` is compared with the recorded writes (a false claim is a `validation_failed`),
 * and a workflow's end names the failure that ended it and its checks' latest results
 * (decider/next-step.ts asks `featureEnabled(config, 'claims')`).
 */
export const claimsFeature: KernelFeature<'claims', ClaimsState> = {
  name: 'claims',
  flag: CLAIMS_AGAINST_LOG,
  events: [],
  state: { initial: INITIAL_CLAIMS, evolve: evolveClaims },
  hooks: {
    proposedArtifact({ slice, workspace }, { stage, artifactHash, content, written }) {
      const falseClaim = filesChangedFailure(slice, workspace, written, content);
      return falseClaim === null
        ? null
        : emit({
            type: 'validation_failed',
            hash: artifactHash,
            stageId: stage.id,
            phase: 'semantic',
            validator: 'claims-against-log',
            message: falseClaim,
          });
    },
  },
};
