import type { OperatorMode } from '../../core/approvals/approval-tier.js';

/** How much a mode lets run without a person: `deny` least, then `prompt`, `auto`, `yolo`. */
const PERMISSIVENESS: Readonly<Record<OperatorMode, number>> = {
  deny: 0,
  prompt: 1,
  auto: 2,
  yolo: 3,
};

/** Whether `mode` lets more run without a person than `ceiling` does. */
export function modeAbove(mode: OperatorMode, ceiling: OperatorMode): boolean {
  return PERMISSIVENESS[mode] > PERMISSIVENESS[ceiling];
}

/**
 * The mode a session started over MCP runs in: the one asked for, else `auto`, but never more
 * permissive than the operator's configured mode (`mode:` in harness.yaml, default `prompt`).
 * null: the mode asked for is above it, and the start is refused.
 */
export function mcpSessionMode(
  asked: OperatorMode | undefined,
  ceiling: OperatorMode,
): OperatorMode | null {
  if (asked !== undefined) return modeAbove(asked, ceiling) ? null : asked;
  return modeAbove('auto', ceiling) ? ceiling : 'auto';
}
