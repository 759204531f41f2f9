import type { ProposedToolCall } from './assess-tool-call.js';
import { malformedCommand } from '../tools/malformed-command.js';
import type { ToolDefinition } from '../tools/tool-contract.js';
import type { ToolPathRoots } from '../tools/tool-path.js';
import type { AssessmentPolicy } from './default-rules.js';
import { prepareToolCall, type PreparedToolCall } from './prepared-tool-call.js';

/** A proposed call's arguments checked: prepared with the paths to probe, or why they are refused. */
export type CheckedToolArguments =
  | {
      readonly ok: true;
      /** Prepared; only arguments a schema accepts as something other than an object stay unprepared (the assessor blocks them). */
      readonly prepared: PreparedToolCall | ProposedToolCall;
      /** The absolute paths the WorldProbe must observe before the call is assessed. */
      readonly paths: readonly string[];
    }
  | { readonly ok: false; readonly message: string };

export type ToolArgumentCheckOptions = {
  /** Validates the arguments' canonical form (keys sorted) instead of the order the model wrote. */
  readonly canonical: (<T>(value: T) => T) | null;
  /** Problem lines in one order whatever the order of the schema's or the answer's keys. */
  readonly order: (problems: readonly string[]) => string[];
  /** Refuses COMMAND arguments that cannot name a program (`malformed-command-rejected`). */
  readonly rejectMalformedCommand: boolean;
};

type Entry = { readonly key: readonly unknown[]; readonly result: CheckedToolArguments };

/*
 * A call is decided over several passes (before its probe, after it, after its hooks), on states
 * folded afresh (decide folds what it emits, the runner folds it again as stored), so the check
 * is kept per assessment policy (one per session configuration), by call id and argument text,
 * with everything else the result depends on compared on the way out: each call is validated and
 * its command line analysed once. The result is a pure function of that key, so a hit is
 * exactly what checking again would give. Bounded: the oldest entries go first.
 */
const checkedByPolicy = new WeakMap<AssessmentPolicy, Map<string, Entry>>();
const MAX_CHECKED_PER_POLICY = 1024;

/**
 * Validates a proposed call's arguments against its tool's schema, refuses a command that cannot
 * name a program, and prepares the call (paths, URLs, the shell analysis) once: a repeated check
 * of the same arguments under the same policy and roots returns the same result.
 */
export function checkToolArguments(
  policy: AssessmentPolicy,
  roots: ToolPathRoots,
  call: {
    readonly callId: string;
    readonly tool: ToolDefinition;
    /** The decoded arguments: the JSON object `argsRaw` holds. */
    readonly args: object;
    readonly argsRaw: string;
  },
  options: ToolArgumentCheckOptions,
): CheckedToolArguments {
  const key = [
    call.tool,
    roots.workspaceRoot,
    roots.homeDirectory,
    options.canonical,
    options.order,
    options.rejectMalformedCommand,
  ];
  let checked = checkedByPolicy.get(policy);
  if (checked === undefined) {
    checked = new Map();
    checkedByPolicy.set(policy, checked);
  }
  const text = `${call.callId}\u0000${call.tool.name}\u0000${call.argsRaw}`;
  const cached = checked.get(text);
  if (cached !== undefined && sameKey(cached.key, key)) return cached.result;
  const result = check(policy, roots, call, options);
  checked.delete(text);
  checked.set(text, { key, result });
  if (checked.size > MAX_CHECKED_PER_POLICY) {
    const oldest = checked.keys().next();
    if (oldest.done !== true) checked.delete(oldest.value);
  }
  return result;
}

function check(
  policy: AssessmentPolicy,
  roots: ToolPathRoots,
  call: { readonly callId: string; readonly tool: ToolDefinition; readonly args: object },
  options: ToolArgumentCheckOptions,
): CheckedToolArguments {
  const { tool } = call;
  const parsed = tool.argsSchema.safeParse(
    options.canonical === null ? call.args : options.canonical(call.args),
  );
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.map(String).join('.') || 'arguments'}: ${issue.message}`,
    );
    const listed = options.canonical === null ? problems : options.order(problems);
    return { ok: false, message: `the arguments do not match the schema: ${listed.join('; ')}` };
  }
  if (typeof parsed.data !== 'object' || parsed.data === null)
    return { ok: true, prepared: { callId: call.callId, tool, args: parsed.data }, paths: [] };
  const args = parsed.data as Record<string, unknown>;
  if (options.rejectMalformedCommand) {
    const malformed = malformedCommand(tool, args);
    if (malformed !== undefined)
      return { ok: false, message: `the arguments cannot be run: ${malformed}` };
  }
  const prepared = prepareToolCall(policy, roots, { callId: call.callId, tool, args });
  const paths = [
    ...new Set(prepared.values.candidatePaths.map((path) => path.path.absolute)),
  ].sort();
  return { ok: true, prepared, paths };
}

function sameKey(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}
