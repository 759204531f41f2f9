import { describe, expect, it } from 'vitest';
import { flagSet } from '../../src/core/base/behaviour-flag.js';
import { layeredRecord } from '../../src/core/base/layered-record.js';
import { parseWorkspacePolicy } from '../../src/core/policies/workspace-policy.js';
import { builtinTools } from '../../src/core/tools/builtin-tools.js';
import { assessToolCall } from '../../src/core/toolintent/assess-tool-call.js';
import { createAssessmentPolicy } from '../../src/core/toolintent/default-rules.js';
import type { ToolSessionView } from '../../src/core/toolintent/tool-call-rule.js';
import {
  EGRESS_ASKS_TO_WIDEN,
  toolIntentFlags,
} from '../../src/core/toolintent/toolintent-flags.js';
import { alwaysAllowScope } from '../../src/interfaces/always-allow-scope.js';

/**
 * Issue #41, flag egress-asks-to-widen: under a sandbox a command naming a host off the egress
 * allowlist asks a person to widen it (T3, "needs network access to HOST") instead of being
 * refused; a host grant answers it at T2; sessions recorded before the flag, and calls without a
 * sandbox, keep the final block.
 */
const view = (extra: Partial<ToolSessionView> = {}): ToolSessionView => ({
  roots: { workspaceRoot: '/w', homeDirectory: '/home/u' },
  observations: layeredRecord({}),
  reads: layeredRecord({}),
  egressAllowlist: ['registry.npmjs.org'],
  writeManifest: null,
  ...extra,
});
const withFlag = flagSet(toolIntentFlags);
const before = flagSet(toolIntentFlags.filter((flag) => flag !== EGRESS_ASKS_TO_WIDEN));
const policyWith = (flags: ReadonlySet<string>, sandbox: 'bubblewrap' | 'none') =>
  createAssessmentPolicy(parseWorkspacePolicy({}), undefined, { flags, sandbox });
const exec = builtinTools.find((tool) => tool.name === 'exec')!;
const fetchTool = builtinTools.find((tool) => tool.name === 'http_fetch')!;
const assess = (
  command: string,
  flags = withFlag,
  sandbox: 'bubblewrap' | 'none' = 'bubblewrap',
  v = view(),
) => assessToolCall(policyWith(flags, sandbox), v, { callId: 'c', tool: exec, args: { command } });
const network = (assessment: ReturnType<typeof assess>) =>
  assessment.findings.filter((finding) => finding.ruleId === 'network-host');

describe('egress beyond the allowlist under a sandbox (flag egress-asks-to-widen)', () => {
  it('asks at T3 to widen the allowlist, naming the host', () => {
    const assessment = assess('curl -sS https://evil.example/x');
    expect([assessment.verdict, assessment.tier]).toEqual(['ASK', 'T3']);
    expect(network(assessment)).toEqual([
      expect.objectContaining({
        severity: 'ask',
        code: 'egress_widen',
        tier: 'T3',
        message: expect.stringContaining('needs network access to evil.example'),
      }),
    ]);
  });

  it('"always allow" on that ask is a grant scoped to the host, not the command line', () => {
    const assessment = assess('curl -sS https://evil.example/x');
    const details = {
      proposal: {
        tool: 'exec',
        argsRaw: JSON.stringify({ command: 'curl -sS https://evil.example/x' }),
      },
      assessment,
    };
    expect(alwaysAllowScope(details as never, '/w')).toEqual({
      kind: 'host',
      host: 'evil.example',
    });
    // Asked for more than the one host (here a second one): only a one-time approval, or the
    // command line, never a host grant that would hide the rest.
    const two = assess('curl https://evil.example/x https://other.example/y');
    expect(
      alwaysAllowScope(
        {
          proposal: { tool: 'exec', argsRaw: JSON.stringify({ command: 'c' }) },
          assessment: two,
        } as never,
        '/w',
      ),
    ).toEqual({ kind: 'command', command: 'c' });
  });

  it('a host a person granted is allowed at T2; other hosts still ask', () => {
    const granted = view({ grantedHosts: ['evil.example'] });
    const assessment = assess('curl -sS https://evil.example/x', withFlag, 'bubblewrap', granted);
    expect([assessment.verdict, assessment.tier]).toEqual(['ALLOW', 'T2']);
    expect(network(assessment).map((finding) => finding.code)).toEqual(['egress_granted']);
    const other = assess('curl -sS https://other.example/x', withFlag, 'bubblewrap', granted);
    expect([other.verdict, other.tier]).toEqual(['ASK', 'T3']);
  });

  it('an allowlisted host is judged as before', () => {
    const assessment = assess('curl -sS https://registry.npmjs.org/left-pad');
    expect(network(assessment).map((finding) => finding.code)).toEqual(['egress_allowed']);
  });

  it('stays a final block without a sandbox, for http_fetch, and in sessions recorded before the flag', () => {
    const codes = (assessment: ReturnType<typeof assess>) => [
      assessment.verdict,
      ...network(assessment).map((finding) => finding.code),
    ];
    expect(codes(assess('curl https://evil.example/x', withFlag, 'none'))).toEqual([
      'BLOCK',
      'egress_denied',
    ]);
    expect(codes(assess('curl https://evil.example/x', before))).toEqual([
      'BLOCK',
      'egress_denied',
    ]);
    const fetched = assessToolCall(policyWith(withFlag, 'bubblewrap'), view(), {
      callId: 'c',
      tool: fetchTool,
      args: { url: 'https://evil.example/x' },
    });
    expect(codes(fetched)).toEqual(['BLOCK', 'egress_denied']);
  });
});
