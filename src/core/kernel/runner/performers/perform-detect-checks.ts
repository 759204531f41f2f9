import { KernelWiringError, type EffectPerformer } from './effect-performer.js';

/** Detects the project's checks from its files, at session start. */
export const performDetectChecks: EffectPerformer<'detect_checks'> = async (
  options,
  state,
  effect,
  signal,
) => {
  const { ports } = options;
  if (ports.checks === undefined) {
    throw new KernelWiringError(
      "the session detects the project's checks at its start but no ProjectCheckDetector is wired",
    );
  }
  const detected = await ports.checks.detect(state.session.workspace ?? '/', signal);
  if (signal.aborted) return [];
  return [
    {
      type: 'project_checks_detected',
      checks: [...detected.checks],
      problems: [...detected.problems],
    },
  ];
};
