import { z } from 'zod';
import type { ApprovalTier } from '../approvals/approval-tier.js';
import type { DescribeChange } from './file-change.js';

/**
 * What a path-like or otherwise security-relevant argument means. `PATH` is a target the call
 * reads or mutates; `SOURCE_PATH` a source it only reads from (copy); `URL` a network target;
 * `COMMAND` a program or shell line to run.
 */
export const ParamRoleSchema = z.enum(['PATH', 'SOURCE_PATH', 'URL', 'COMMAND']);
export type ParamRole = z.infer<typeof ParamRoleSchema>;

/**
 * What a tool can do. `CONTENT_FROM_SOURCE` declares provenance: every byte it writes comes from
 * an existing source file, so there is no model-authored content (ReadBeforeWrite's only exemption).
 */
export const ToolCapabilitySchema = z.enum([
  'READ_ONLY',
  'WRITES_FILES',
  'EXECUTES',
  'NETWORK',
  'CONTENT_FROM_SOURCE',
]);
export type ToolCapability = z.infer<typeof ToolCapabilitySchema>;

/**
 * The contract of a tool, as data. The executor (infrastructure) is looked up by `name`; core
 * never runs a tool. `paramRoles` names top-level argument keys; a string or string-array value
 * under that key carries the role. A tool without roles has its path-like strings sniffed.
 */
export type ToolDefinition<Args = unknown> = {
  readonly name: string;
  readonly description: string;
  readonly argsSchema: z.ZodType<Args>;
  readonly paramRoles: Readonly<Record<string, ParamRole>>;
  readonly capabilities: readonly ToolCapability[];
  readonly defaultTier: ApprovalTier;
  /** Absent for correx's built-in tools; set for a tool an outside server offers. */
  readonly source?: ToolSource;
  /** The argument schema exactly as the source declared it (shown to the model as given). */
  readonly inputJsonSchema?: Readonly<Record<string, unknown>>;
  /**
   * What a successful call changes in a file, from its arguments (see file-change.ts); absent
   * for a tool whose change its arguments do not show (reads, copies, commands, outside tools).
   */
  readonly describeChange?: DescribeChange;
  /**
   * True for a built-in tool that may run again after an interrupted call with the same
   * result (write_file); read-only tools are idempotent anyway. A configuration's
   * `idempotentTools` replaces the built-in list.
   */
  readonly idempotent?: boolean;
};

/**
 * Where a tool that is not built in comes from: the server that offered it and the SHA-256 of
 * its description as listed, so a session records (and replay rebuilds) exactly the tool it ran.
 */
export const ToolSourceSchema = z.strictObject({
  kind: z.enum(['mcp', 'plugin']),
  /** The configured server's or plugin's name. */
  id: z.string().min(1),
  digest: z.string().regex(/^[0-9a-f]{64}$/),
});
export type ToolSource = z.infer<typeof ToolSourceSchema>;

/** Declares a tool; the schema must be a strict object so no unknown argument slips through. */
export function defineTool<Args>(definition: ToolDefinition<Args>): ToolDefinition<Args> {
  return Object.freeze({ ...definition, capabilities: [...definition.capabilities] });
}

/** True when the tool declares the capability. */
export function hasCapability(tool: ToolDefinition, capability: ToolCapability): boolean {
  return tool.capabilities.includes(capability);
}

/**
 * True for a built-in tool that only reads: running it changes nothing. An outside server's
 * read-only annotation is a hint, not a guarantee, so only built-ins count.
 */
export function isBuiltInReadOnly(tool: ToolDefinition): boolean {
  return (
    tool.source === undefined &&
    tool.capabilities.length > 0 &&
    tool.capabilities.every((capability) => capability === 'READ_ONLY')
  );
}

/** True when the tool changes files (writes, moves) or runs programs. */
export function isMutatingTool(tool: ToolDefinition): boolean {
  return hasCapability(tool, 'WRITES_FILES') || hasCapability(tool, 'EXECUTES');
}

/** The JSON Schema a model is shown for the tool's arguments. */
export function toolArgsJsonSchema(tool: ToolDefinition): Record<string, unknown> {
  if (tool.inputJsonSchema !== undefined) return { ...tool.inputJsonSchema };
  let schema = argsJsonSchemas.get(tool.argsSchema);
  if (schema === undefined) {
    schema = z.toJSONSchema(tool.argsSchema, { target: 'draft-2020-12', io: 'input' }) as Record<
      string,
      unknown
    >;
    argsJsonSchemas.set(tool.argsSchema, schema);
  }
  // A copy: callers adapt schemas for their wire, and the cached one must stay as converted.
  return structuredClone(schema);
}

// Converting a zod schema is costly and every stage request and refusal asks for it again.
const argsJsonSchemas = new WeakMap<z.ZodType, Record<string, unknown>>();

/** The description a model is shown: name, description, argument JSON Schema. */
export function describeToolForModel(tool: ToolDefinition): {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
} {
  return { name: tool.name, description: tool.description, parameters: toolArgsJsonSchema(tool) };
}
