import type { WorkflowStage } from '../../transitions/workflow.js';
import type { KernelConfig } from '../config/kernel-config.js';
import type { KernelState } from './kernel-state.js';
import type { StageRunState } from './stage-run.js';
import type { BuiltRequests } from './step.js';

/**
 * Everything one step of a running stage attempt reads, built once: the configuration, the
 * state, the attempt, its stage, and the requests built in this decision.
 */
export type StageContext = {
  readonly config: KernelConfig;
  readonly state: KernelState;
  readonly run: StageRunState;
  readonly stage: WorkflowStage;
  readonly built: BuiltRequests;
};
