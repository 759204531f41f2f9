import { DEFAULT_NEVER_READABLE } from '../../policies/workspace-policy.js';
import { finding } from '../finding.js';
import type { ToolCallRule } from '../tool-call-rule.js';
import { NEVER_READABLE } from '../toolintent-flags.js';
import { isNeverWritable, observationOf } from './path-rules.js';

const NEVER_READABLE_RULE = 'never-readable';

/**
 * Tools that see only names (listing a secret's name is allowed), and write_file, whose bytes
 * all come from the model (an existing secret is still protected by read-before-write).
 */
const EXEMPT_TOOLS = new Set(['list_dir', 'glob', 'write_file']);

/**
 * NeverReadable (flag `never-readable`): no tool that reads contents may name a path matching
 * the policy's never-readable globs (default DEFAULT_NEVER_READABLE), on its lexical or real
 * path, so a secret's bytes never reach a receipt or the model. Final: a BLOCK.
 */
export const neverReadableRule: ToolCallRule = {
  id: NEVER_READABLE_RULE,
  appliesTo: (context) =>
    context.flags.has(NEVER_READABLE.name) &&
    !EXEMPT_TOOLS.has(context.tool.name) &&
    context.values.candidatePaths.length > 0,
  evaluate(context) {
    const patterns = context.policy.neverReadable ?? DEFAULT_NEVER_READABLE;
    return context.values.candidatePaths.flatMap((target) => {
      const real = observationOf(context, target)?.realPath;
      const paths = real === undefined ? [target.path.absolute] : [target.path.absolute, real];
      const pattern = isNeverWritable(patterns, context.view.roots, paths);
      return pattern === undefined
        ? []
        : [
            finding(
              NEVER_READABLE_RULE,
              'block',
              'never_readable',
              `${target.param} ${JSON.stringify(target.path.raw)} matches the never-readable path ${pattern}; its contents stay out of the session`,
              'T3',
            ),
          ];
    });
  },
};
