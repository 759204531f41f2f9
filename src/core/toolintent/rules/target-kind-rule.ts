import { hasCapability } from '../../tools/tool-contract.js';
import { finding } from '../finding.js';
import type { ToolCallRule } from '../tool-call-rule.js';
import type { Finding } from '../toolintent-events.js';
import {
  FILE_TOOL_TARGETS_REGULAR,
  LONE_SURROGATE_PATHS_BLOCKED,
  UNSTABLE_OBSERVATION_BLOCKS,
} from '../toolintent-flags.js';
import { observationOf } from './path-rules.js';

const TARGET_KIND = 'target-kind';

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when `text` holds a UTF-16 surrogate without its pair (no file name can carry it as is). */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

/**
 * TargetKind: what a path names must be something the tool can act on as assessed. Each check is
 * behind its own flag (sessions recorded before them re-derive no finding here): a name with a lone
 * surrogate (the disk would get U+FFFD instead), a path that changed during observation, a file
 * tool on a FIFO, socket or device, and a write whose target is a folder. Every finding blocks.
 */
export const targetKindRule: ToolCallRule = {
  id: TARGET_KIND,
  appliesTo: (context) => context.values.candidatePaths.length > 0,
  evaluate(context) {
    const fileTool = !hasCapability(context.tool, 'EXECUTES');
    const findings = new Map<string, Finding>();
    const block = (code: string, message: string) =>
      findings.set(`${code}:${message}`, finding(TARGET_KIND, 'block', code, message));
    for (const target of context.values.candidatePaths) {
      const label = `${target.param} ${JSON.stringify(target.path.raw)}`;
      if (
        context.flags.has(LONE_SURROGATE_PATHS_BLOCKED.name) &&
        hasLoneSurrogate(target.path.raw)
      ) {
        block(
          'lone_surrogate',
          `${label} holds a lone UTF-16 surrogate; it cannot name a file as written`,
        );
        continue;
      }
      const observation = observationOf(context, target);
      if (
        observation?.changedDuringObservation === true &&
        context.flags.has(UNSTABLE_OBSERVATION_BLOCKS.name)
      ) {
        block(
          'changed_during_observation',
          `${label} changed during observation (something is swapping it); propose the call again once it is stable`,
        );
        continue;
      }
      if (!fileTool || !context.flags.has(FILE_TOOL_TARGETS_REGULAR.name)) continue;
      if (observation?.kind === 'other') {
        block(
          'special_file',
          `${label} is a device, socket or FIFO; the file tools read and write regular files only`,
        );
      } else if (
        target.write &&
        target.origin === 'argument' &&
        (observation?.kind === 'directory' || target.path.raw.endsWith('/'))
      ) {
        block('write_to_folder', `${label} names a folder; a file tool writes a file path`);
      }
    }
    return [...findings.values()];
  },
};
