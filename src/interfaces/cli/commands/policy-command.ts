import { Command } from 'commander';
import { CorrexError } from '../../../core/base/correx-error.js';
import {
  describeCallExplanation,
  explainCall,
  whatIfPolicy,
  type WhatIfReport,
} from '../../../core/kernel/index.js';
import type { WorkspacePolicy } from '../../../core/policies/workspace-policy.js';
import { parseCandidatePolicy } from '../../candidate-policy.js';
import {
  MAX_CONFIG_FILE_BYTES,
  readBoundedFile,
} from '../../../infrastructure/system/bounded-file-read.js';
import type { CommandContext } from '../cli-context.js';
import { withStore } from '../with-store.js';
import { resolveSessionRef, SESSION_ARGUMENT } from '../session-ref.js';

class PolicyWhatIfUsageError extends CorrexError {
  constructor(message: string) {
    super('usage', message);
  }
}

/**
 * A candidate policy file: a `harness.yaml` (its `policy:` section) or a bare policy document,
 * YAML or JSON. Fields it omits take the defaults, exactly as `harness.yaml` would.
 */
async function readCandidatePolicy(file: string): Promise<WorkspacePolicy> {
  let bytes: Buffer;
  try {
    bytes = await readBoundedFile(file, {
      maxBytes: MAX_CONFIG_FILE_BYTES,
      what: 'the policy file',
    });
  } catch (error) {
    if (CorrexError.isInstance(error)) throw error;
    throw new PolicyWhatIfUsageError(
      `cannot read the policy file ${file}: ${(error as Error).message}`,
    );
  }
  return parseCandidatePolicy(bytes.toString('utf8'), file);
}

function describe(report: WhatIfReport): string[] {
  if (report.skipped !== null) return [`${report.sessionId}: not re-assessed: ${report.skipped}`];
  return report.changes.map(
    (change) =>
      `${change.sessionId} ${change.callId} ${change.tool}: ${change.recorded.verdict} ${change.recorded.tier} -> ${change.candidate.verdict} ${change.candidate.tier}` +
      (change.added.length > 0 ? ` (+${change.added.join(' +')})` : '') +
      (change.removed.length > 0 ? ` (-${change.removed.join(' -')})` : ''),
  );
}

/** `correx policy what-if` and `correx policy explain`: re-assesses recorded calls under a candidate policy, from the log only. */
export function policyCommand(context: CommandContext): Command {
  const policy = new Command('policy').description(
    'check a policy change against recorded sessions',
  );
  policy
    .command('what-if')
    .description(
      'list the recorded calls whose verdict or tier a candidate policy would change (from recorded observations; the disk is not read)',
    )
    .requiredOption('--policy <file>', 'the candidate policy (harness.yaml or a policy document)')
    .option('--session <id>', 'one session')
    .option('--all', 'every session in the store')
    .option('--json', 'print the reports as JSON')
    .action(
      async (
        options: { policy: string; session?: string; all?: boolean; json?: boolean },
        command: Command,
      ) => {
        if ((options.session === undefined) === (options.all !== true))
          throw new PolicyWhatIfUsageError('name exactly one of --session <id> or --all');
        const candidate = await readCandidatePolicy(options.policy);
        await withStore(context, command, async ({ events }) => {
          const ids =
            options.session !== undefined
              ? [await resolveSessionRef(events, options.session, command)]
              : (await events.listSessions()).map((session) => session.sessionId);
          const reports: WhatIfReport[] = [];
          for (const id of ids) reports.push(whatIfPolicy(await events.read(id), candidate));
          if (options.json === true) {
            context.out(JSON.stringify(reports, null, 2));
            return;
          }
          const lines = reports.flatMap(describe);
          const assessed = reports.reduce((sum, report) => sum + report.assessed, 0);
          const changed = reports.reduce((sum, report) => sum + report.changes.length, 0);
          const inexact = reports.flatMap((report) =>
            report.inexact.map((callId) => `${report.sessionId} ${callId}`),
          );
          if (lines.length > 0) context.out(lines.join('\n'));
          if (inexact.length > 0)
            context.out(
              `recorded by another release, compared with this correx's re-derivation: ${inexact.join(', ')}`,
            );
          context.out(
            `${changed} of ${assessed} recorded calls in ${reports.length} session(s) would change under ${options.policy}`,
          );
        });
      },
    );
  policy
    .command('explain')
    .description(
      'for one recorded tool call, what decided its outcome, in the order it applied (from the log only)',
    )
    .argument('[session]', SESSION_ARGUMENT)
    .argument('[call]', 'the call id (implement.1.1.1), or a unique end of one (1.2.1)')
    .option('--json', 'print the explanation as one JSON object')
    .action(
      async (
        typedSession: string | undefined,
        typedCall: string | undefined,
        options: { json?: boolean },
        command: Command,
      ) => {
        // With --last the one positional is the call (commander fills the session first).
        const [session, call] =
          typedCall === undefined ? [undefined, typedSession] : [typedSession, typedCall];
        if (call === undefined)
          throw new PolicyWhatIfUsageError(
            'name the call to explain: <session> <call>, or --last <call>',
          );
        await withStore(context, command, async ({ events }) => {
          const id = await resolveSessionRef(events, session, command);
          const explanation = explainCall(await events.read(id), call);
          context.out(
            options.json === true
              ? JSON.stringify(explanation, null, 2)
              : describeCallExplanation(explanation).join('\n'),
          );
        });
      },
    );
  return policy;
}
