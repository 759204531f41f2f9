import { describe, expect, it } from 'vitest';
import type { KernelConfig } from '../../../src/core/kernel/index.js';
import { recordedKernelConfig, replaySession } from '../../../src/core/kernel/index.js';
import { assessToolCall } from '../../../src/core/toolintent/assess-tool-call.js';
import { createAssessmentPolicy } from '../../../src/core/toolintent/default-rules.js';
import { finding } from '../../../src/core/toolintent/finding.js';
import { writeScopeRule } from '../../../src/core/toolintent/rules/write-rules.js';
import type { ToolCallRule } from '../../../src/core/toolintent/tool-call-rule.js';
import { parseWorkspacePolicy } from '../../../src/core/policies/workspace-policy.js';
import { writeFileTool } from '../../../src/core/tools/builtin-tools.js';
import { hasCapability } from '../../../src/core/tools/tool-contract.js';
import { nodeSha256 } from '../../../src/infrastructure/system/node-sha256.js';
import { loadCorpusStore, readCorpusManifest } from './session-corpus.js';
import { layeredRecord } from '../../../src/core/base/layered-record.js';

/*
 * Why every behaviour change needs a flag: the same change to a rule (every file write asked at
 * T2 instead of T1), once made outright and once behind a flag, replayed over the frozen corpus.
 */
const STRICTER_WRITES = 'stricter-writes-for-this-test';

function withWriteScope(change: (context: Parameters<ToolCallRule['evaluate']>[0]) => boolean) {
  const changed: ToolCallRule = {
    id: writeScopeRule.id,
    appliesTo: (context) =>
      writeScopeRule.appliesTo(context) || hasCapability(context.tool, 'WRITES_FILES'),
    evaluate: (context) => [
      ...(writeScopeRule.appliesTo(context) ? writeScopeRule.evaluate(context) : []),
      ...(change(context) && hasCapability(context.tool, 'WRITES_FILES')
        ? [finding(writeScopeRule.id, 'ask', 'stricter', 'every write is asked now', 'T2')]
        : []),
    ],
  };
  return (config: KernelConfig): KernelConfig => ({
    ...config,
    policy: {
      ...config.policy,
      rules: config.policy.rules.map((rule) => (rule === writeScopeRule ? changed : rule)),
    },
  });
}

async function replayCorpus(adjust: (config: KernelConfig) => KernelConfig) {
  const diverged: string[] = [];
  for (const entry of readCorpusManifest().sessions) {
    const store = await loadCorpusStore([entry.file]);
    const config = adjust(await recordedKernelConfig(store, entry.sessionId, nodeSha256));
    const report = await replaySession(store, entry.sessionId, config);
    if (!report.ok) diverged.push(entry.file);
    await store.close();
  }
  return diverged;
}

describe('behaviour flags keep recorded sessions replaying', () => {
  it('an unflagged change to a rule makes sessions of the corpus diverge', async () => {
    const diverged = await replayCorpus(withWriteScope(() => true));
    expect(diverged).toContain('happy-path.ndjson');
    expect(diverged.length).toBeGreaterThan(5);
  });

  it('the same change behind a flag replays every session of the corpus', async () => {
    expect(await replayCorpus(withWriteScope((context) => context.flags.has(STRICTER_WRITES)))).toEqual(
      [],
    );
  });

  it('and a session that records the flag gets the new behaviour', () => {
    const rule = withWriteScope((context) => context.flags.has(STRICTER_WRITES));
    const assess = (flags: ReadonlySet<string>) => {
      const base = createAssessmentPolicy(parseWorkspacePolicy({}), undefined, { flags });
      const { policy } = rule({ policy: base } as KernelConfig);
      return assessToolCall(
        policy,
        {
          roots: { workspaceRoot: '/w', homeDirectory: '/home/u' },
          observations: layeredRecord({
            '/w/new.txt': {
              path: '/w/new.txt',
              realPath: '/w/new.txt',
              kind: 'missing',
              sha256: null,
              size: null,
              mtimeMs: null,
              linkTarget: null,
              linkCount: null,
            },
          }),
          reads: layeredRecord(),
          egressAllowlist: [],
          writeManifest: null,
        },
        { callId: 'c1', tool: writeFileTool, args: { path: 'new.txt', content: 'x' } },
      ).tier;
    };
    expect(assess(new Set())).toBe('T1');
    expect(assess(new Set([STRICTER_WRITES]))).toBe('T2');
  });
});
