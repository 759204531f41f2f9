import { layeredGet } from '../../base/layered-record.js';
import { STALE_WRITE_HASHES } from '../toolintent-flags.js';
import { matchGlob } from '../../policies/path-glob.js';
import { hasCapability } from '../../tools/tool-contract.js';
import { relativeInside } from '../../tools/tool-path.js';
import { finding } from '../finding.js';
import type { ToolCallRule } from '../tool-call-rule.js';
import type { Finding } from '../toolintent-events.js';
import { writtenBytes } from '../tool-session-projection.js';
import { WRITE_BUDGET } from '../toolintent-flags.js';
import { EXEC_SIBLING_CLASSIFICATION } from '../toolintent-flags.js';
import { observationOf } from './path-rules.js';

const READ_BEFORE_WRITE = 'read-before-write';
const STALE_WRITE = 'stale-write';
const MANIFEST = 'manifest-containment';
const WRITE_SCOPE = 'write-scope';

/**
 * Argument write targets of file-writing tools (exec writes are judged by containment and
 * scope), and, with flag exec-sibling-classification, files an exec command edits in place.
 */
const fileWriteTargets = (context: Parameters<ToolCallRule['evaluate']>[0]) =>
  context.values.writeTargets.filter(
    (target) =>
      target.origin !== 'command' ||
      (target.editsInPlace === true && context.flags.has(EXEC_SIBLING_CLASSIFICATION.name)),
  );

/**
 * ReadBeforeWrite: an existing file must have been read (or written) in this session before it
 * is overwritten, so the model never clobbers content it has not seen. The only exemption is a
 * tool declaring CONTENT_FROM_SOURCE (every byte comes from an existing file) — never merely
 * having a SOURCE_PATH argument. The exemption lives in `appliesTo`.
 */
export const readBeforeWriteRule: ToolCallRule = {
  id: READ_BEFORE_WRITE,
  appliesTo: (context) =>
    !hasCapability(context.tool, 'CONTENT_FROM_SOURCE') && fileWriteTargets(context).length > 0,
  evaluate(context) {
    const findings: Finding[] = [];
    for (const target of fileWriteTargets(context)) {
      const observation = observationOf(context, target);
      if (observation === undefined || observation.kind !== 'file') continue;
      if (layeredGet(context.view.reads, observation.realPath) !== undefined) continue;
      if (observation.sha256 === null) {
        findings.push(
          finding(
            READ_BEFORE_WRITE,
            'ask',
            'unread_unhashed',
            `${target.path.raw} exists, was never read and is too large to hash; overwriting needs approval`,
            'T2',
          ),
        );
      } else {
        findings.push(
          finding(
            READ_BEFORE_WRITE,
            'block',
            'not_read',
            `${target.path.raw} exists and has not been read in this session; read it before overwriting it`,
            'T1',
          ),
        );
      }
    }
    return findings;
  },
};

/**
 * StaleWrite: the file changed on disk since the model last read it (the recorded hash differs
 * from the observed one), so its edit is based on stale content: block and ask it to re-read.
 */
export const staleWriteRule: ToolCallRule = {
  id: STALE_WRITE,
  appliesTo: (context) => fileWriteTargets(context).length > 0,
  evaluate(context) {
    const findings: Finding[] = [];
    for (const target of fileWriteTargets(context)) {
      const observation = observationOf(context, target);
      if (observation === undefined) continue;
      const seen = layeredGet(context.view.reads, observation.realPath);
      if (seen === undefined) continue;
      // Under its flag the finding carries both hashes, so an operator sees what changed.
      const hashes = context.flags.has(STALE_WRITE_HASHES.name)
        ? { hashes: { atRead: seen, now: observation.sha256 } }
        : {};
      if (observation.kind !== 'file') {
        findings.push({
          ...finding(
            STALE_WRITE,
            'ask',
            'replaced',
            `${target.path.raw} was read as a file but is now ${observation.kind}`,
            'T2',
          ),
          ...hashes,
        });
      } else if (observation.sha256 !== seen) {
        findings.push({
          ...finding(
            STALE_WRITE,
            'block',
            'stale',
            `${target.path.raw} changed on disk since it was last read; read it again before writing`,
            'T1',
          ),
          ...hashes,
        });
      }
    }
    return findings;
  },
};

function relativeTarget(
  context: Parameters<ToolCallRule['evaluate']>[0],
  target: (typeof context.values.writeTargets)[number],
): string | undefined {
  const observation = observationOf(context, target);
  return relativeInside(
    observation?.realPath ?? target.path.absolute,
    context.view.roots.workspaceRoot,
  );
}

/**
 * ManifestContainment: when the stage declares a write manifest (the files it is meant to
 * produce), every write target must match an entry. Stages without a manifest skip the rule.
 * It never asks: a target is in the manifest or it is not.
 */
export const manifestContainmentRule: ToolCallRule = {
  id: MANIFEST,
  appliesTo: (context) =>
    context.view.writeManifest !== null && context.values.writeTargets.length > 0,
  evaluate(context) {
    const manifest = context.view.writeManifest ?? [];
    const findings: Finding[] = [];
    for (const target of context.values.writeTargets) {
      const relative = relativeTarget(context, target);
      if (relative === undefined) continue; // outside the workspace: path-containment blocks it
      if (!manifest.some((entry) => matchGlob(entry, relative))) {
        findings.push(
          finding(
            MANIFEST,
            'block',
            'outside_manifest',
            `${relative} is not in this stage's write manifest (${manifest.join(', ') || 'empty'})`,
            'T1',
          ),
        );
      }
    }
    return findings;
  },
};

/** WriteScope: every write target must match the policy's write scope (each list of globs). */
export const writeScopeRule: ToolCallRule = {
  id: WRITE_SCOPE,
  appliesTo: (context) => context.values.writeTargets.length > 0,
  evaluate(context) {
    const findings: Finding[] = [];
    for (const target of context.values.writeTargets) {
      const relative = relativeTarget(context, target);
      if (relative === undefined) continue;
      const outside = context.policy.writeScope.find(
        (list) => !list.some((glob) => matchGlob(glob, relative)),
      );
      if (outside !== undefined) {
        findings.push(
          finding(
            WRITE_SCOPE,
            'block',
            'outside_write_scope',
            outside.length === 0
              ? `${relative} is outside the write scope: nothing is writable (the workspace's own write scope was refused as a widening)`
              : `${relative} is outside the write scope ${outside.join(', ')}`,
            'T1',
          ),
        );
      }
    }
    return findings;
  },
};

const WRITE_BUDGET_RULE = 'write-budget';

/**
 * WriteBudget (flag `write-budget`): the content a session's file writes carry, summed over
 * successful writes, may not pass the policy's `writeBudgetBytes`; the write that would is
 * blocked, whatever the mode.
 */
export const writeBudgetRule: ToolCallRule = {
  id: WRITE_BUDGET_RULE,
  appliesTo: (context) =>
    context.flags.has(WRITE_BUDGET.name) &&
    context.policy.writeBudgetBytes !== undefined &&
    hasCapability(context.tool, 'WRITES_FILES') &&
    writtenBytes(context.args) > 0,
  evaluate(context) {
    const budget = context.policy.writeBudgetBytes ?? Infinity;
    const before = context.view.bytesWritten ?? 0;
    const bytes = writtenBytes(context.args);
    if (before + bytes <= budget) return [];
    return [
      finding(
        WRITE_BUDGET_RULE,
        'block',
        'write_budget_exceeded',
        `this write carries ${bytes} bytes; with the ${before} already written the session would pass its write budget of ${budget} bytes (policy writeBudgetBytes)`,
        'T1',
      ),
    ];
  },
};
