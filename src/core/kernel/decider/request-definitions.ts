import { deepFreeze } from '../../base/deep-freeze.js';
import { canonicalJson, canonicalMemberJson } from '../../events/canonical-json.js';
import type { ToolDefinition } from '../../inference/inference-request.js';
import {
  toolArgsJsonSchema,
  type ToolDefinition as ToolContract,
} from '../../tools/tool-contract.js';
import type { WorkflowStage } from '../../transitions/workflow.js';
import { finishingToolDefinition } from '../features/finishing-tool/finishing-tool.js';

/** What travels beside a stage's messages: its tool definitions, and their canonical text. */
export type RequestDefinitions = {
  readonly tools: readonly ToolDefinition[];
  /** `canonicalJson({ tools, responseSchema })`, which the definitions' token count is taken of. */
  readonly text: string;
  /**
   * `canonicalMemberJson(tools)`: the tools' text within the request's (its digest); undefined
   * where that has no fast path, and the digest writes the request the plain way.
   */
  readonly toolsJson: string | undefined;
};

/**
 * The definitions a stage's model call carries, the same for every call of the stage while its
 * tools are the same objects. Converting each tool's argument schema and writing the canonical
 * text of them all cost a model call time in proportion to the tools it offers (about 50 µs for
 * the ten built-ins, more with a server's tools), and it is the same every turn. Remembered per
 * stage and frozen all the way down (a copy: the tools' and the stage's own schemas are left as
 * they are), so a caller that changed them would throw instead of changing the next call's
 * request; a provider adapts them for its wire by copying. Pure: what is remembered is what the
 * same arguments give.
 */
export function requestDefinitions(
  stage: WorkflowStage,
  tools: readonly ToolContract[],
  finishing: boolean,
): RequestDefinitions {
  const remembered = memo.get(stage);
  if (
    remembered !== undefined &&
    remembered.finishing === finishing &&
    sameTools(remembered.from, tools)
  )
    return remembered.definitions;
  // A copy to freeze: a tool's own schema and the stage's artifact schema stay as they are.
  const definitions = structuredClone([
    ...tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: toolArgsJsonSchema(tool),
    })),
    ...(finishing ? [finishingToolDefinition(stage)] : []),
  ]);
  const responseSchema = responseSchemaOf(stage, finishing);
  const made = deepFreeze({
    tools: definitions,
    text: canonicalJson({ tools: definitions, responseSchema: responseSchema ?? null }),
    toolsJson: canonicalMemberJson(definitions),
  });
  memo.set(stage, { from: [...tools], finishing, definitions: made });
  return made;
}

/**
 * The schema a stage's answer is asked in: none where the stage ends by calling its finishing
 * tool (whose parameters are that schema), else the artifact's.
 */
export function responseSchemaOf(
  stage: WorkflowStage,
  finishing: boolean,
): WorkflowStage['artifact']['schema'] | undefined {
  return finishing ? undefined : stage.artifact.schema;
}

const memo = new WeakMap<
  WorkflowStage,
  {
    readonly from: readonly ToolContract[];
    readonly finishing: boolean;
    readonly definitions: RequestDefinitions;
  }
>();

function sameTools(left: readonly ToolContract[], right: readonly ToolContract[]): boolean {
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index++) if (left[index] !== right[index]) return false;
  return true;
}
