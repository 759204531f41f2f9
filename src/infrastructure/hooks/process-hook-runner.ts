import { z } from 'zod';
import { ApprovalTierSchema } from '../../core/approvals/approval-tier.js';
import type { HookRunner } from '../../core/kernel/index.js';
import type { HookDefinition } from '../../core/toolintent/hook-definition.js';
import type { PreToolUseHookResult } from '../../core/toolintent/hook-events.js';
import {
  runHookProcess,
  type HookProcessOptions,
  type HookProcessRun,
} from './run-hook-process.js';

/** What a `pre_tool_use` hook may answer on stdout. */
const PreToolUseAnswerSchema = z.strictObject({
  decision: z.enum(['allow', 'block', 'raise']),
  tier: ApprovalTierSchema.optional(),
  reason: z.string().max(2000).optional(),
});

/**
 * The HookRunner over real processes: each `pre_tool_use` hook runs in turn (sandboxed, with
 * its timeout) and its answer becomes a result. Anything but a clean exit with a valid JSON
 * verdict is a failed outcome, which the assessment turns into a block (failing closed).
 */
export function createProcessHookRunner(
  options: Omit<HookProcessOptions, 'workspaceRoot'>,
): HookRunner {
  return {
    async runPreToolUse(request, signal) {
      const results: PreToolUseHookResult[] = [];
      for (const hook of request.hooks) {
        const run = await runHookProcess(
          hook,
          request.input,
          { ...options, workspaceRoot: request.workspaceRoot },
          signal,
        );
        results.push(preToolUseResult(hook, run));
        if (signal.aborted) break;
      }
      return results;
    },
  };
}

/** A hook run as a recorded result. */
export function preToolUseResult(hook: HookDefinition, run: HookProcessRun): PreToolUseHookResult {
  const failed = (
    outcome: Exclude<PreToolUseHookResult['outcome'], 'answered'>,
    reason: string,
  ) => ({
    hook: hook.name,
    outcome,
    decision: 'block' as const,
    tier: null,
    reason,
    durationMs: run.durationMs,
  });
  const stderr = run.stderr.trim() === '' ? '' : ` (stderr: ${run.stderr.trim().slice(-500)})`;
  if (run.ending === 'failed_to_start') return failed('failed_to_start', `${run.stderr}`);
  if (run.ending === 'timed_out' || run.ending === 'aborted')
    return failed('timed_out', `no answer within ${hook.timeoutMs} ms`);
  if (run.exitCode !== 0) return failed('crashed', `it exited with code ${run.exitCode}${stderr}`);
  if (run.overflowed) return failed('garbage', 'its answer is larger than the limit');
  let answer: unknown;
  try {
    answer = JSON.parse(run.stdout);
  } catch {
    return failed('garbage', `its answer is not JSON: ${JSON.stringify(run.stdout.slice(0, 200))}`);
  }
  const parsed = PreToolUseAnswerSchema.safeParse(answer);
  if (!parsed.success)
    return failed(
      'garbage',
      `its answer is not a verdict ({"decision":"allow"|"block"|"raise","tier"?,"reason"?}): ${parsed.error.issues[0]?.message ?? 'invalid'}`,
    );
  const { decision, tier, reason } = parsed.data;
  if (decision === 'raise' && tier === undefined)
    return failed('garbage', 'a "raise" answer must name the tier');
  return {
    hook: hook.name,
    outcome: 'answered',
    decision,
    tier: decision === 'raise' ? (tier ?? null) : null,
    reason: reason ?? '',
    durationMs: run.durationMs,
  };
}
