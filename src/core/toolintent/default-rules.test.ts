import { describe, expect, it } from 'vitest';
import { parseWorkspacePolicy } from '../policies/workspace-policy.js';
import { builtinTools } from '../tools/builtin-tools.js';
import { assessToolCall } from './assess-tool-call.js';
import {
  createAssessmentPolicy,
  defaultToolCallRules,
  unsandboxedExecRule,
} from './default-rules.js';
import type { ToolSessionView } from './tool-call-rule.js';
import { layeredRecord } from '../base/layered-record.js';

const view: ToolSessionView = {
  roots: { workspaceRoot: '/w', homeDirectory: '/home/u' },
  observations: layeredRecord(),
  reads: layeredRecord(),
  egressAllowlist: [],
  writeManifest: null,
};
const tool = (name: string) => builtinTools.find((candidate) => candidate.name === name)!;
const assessExec = (policy: ReturnType<typeof createAssessmentPolicy>) =>
  assessToolCall(policy, view, { callId: 'c', tool: tool('exec'), args: { argv: ['true'] } });

describe('createAssessmentPolicy with a sandbox kind', () => {
  it('raises exec to T3 without a sandbox, and says why in the assessment', () => {
    const policy = createAssessmentPolicy(parseWorkspacePolicy({}), defaultToolCallRules, {
      sandbox: 'none',
    });
    expect(policy.sandbox).toBe('none');
    const assessment = assessExec(policy);
    expect(assessment).toMatchObject({ verdict: 'ALLOW', tier: 'T3', risk: 'high' });
    expect(assessment.findings.filter((f) => f.code !== 'programs')).toEqual([
      expect.objectContaining({
        ruleId: 'unsandboxed-exec',
        severity: 'info',
        code: 'no_sandbox',
        tier: 'T3',
      }),
    ]);
  });

  it('raises to the tier the policy configures for unsandboxed execution', () => {
    const policy = createAssessmentPolicy(
      parseWorkspacePolicy({ unsandboxedExecTier: 'T2' }),
      defaultToolCallRules,
      { sandbox: 'none' },
    );
    expect(assessExec(policy).tier).toBe('T2');
  });

  it('leaves exec at its own tier under bubblewrap, and when no kind was given', () => {
    for (const options of [{ sandbox: 'bubblewrap' as const }, {}]) {
      const policy = createAssessmentPolicy(
        parseWorkspacePolicy({}),
        defaultToolCallRules,
        options,
      );
      expect(policy.rules).not.toContain(unsandboxedExecRule);
      // The only finding is the audit record of the programs run.
      expect(assessExec(policy)).toMatchObject({ tier: 'T2' });
      expect(assessExec(policy).findings.map((f) => `${f.severity}:${f.code}`)).toEqual([
        'info:programs',
      ]);
    }
    expect(createAssessmentPolicy(parseWorkspacePolicy({}))).not.toHaveProperty('sandbox');
  });

  it('touches only tools that start processes', () => {
    const policy = createAssessmentPolicy(parseWorkspacePolicy({}), defaultToolCallRules, {
      sandbox: 'none',
    });
    const read = assessToolCall(policy, view, {
      callId: 'c',
      tool: tool('list_dir'),
      args: { path: '.' },
    });
    expect(read.findings.some((item) => item.ruleId === 'unsandboxed-exec')).toBe(false);
  });
});
