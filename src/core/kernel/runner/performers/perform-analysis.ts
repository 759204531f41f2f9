import { wellFormedDeep } from '../../../base/well-formed.js';
import { KernelWiringError, type EffectPerformer } from './effect-performer.js';

/** Runs one definition-of-done check of a stage in the workspace. */
export const performAnalysis: EffectPerformer<'run_analysis'> = async (
  options,
  state,
  effect,
  signal,
) => {
  const { ports } = options;
  if (ports.analysis === undefined) {
    throw new KernelWiringError(
      `stage ${effect.stageId} has definition-of-done checks but no StaticAnalysisRunner is wired`,
    );
  }
  const run = await ports.analysis.run(
    {
      name: effect.name,
      command: effect.command,
      workspaceRoot: state.session.workspace ?? '/',
    },
    signal,
  );
  return [
    {
      type: 'dod_check_ran',
      stageId: effect.stageId,
      attempt: effect.attempt,
      name: effect.name,
      command: effect.command,
      ...wellFormedDeep(run),
    },
  ];
};
