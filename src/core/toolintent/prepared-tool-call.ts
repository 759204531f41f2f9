import type { ToolDefinition } from '../tools/tool-contract.js';
import type { ToolPathRoots } from '../tools/tool-path.js';
import type { AssessmentPolicy } from './default-rules.js';
import { extractParamValues, type ExtractedValues } from './param-value-extractor.js';

/**
 * A proposed call checked once: its arguments validated against the tool's schema, and every
 * value the rules read (paths, URLs, an exec line's shell analysis) extracted from them. It is
 * what probe, assessment, approval and execution work from, so none of them validates or
 * analyses the call again.
 */
export type PreparedToolCall = {
  readonly callId: string;
  readonly tool: ToolDefinition;
  /** The arguments as the schema accepted them. */
  readonly args: Readonly<Record<string, unknown>>;
  readonly values: ExtractedValues;
};

/** Extracts a call's values from arguments its schema already accepted. */
export function prepareToolCall(
  policy: AssessmentPolicy,
  roots: ToolPathRoots,
  call: {
    readonly callId: string;
    readonly tool: ToolDefinition;
    readonly args: Readonly<Record<string, unknown>>;
  },
): PreparedToolCall {
  return {
    callId: call.callId,
    tool: call.tool,
    args: call.args,
    values: extractParamValues(call.tool, call.args, roots, policy.policy, {
      flags: policy.flags,
      ...(policy.sandbox === undefined ? {} : { sandbox: policy.sandbox }),
    }),
  };
}

/** True when the call was already prepared (validated and analysed). */
export function isPreparedToolCall(call: object): call is PreparedToolCall {
  return 'values' in call;
}
