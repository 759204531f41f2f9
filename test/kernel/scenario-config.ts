import type { SessionBudgets } from '../../src/core/kernel/index.js';
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { z } from 'zod';
import type { InferenceProvider } from '../../src/core/inference/inference-provider.js';
import { createInferenceRouter } from '../../src/core/inference/inference-router.js';
import {
  createKernelConfig,
  type JournalSummaryAuthor,
  type KernelConfig,
  type KernelLimits,
} from '../../src/core/kernel/index.js';
import type { KernelBehaviour } from '../../src/core/kernel/config/behaviour.js';
import {
  parseWorkspacePolicy,
  type WorkspacePolicyInput,
} from '../../src/core/policies/workspace-policy.js';
import type { SandboxKind } from '../../src/core/policies/sandbox-profile.js';
import { createAssessmentPolicy } from '../../src/core/toolintent/default-rules.js';
import { builtinTools } from '../../src/core/tools/builtin-tools.js';
import {
  ChangeArtifactSchema,
  createDefaultCodingWorkflow,
} from '../../src/core/transitions/default-coding-workflow.js';
import { parseWorkflow, type Workflow } from '../../src/core/transitions/workflow.js';
import { createDefaultValidatorRegistry } from '../../src/core/validation/default-validators.js';
import type { ChecksConfig } from '../../src/core/validation/project-check.js';
import {
  createScriptedProvider,
  type ScriptedTurn,
} from '../../src/infrastructure/providers/scripted-provider.js';
import { createToolCallProposal } from '../../src/core/inference/tool-call-arguments.js';

/*
 * What scenario tests and their child processes share: the model profile, the workflows, the
 * kernel configuration and the scripted model. No test-runner imports, so a child process can load it.
 */

export const PROFILE = {
  id: 'scripted',
  provider: 'scripted',
  model: 'scripted-model',
  capabilities: ['tool_calling', 'json_output'] as const,
  contextWindow: 64_000,
  maxOutputTokens: 2_000,
};

/** One `implement` stage with the write tools; success completes, any failure ends it. */
export function implementOnlyWorkflow(
  maxAttempts = 1,
  definitionOfDone?: { checks: { name: string; command: string }[] },
  moreTools: readonly string[] = [],
): Workflow {
  return parseWorkflow(
    {
      id: 'implement-only',
      initialStage: 'implement',
      stages: [
        {
          id: 'implement',
          role: 'implementer',
          instructions: 'Change the workspace as the task says.',
          allowedTools: ['read_file', 'write_file', 'edit_file', 'list_dir', 'exec', ...moreTools],
          capabilities: ['tool_calling'],
          artifact: { kind: 'change', schema: z.toJSONSchema(ChangeArtifactSchema) },
          retry: { maxAttempts, retryOn: ['tool', 'inference', 'provider'] },
          ...(definitionOfDone === undefined ? {} : { definitionOfDone }),
          transitions: [
            { when: { on: 'success' }, end: 'completed' },
            { when: { on: 'failure' }, end: 'failed' },
          ],
        },
      ],
    },
    { source: 'implementOnlyWorkflow' },
  );
}

/** The kernel configuration every scenario uses; replay builds the identical one. */
export function scenarioConfig(
  options: {
    workflow?: Workflow;
    limits?: Partial<KernelLimits>;
    subWorkflows?: readonly Workflow[];
    behaviour?: KernelBehaviour;
    budgets?: SessionBudgets;
    prices?: { inputPerMillion: number; outputPerMillion: number; cachedInputPerMillion?: number };
    /** The workspace policy as harness.yaml would give it; default: all defaults. */
    policy?: WorkspacePolicyInput;
    /** The confinement the scenario's processes run under (absent: not stated). */
    sandbox?: SandboxKind;
    checks?: ChecksConfig;
    journalSummary?: JournalSummaryAuthor;
  } = {},
): KernelConfig {
  return createKernelConfig({
    workflow: options.workflow ?? createDefaultCodingWorkflow(),
    tools: builtinTools,
    policy: createAssessmentPolicy(
      parseWorkspacePolicy(options.policy ?? {}),
      undefined,
      options.sandbox === undefined ? {} : { sandbox: options.sandbox },
    ),
    router: createInferenceRouter({
      profiles: [
        {
          ...PROFILE,
          capabilities: [...PROFILE.capabilities],
          ...(options.prices === undefined ? {} : { prices: options.prices }),
        },
      ],
    }),
    validators: createDefaultValidatorRegistry(),
    homeDirectory: realpathSync(homedir()),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.subWorkflows === undefined ? {} : { subWorkflows: options.subWorkflows }),
    ...(options.behaviour === undefined ? {} : { behaviour: options.behaviour }),
    ...(options.budgets === undefined ? {} : { budgets: options.budgets }),
    ...(options.checks === undefined ? {} : { checks: options.checks }),
    ...(options.journalSummary === undefined ? {} : { journalSummary: options.journalSummary }),
  });
}

/**
 * Scripted turns whose text may name an accepted artifact as `{{artifact:<kind>}}`: the hash is
 * read from the context pack the model was shown, as a model would read it.
 */
export function scriptedModel(
  turns: readonly ScriptedTurn[],
): InferenceProvider & { requests: () => number; request: (index: number) => string } {
  const inner = createScriptedProvider({ turns, name: 'scripted' });
  return {
    name: inner.name,
    requests: () => inner.requests.length,
    request: (index) => (inner.requests[index]?.messages ?? []).map((m) => m.content).join('\n'),
    async infer(request, signal) {
      const result = await inner.infer(request, signal);
      const pack = request.messages.map((message) => message.content).join('\n');
      const fill = (raw: string) =>
        raw.replace(/\{\{artifact:([a-z]+)\}\}/g, (_match, kind: string) => {
          const hashes = [
            ...pack.matchAll(new RegExp(`Accepted ${kind} artifact ([0-9a-f]{64})`, 'g')),
          ];
          return hashes.at(-1)?.[1] ?? 'missing';
        });
      // The answer may be text or, offered a finishing tool, that tool's arguments.
      const toolCalls = result.toolCalls.map((call) =>
        call.argsRaw.includes('{{artifact:')
          ? createToolCallProposal(call.callId, call.name, fill(call.argsRaw))
          : call,
      );
      return { ...result, text: fill(result.text), toolCalls };
    },
  };
}
