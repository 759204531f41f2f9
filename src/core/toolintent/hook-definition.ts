import { z } from 'zod';

/**
 * A user's hook, as `harness.yaml` declares it and `session_configured` records it: a program
 * (argv, no shell unless you name one) that gets the event as JSON on standard input and
 * answers JSON. `tools` limits a tool hook to some tools (exact names; `mcp__server__*` takes a
 * server's); absent: every tool.
 */
export const HookDefinitionSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'hook names are lowercase [a-z0-9._-]'),
  command: z.array(z.string().min(1)).min(1),
  tools: z.array(z.string().min(1)).optional(),
  timeoutMs: z.number().int().min(100).max(600_000).default(10_000),
});
export type HookDefinition = z.infer<typeof HookDefinitionSchema>;

export const HookSetSchema = z.strictObject({
  pre_tool_use: z.array(HookDefinitionSchema).default([]),
  post_tool_use: z.array(HookDefinitionSchema).default([]),
  stage_end: z.array(HookDefinitionSchema).default([]),
  session_end: z.array(HookDefinitionSchema).default([]),
});
export type HookSet = z.infer<typeof HookSetSchema>;
export type HookEvent = keyof HookSet;

/** Whether a tool hook applies to `tool`. */
export function hookAppliesTo(hook: HookDefinition, tool: string): boolean {
  if (hook.tools === undefined) return true;
  return hook.tools.some((pattern) =>
    pattern.endsWith('*') ? tool.startsWith(pattern.slice(0, -1)) : pattern === tool,
  );
}

/** The `pre_tool_use` hooks that apply to `tool`, in configured order. */
export function preToolUseHooksFor(hooks: HookSet | undefined, tool: string): HookDefinition[] {
  return (hooks?.pre_tool_use ?? []).filter((hook) => hookAppliesTo(hook, tool));
}
