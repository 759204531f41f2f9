import type { OperatorMode } from '../core/approvals/approval-tier.js';
import type { Clock } from '../core/base/clock.js';
import { CorrexError } from '../core/base/correx-error.js';
import type { IdSource } from '../core/base/id-source.js';
import type { Sha256 } from '../core/base/sha256.js';
import type { CorrexEventStore } from '../core/event-catalog.js';
import type { PreimageStore } from '../infrastructure/sandbox/preimage-store.js';
import { forkSession, type ForkResult } from './session-fork.js';
import type { ForkConfigurationChange, SessionHost } from './session-host.js';

/** What a person asks a fork for: `correx fork`'s flags, the REST fork's body. */
export type ForkAsked = ForkConfigurationChange & {
  readonly parentSessionId: string;
  /** A sequence, `stage:<id>[#attempt]`, a stage id, `call:<callId>` or `call:<n>`. */
  readonly at: number | string;
  readonly forkSessionId: string;
  readonly mode?: OperatorMode;
  readonly workspace?: string;
  readonly allowMissing?: boolean;
  readonly by: string;
};

/**
 * Records a fork (its prefix, its rebuilt workspace, `session_forked`) with the configuration
 * the host resolves for the asked changes; driving it is the caller's (`host.resume`).
 */
export async function forkOnHost(
  host: Pick<SessionHost, 'forkConfiguration'>,
  deps: {
    readonly store: CorrexEventStore;
    readonly preimages: PreimageStore;
    readonly clock: Clock;
    readonly ids: IdSource;
    readonly sha256: Sha256;
  },
  asked: ForkAsked,
): Promise<ForkResult> {
  const changes =
    asked.model !== undefined ||
    (asked.profiles?.length ?? 0) > 0 ||
    asked.policyFile !== undefined ||
    asked.workflow !== undefined;
  if (changes && host.forkConfiguration === undefined)
    throw new CorrexError(
      'usage',
      'this host cannot change a fork’s model, policy or workflow: fork without them',
    );
  const configuration = changes
    ? await host.forkConfiguration!({
        ...(asked.model === undefined ? {} : { model: asked.model }),
        ...(asked.profiles === undefined ? {} : { profiles: asked.profiles }),
        ...(asked.policyFile === undefined ? {} : { policyFile: asked.policyFile }),
        ...(asked.workflow === undefined ? {} : { workflow: asked.workflow }),
      })
    : null;
  return forkSession(deps, {
    parentSessionId: asked.parentSessionId,
    at: asked.at,
    forkSessionId: asked.forkSessionId,
    by: asked.by,
    ...(asked.workspace === undefined ? {} : { workspace: asked.workspace }),
    ...(asked.mode === undefined ? {} : { mode: asked.mode }),
    ...(asked.allowMissing === true ? { allowMissing: true } : {}),
    ...(configuration === null
      ? {}
      : {
          configure: configuration.configure,
          changed: configuration.changed,
          ...(configuration.modelProfile === undefined
            ? {}
            : { modelProfile: configuration.modelProfile }),
        }),
  });
}
