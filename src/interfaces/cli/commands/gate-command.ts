import { Command, InvalidArgumentError } from 'commander';
import { ApprovalTierSchema, type ApprovalTier } from '../../../core/approvals/approval-tier.js';
import { gateSession, provenanceFacts } from '../../../core/kernel/index.js';
import { readSessionEvidence } from '../../../infrastructure/provenance/session-evidence.js';
import { treeDifferences } from '../../../infrastructure/provenance/tree-under-review.js';
import type { CommandContext } from '../cli-context.js';
import { formatJson } from '../format.js';
import { resolveSessionRef, SESSION_ARGUMENT } from '../session-ref.js';
import { withStore } from '../with-store.js';

function parseTier(value: string): ApprovalTier {
  const result = ApprovalTierSchema.safeParse(value.toUpperCase());
  if (!result.success) throw new InvalidArgumentError('a tier: T0, T1, T2 or T3');
  return result.data;
}

/**
 * `correx gate <session>`: a merge gate for CI. Exit 0 only when the log verifies, the tree under
 * review is what the log recorded, the asked-for approvals came from people, no policy block
 * was overridden and (with --require-checks) the required checks passed on the final change.
 */
export function gateCommand(context: CommandContext): Command {
  return new Command('gate')
    .description(
      "pass or fail a session's change for merging (CI): exit 0 only if every condition holds, each failing one printed",
    )
    .argument('[session]', SESSION_ARGUMENT)
    .option(
      '--require-approval <tier>',
      'every call at or above this tier approved by a person or a grant, not by a mode',
      parseTier,
    )
    .option('--require-checks', 'the required checks ran, passed, and nothing changed after them')
    .option('--json', 'print JSON')
    .action(
      async (
        typed: string | undefined,
        options: { requireApproval?: ApprovalTier; requireChecks?: boolean; json?: boolean },
        command: Command,
      ) => {
        await withStore(context, command, async ({ events }) => {
          const sessionId = await resolveSessionRef(events, typed, command);
          const evidence = await readSessionEvidence(events, sessionId);
          const logProblem = evidence.chain.ok
            ? null
            : `hash chain broken at sequence ${evidence.chain.sequence} (${evidence.chain.detail})`;
          // A broken log still gets its other reasons where they can be read: an empty fact set.
          const facts = evidence.facts ?? provenanceFacts([], () => '');
          const differences =
            evidence.facts === null || evidence.tree === null
              ? []
              : treeDifferences(evidence.tree, evidence.facts.changes.files);
          const verdict = gateSession({
            facts,
            logProblem,
            treeDifferences: differences,
            options: {
              ...(options.requireApproval === undefined
                ? {}
                : { requireApproval: options.requireApproval }),
              requireChecks: options.requireChecks === true,
            },
          });
          const result =
            evidence.facts === null
              ? { ...verdict, reasons: verdict.reasons.slice(0, 1) }
              : verdict;
          if (options.json)
            context.out(
              formatJson({
                sessionId,
                pass: result.pass,
                reasons: result.reasons,
                tree:
                  evidence.tree?.kind === 'git'
                    ? { branch: evidence.tree.branch, commit: evidence.tree.commit }
                    : (evidence.tree?.path ?? null),
                checks: result.checks,
              }),
            );
          else {
            for (const reason of result.reasons) context.out(`FAIL ${reason}`);
            context.out(
              result.pass
                ? `PASS session ${sessionId}: the log verifies${options.requireChecks ? ', the required checks passed on the final tree' : ''}${options.requireApproval ? `, calls at ${options.requireApproval} and above were approved by people` : ''}`
                : `gate failed for session ${sessionId}: ${result.reasons.length} reason(s)`,
            );
          }
          if (!result.pass) context.fail(1);
        });
      },
    );
}
