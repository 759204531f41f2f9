import type { SessionStatus } from '../../../core/sessions/session-status.js';

/** Why a demo run failed, or `null` when the workflow completed and the sample's tests pass. */
export function demoProblem(report: {
  readonly status: SessionStatus;
  readonly testsPass: boolean;
}): string | null {
  if (report.status !== 'completed') return `the workflow ended ${report.status}, not completed`;
  if (!report.testsPass) return "the workflow completed but the sample's tests still fail";
  return null;
}
