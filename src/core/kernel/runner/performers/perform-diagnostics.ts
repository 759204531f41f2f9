import type { EffectPerformer } from './effect-performer.js';

/** Asks the language server for the diagnostics of the files written (or records that none is wired). */
export const performDiagnostics: EffectPerformer<'run_diagnostics'> = async (
  options,
  state,
  effect,
  signal,
) => {
  const { ports } = options;
  const base = {
    type: 'language_diagnostics_recorded' as const,
    stageId: effect.stageId,
    attempt: effect.attempt,
  };
  if (ports.diagnostics === undefined)
    return [
      {
        ...base,
        server: 'none',
        method: 'unavailable',
        files: [],
        error: 'no language server is wired into this runner',
        durationMs: 0,
      },
    ];
  const run = await ports.diagnostics.diagnose(
    { workspaceRoot: state.session.workspace ?? '/', files: effect.files },
    signal,
  );
  if (signal.aborted) return [];
  return [{ ...base, ...run }];
};
