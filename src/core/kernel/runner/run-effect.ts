import type { CorrexEvent } from '../../event-catalog.js';
import type { KernelState } from '../decider/kernel-state.js';
import {
  KernelWiringError,
  type EffectContext,
  type EffectPerformer,
  type PerformedEffect,
} from './performers/effect-performer.js';
import { performAnalysis } from './performers/perform-analysis.js';
import { performDetectChecks } from './performers/perform-detect-checks.js';
import { performDiagnostics } from './performers/perform-diagnostics.js';
import { performExecute } from './performers/perform-execute.js';
import { performInfer } from './performers/perform-infer.js';
import { performPreToolUseHooks } from './performers/perform-pre-tool-use-hooks.js';
import { performProbe } from './performers/perform-probe.js';
import { performWait } from './performers/perform-wait.js';

export { KernelWiringError, type EffectContext };

/**
 * Each effect kind's performer, beside the facts of what answers it (effectResults in
 * decider/effect.ts). The mapped type makes the table exhaustive: a new effect kind does not
 * compile until it has a performer here (or is one the loop performs itself).
 */
const performers: { readonly [Type in PerformedEffect['type']]: EffectPerformer<Type> } = {
  infer: performInfer,
  wait: performWait,
  probe: performProbe,
  run_diagnostics: performDiagnostics,
  detect_checks: performDetectChecks,
  run_analysis: performAnalysis,
  run_pre_tool_use_hooks: performPreToolUseHooks,
  execute: performExecute,
};

/**
 * Performs one effect through its port and returns the input events that record its result
 * (none when it was aborted and has nothing to record: it stays pending).
 */
export function runEffect(
  options: EffectContext,
  state: KernelState,
  effect: PerformedEffect,
  signal: AbortSignal,
): Promise<CorrexEvent['payload'][]> {
  const perform = performers[effect.type] as EffectPerformer<PerformedEffect['type']>;
  return perform(options, state, effect as never, signal);
}
