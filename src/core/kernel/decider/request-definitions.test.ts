import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { canonicalJson, canonicalMemberJson } from '../../events/canonical-json.js';
import { builtinTools } from '../../tools/builtin-tools.js';
import { defineTool, toolArgsJsonSchema } from '../../tools/tool-contract.js';
import { defaultCodingWorkflow } from '../../transitions/default-coding-workflow.js';
import { finishingToolDefinition } from '../features/finishing-tool/finishing-tool.js';
import { requestDefinitions } from './request-definitions.js';

const stage = defaultCodingWorkflow.stages.get(defaultCodingWorkflow.initialStage)!;
const tools = stage.allowedTools.map((name) => builtinTools.find((tool) => tool.name === name)!);

// A tool as an outside server offers it: its schema as declared, nested objects and all.
const serverTool = defineTool({
  name: 'search_issues',
  description: 'Search the tracker.',
  argsSchema: z.strictObject({ query: z.string() }),
  paramRoles: {},
  capabilities: ['READ_ONLY'],
  defaultTier: 'T1',
  source: { kind: 'mcp', id: 'tracker', digest: 'a'.repeat(64) },
  inputJsonSchema: { type: 'object', properties: { query: { type: 'string' } } },
});

describe('requestDefinitions', () => {
  it('gives what building the definitions each call gave, and their canonical text', () => {
    for (const finishing of [false, true]) {
      const built = requestDefinitions(stage, tools, finishing);
      const expected = [
        ...tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          inputSchema: toolArgsJsonSchema(tool),
        })),
        ...(finishing ? [finishingToolDefinition(stage)] : []),
      ];
      expect(built.tools).toEqual(expected);
      expect(built.toolsJson).toBe(canonicalMemberJson(expected));
      expect(built.text).toBe(
        canonicalJson({
          tools: expected,
          responseSchema: finishing ? null : stage.artifact.schema,
        }),
      );
    }
  });

  it('is remembered per stage while its tools are the same objects', () => {
    const first = requestDefinitions(stage, tools, true);
    expect(requestDefinitions(stage, [...tools], true)).toBe(first);
    expect(requestDefinitions(stage, tools, false)).not.toBe(first);
    const more = requestDefinitions(stage, [...tools, serverTool], true);
    expect(more).not.toBe(first);
    expect(more.tools.map((tool) => tool.name)).toContain('search_issues');
    expect(requestDefinitions(stage, tools.slice(1), true).tools).toHaveLength(tools.length);
  });

  it('cannot be changed by a caller, and leaves the tools and the stage as they were', () => {
    const built = requestDefinitions(stage, [serverTool], true);
    const schema = built.tools[0]!.inputSchema as { properties: { query: { type: string } } };
    expect(() => {
      schema.properties.query.type = 'number';
    }).toThrow(TypeError);
    expect(() => (built.tools as unknown[]).push({})).toThrow(TypeError);
    expect(Object.isFrozen(serverTool.inputJsonSchema!.properties)).toBe(false);
    expect(Object.isFrozen(stage.artifact.schema)).toBe(false);
    expect(requestDefinitions(stage, [serverTool], true).tools[0]!.inputSchema).toEqual(
      serverTool.inputJsonSchema,
    );
  });
});
