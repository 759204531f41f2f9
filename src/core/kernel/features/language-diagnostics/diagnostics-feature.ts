import { LSP_DIAGNOSTICS } from '../../config/kernel-flags.js';
import type { KernelFeature } from '../../decider/kernel-feature.js';
import { stageFailed } from '../../decider/stage-failed.js';
import { awaitEffect, emit } from '../../decider/step.js';
import { diagnosticsVerdict } from './language-diagnostics-step.js';

/**
 * Language diagnostics (flag `lsp-diagnostics`): before a verifier or reviewer stage completes,
 * the TypeScript and JavaScript files the session wrote go to a language server
 * (`run_diagnostics`); an error fails the attempt. Its result is folded into the attempt
 * (`language_diagnostics_recorded`), so the feature keeps no slice of its own.
 */
export const diagnosticsFeature: KernelFeature<'diagnostics', null> = {
  name: 'diagnostics',
  flag: LSP_DIAGNOSTICS,
  events: ['language_diagnostics_recorded'],
  state: { initial: null, evolve: (slice) => slice },
  hooks: {
    acceptedChecks({ workspace }, { stage, attempt, written }) {
      const verdict = diagnosticsVerdict(stage, attempt, written, workspace);
      if (verdict.kind === 'await') return awaitEffect(verdict.effect);
      if (verdict.kind === 'failed')
        return emit(stageFailed(attempt, 'validation', verdict.message));
      return null;
    },
  },
};
