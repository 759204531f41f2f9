import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../core/inference/inference-request.js';
import { finishingToolDefinition } from '../../core/kernel/features/finishing-tool/finishing-tool.js';
import { builtinTools } from '../../core/tools/builtin-tools.js';
import { toolArgsJsonSchema } from '../../core/tools/tool-contract.js';
import { defaultCodingWorkflow } from '../../core/transitions/default-coding-workflow.js';
import { toGrammarSchema, toolCallEnvelopeSchema } from './llama-cpp-tool-grammar.js';
import { MAX_WIRE_REPETITION } from './wire-tool-schema.js';

/*
 * Every schema correx sends, compiled by node-llama-cpp's real JSON-schema-to-GBNF compiler
 * (its prebuilt native binary, no model and no download). Absent that binary the suite is
 * skipped with a message, except under CI=true where it must run.
 */
const nodeLlamaCpp = await import('node-llama-cpp').catch(() => undefined);
const llama = await nodeLlamaCpp
  ?.getLlama({ gpu: false, build: 'never', progressLogs: false })
  .catch((error: unknown) => {
    console.warn(`node-llama-cpp's prebuilt binary did not load: ${String(error)}`);
    return undefined;
  });

const tools: ToolDefinition[] = builtinTools.map((tool) => ({
  name: tool.name,
  description: tool.description,
  inputSchema: toolArgsJsonSchema(tool),
}));
const finishingTools: ToolDefinition[] = [...defaultCodingWorkflow.stages.values()].map(
  finishingToolDefinition,
);

it.runIf(llama === undefined && process.env.CI === 'true')(
  'has node-llama-cpp and its prebuilt binary under CI',
  () => {
    expect.fail('node-llama-cpp or its prebuilt @node-llama-cpp/* binary is missing under CI=true');
  },
);

describe.skipIf(llama === undefined)(
  "schemas compiled by node-llama-cpp's grammar compiler",
  () => {
    /** The largest `{n,m}` repetition a GBNF text uses. */
    const largestRepetition = (gbnf: string) =>
      Math.max(0, ...[...gbnf.matchAll(/\{(\d+),?(\d*)\}/g)].map((m) => Number(m[2] || m[1])));

    it.each([...tools, ...finishingTools].map((tool) => [tool.name, tool] as const))(
      'compiles %s with no large repetition and only its declared keys',
      async (_name, tool) => {
        const grammar = await llama!.createGrammarForJsonSchema(
          toGrammarSchema(tool.inputSchema) as never,
        );
        expect(largestRepetition(grammar.grammar)).toBeLessThanOrEqual(MAX_WIRE_REPETITION);
        // The compiler's own validator: a key the tool does not declare is refused.
        const declared = Object.keys(
          (tool.inputSchema as { properties?: Record<string, unknown> }).properties ?? {},
        );
        expect(declared.length).toBeGreaterThan(0);
        expect(() => grammar.parse(JSON.stringify({ undeclared_key: 1 }))).toThrow();
      },
    );

    it('compiles the envelope of every built-in tool plus each stage finishing tool', async () => {
      for (const finishing of finishingTools) {
        const grammar = await llama!.createGrammarForJsonSchema(
          toolCallEnvelopeSchema([...tools, finishing]) as never,
        );
        expect(grammar.grammar).toContain(`\\"${finishing.name}\\"`);
      }
    });

    it('accepts a call that leaves optional keys out, and refuses one with an extra key', async () => {
      const grep = tools.find((tool) => tool.name === 'grep')!;
      const grammar = await llama!.createGrammarForJsonSchema(
        toGrammarSchema(grep.inputSchema) as never,
      );
      expect(grammar.parse('{"pattern": "median"}')).toEqual({ pattern: 'median' });
      expect(grammar.parse('{"pattern": "median", "ignoreCase": true}')).toEqual({
        pattern: 'median',
        ignoreCase: true,
      });
      expect(() => grammar.parse('{"pattern": "median", "momentum": true}')).toThrow();
    });
  },
);
