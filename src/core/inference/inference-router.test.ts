import { describe, expect, it } from 'vitest';
import type { ModelProfileInput } from './model-profile.js';
import {
  createInferenceRouter,
  InvalidModelProfilesError,
  parseModelProfiles,
} from './inference-router.js';

const profiles: ModelProfileInput[] = [
  {
    id: 'small-chat',
    provider: 'local',
    model: 'qwen-0.5b',
    capabilities: ['json_output'],
    contextWindow: 8_000,
  },
  {
    id: 'tool-model',
    provider: 'openai-compatible:vllm',
    model: 'qwen-32b',
    capabilities: ['tool_calling', 'json_output'],
    contextWindow: 32_000,
  },
  {
    id: 'big-tool-model',
    provider: 'anthropic',
    model: 'claude',
    capabilities: ['tool_calling', 'json_output', 'long_context', 'vision'],
    contextWindow: 200_000,
    priority: 5,
  },
  {
    id: 'cheap-tool-model',
    provider: 'anthropic',
    model: 'claude-haiku',
    capabilities: ['tool_calling'],
    contextWindow: 200_000,
  },
];

describe('InferenceRouter', () => {
  const router = createInferenceRouter({ profiles });

  it('picks the first configured profile when nothing is required and priorities tie', () => {
    const narrowRouter = createInferenceRouter({ profiles: [profiles[0]!, profiles[1]!] });
    const decision = narrowRouter.route({
      stageId: 'plan',
      requiredCapabilities: [],
      allowedTools: [],
    });
    expect(decision.ok && decision.profile.id).toBe('small-chat');
  });

  it('adds tool_calling when the stage allows tools (spec 001)', () => {
    const narrowRouter = createInferenceRouter({ profiles: [profiles[0]!, profiles[1]!] });
    const decision = narrowRouter.route({
      stageId: 'implement',
      requiredCapabilities: ['json_output'],
      allowedTools: ['write_file'],
    });
    expect(decision).toMatchObject({
      ok: true,
      profile: { id: 'tool-model' },
      requiredCapabilities: ['json_output', 'tool_calling'],
    });
  });

  it('prefers the higher priority among eligible profiles', () => {
    const decision = router.route({
      stageId: 'implement',
      requiredCapabilities: [],
      allowedTools: ['x'],
    });
    expect(decision.ok && decision.profile.id).toBe('big-tool-model');
  });

  it('respects the context window', () => {
    const decision = router.route({
      stageId: 's',
      requiredCapabilities: ['json_output'],
      allowedTools: [],
      minContextTokens: 100_000,
    });
    expect(decision.ok && decision.profile.id).toBe('big-tool-model');
  });

  it('reports why every profile was rejected when none fits', () => {
    const decision = router.route({
      stageId: 'look',
      requiredCapabilities: ['vision', 'reasoning'],
      allowedTools: [],
    });
    expect(decision.ok).toBe(false);
    if (decision.ok) return;
    expect(decision.stageId).toBe('look');
    expect(decision.rejections.map((r) => [r.profileId, r.missingCapabilities])).toEqual([
      ['small-chat', ['reasoning', 'vision']],
      ['tool-model', ['reasoning', 'vision']],
      ['big-tool-model', ['reasoning']],
      ['cheap-tool-model', ['reasoning', 'vision']],
    ]);
  });

  it('honours a pinned profile only if it satisfies the requirements', () => {
    expect(
      router.route({
        stageId: 's',
        requiredCapabilities: [],
        allowedTools: ['x'],
        preferredProfileId: 'tool-model',
      }),
    ).toMatchObject({ ok: true, profile: { id: 'tool-model' } });
    expect(
      router.route({
        stageId: 's',
        requiredCapabilities: [],
        allowedTools: ['x'],
        preferredProfileId: 'small-chat',
      }).ok,
    ).toBe(false);
  });

  it('rejects bad configuration with a named error', () => {
    expect(() => parseModelProfiles([{ ...profiles[0]!, capabilities: ['telepathy'] }])).toThrow(
      InvalidModelProfilesError,
    );
    expect(() => parseModelProfiles([profiles[0]!, profiles[0]!])).toThrow(
      /duplicate model profile id "small-chat"/,
    );
    expect(() => parseModelProfiles('models')).toThrow(InvalidModelProfilesError);
  });
});
