import type { CorrexEvent } from '../../../event-catalog.js';
import type { ProjectCheck } from '../../../validation/project-check.js';

export type RecordedProjectChecks = {
  readonly checks: readonly ProjectCheck[];
  readonly sequence: number;
};

export type RecordedCheckRun = {
  readonly stageId: string;
  readonly attempt: number;
  readonly name: string;
  readonly command: string;
  readonly passed: boolean;
  readonly exitCode: number | null;
  readonly sequence: number;
};

export type ChecksState = {
  /** The project's checks as recorded at session start (`project_checks_detected`); null before. */
  readonly projectChecks: RecordedProjectChecks | null;
  /** Every recorded check run of the session, in order (what `show` and the review pack report). */
  readonly checkRuns: readonly RecordedCheckRun[];
};

export const INITIAL_CHECKS: ChecksState = { projectChecks: null, checkRuns: [] };

export function evolveChecks(checks: ChecksState, event: CorrexEvent): ChecksState {
  const payload = event.payload;
  switch (payload.type) {
    case 'project_checks_detected':
      return {
        projectChecks: { checks: payload.checks, sequence: event.sequence },
        checkRuns: checks.checkRuns,
      };
    case 'dod_check_ran':
      return {
        projectChecks: checks.projectChecks,
        checkRuns: [
          ...checks.checkRuns,
          {
            stageId: payload.stageId,
            attempt: payload.attempt,
            name: payload.name,
            command: payload.command,
            passed: payload.outcome === 'completed' && payload.exitCode === 0,
            exitCode: payload.exitCode,
            sequence: event.sequence,
          },
        ],
      };
    default:
      return checks;
  }
}
