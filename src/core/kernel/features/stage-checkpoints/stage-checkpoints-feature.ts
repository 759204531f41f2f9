import { STAGE_CHECKPOINTS } from '../../config/kernel-flags.js';
import type { KernelFeature } from '../../decider/kernel-feature.js';
import {
  checkpointBeforeStart,
  evolveCheckpoints,
  INITIAL_CHECKPOINTS,
  type CheckpointState,
} from './stage-checkpoint.js';

/**
 * Stage checkpoints (flag `stage-checkpoints`): the workspace as recorded changes left it is
 * folded from the events; before each stage attempt its checkpoint is recorded, and a stage that
 * ran before records what it starts from.
 */
export const stageCheckpointsFeature: KernelFeature<'checkpoints', CheckpointState> = {
  name: 'checkpoints',
  flag: STAGE_CHECKPOINTS,
  events: ['stage_checkpoint_recorded', 'stage_start_reconciled'],
  state: { initial: INITIAL_CHECKPOINTS, evolve: evolveCheckpoints },
  hooks: {
    beforeStage: ({ slice, lastSequence }, next) =>
      checkpointBeforeStart(slice, next, lastSequence),
  },
};
