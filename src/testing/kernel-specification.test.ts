import { describe, expect, it } from 'vitest';
import { createInferenceRouter } from '../core/inference/inference-router.js';
import { createKernelConfig } from '../core/kernel/index.js';
import { parseWorkspacePolicy } from '../core/policies/workspace-policy.js';
import { createAssessmentPolicy } from '../core/toolintent/default-rules.js';
import { builtinTools } from '../core/tools/builtin-tools.js';
import { defaultCodingWorkflow } from '../core/transitions/default-coding-workflow.js';
import { createDefaultValidatorRegistry } from '../core/validation/default-validators.js';
import { kernelSpecification, sessionStart, SpecificationError } from './kernel-specification.js';

const config = createKernelConfig({
  workflow: defaultCodingWorkflow,
  tools: builtinTools,
  policy: createAssessmentPolicy(parseWorkspacePolicy({})),
  router: createInferenceRouter({
    profiles: [
      { id: 'm', provider: 'p', model: 'x', capabilities: ['tool_calling'], contextWindow: 8_000 },
    ],
  }),
  validators: createDefaultValidatorRegistry(),
  homeDirectory: '/home/dev',
  // The helper is under test, not the session-start behaviours: a versioned session without flags.
  behaviour: { kernelVersion: 2, flags: new Set() },
});

describe('kernelSpecification', () => {
  const start = sessionStart(config, { task: 't', workspace: '/w' });
  const when = () =>
    kernelSpecification(config)
      .given(...start.slice(0, -1))
      .when(start.at(-1)!);

  it('passes when the emitted events and the awaited effect match as subsets', () => {
    expect(() =>
      when()
        .thenEmits([
          { type: 'workflow_started' },
          { type: 'stage_started' },
          { type: 'inference_requested' },
        ])
        .thenAwaits({ type: 'infer' }),
    ).not.toThrow();
  });

  it('fails with both sides shown when an event, the count or the effect differs', () => {
    expect(() => when().thenEmits([{ type: 'workflow_started' }])).toThrow(SpecificationError);
    expect(() =>
      when().thenEmits([
        { type: 'workflow_started' },
        { type: 'stage_started', stageId: 'review' },
        { type: 'inference_requested' },
      ]),
    ).toThrow(/"stageId": "review"[\s\S]*but it emitted[\s\S]*"stageId": "plan"/);
    expect(() => when().thenAwaits({ type: 'probe' })).toThrow(/expected the session to await/);
    expect(() => when().thenIdles()).toThrow(/awaits/);
  });
});
