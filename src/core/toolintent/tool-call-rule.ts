import type { LayeredRecord } from '../base/layered-record.js';
import type { BehaviourFlags } from '../base/behaviour-flag.js';
import type { WorkspacePolicy } from '../policies/workspace-policy.js';
import type { ToolDefinition } from '../tools/tool-contract.js';
import type { ToolPathRoots } from '../tools/tool-path.js';
import type { ExtractedValues } from './param-value-extractor.js';
import type { Finding, WorldObservation } from './toolintent-events.js';

/**
 * What the rules know about the session, all of it from recorded events (hard invariant #9):
 * observations by probed path, the content hash at each file's last read, the egress
 * allowlist, and the current stage's declared write manifest (null when it declares none).
 */
export type ToolSessionView = {
  readonly roots: ToolPathRoots;
  readonly observations: LayeredRecord<WorldObservation>;
  /** Real path → SHA-256 of the content the model last saw (read, or wrote itself). */
  readonly reads: LayeredRecord<string>;
  readonly egressAllowlist: readonly string[];
  /** Hosts a person's active grants name for this stage (flag egress-asks-to-widen). */
  readonly grantedHosts?: readonly string[];
  readonly writeManifest: readonly string[] | null;
  /** UTF-8 bytes the session's successful file writes carried so far (absent: 0). */
  readonly bytesWritten?: number;
};

/** A call as the rules see it: parsed arguments plus every value the extractor pulled out. */
export type ToolCallContext = {
  readonly callId: string;
  readonly tool: ToolDefinition;
  readonly args: Readonly<Record<string, unknown>>;
  readonly values: ExtractedValues;
  readonly policy: WorkspacePolicy;
  readonly view: ToolSessionView;
  /** The session's recorded behaviour flags: a changed rule branches on its flag. */
  readonly flags: BehaviourFlags;
};

/** One plane-2 rule. Registered in the policy's rule list; the assessor never hard-codes rules. */
export interface ToolCallRule {
  readonly id: string;
  /** False to skip the rule for this call entirely (e.g. no paths, or an exempt capability). */
  appliesTo(context: ToolCallContext): boolean;
  evaluate(context: ToolCallContext): readonly Finding[];
}
