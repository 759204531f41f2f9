import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { parseWorkspacePolicy } from '../../policies/workspace-policy.js';
import { builtinTools } from '../../tools/builtin-tools.js';
import { defineTool, type ToolDefinition } from '../../tools/tool-contract.js';
import { assessToolCall, pathsToObserve } from '../assess-tool-call.js';
import { createAssessmentPolicy } from '../default-rules.js';
import type { ToolCallRule, ToolSessionView } from '../tool-call-rule.js';
import type { WorldObservation } from '../toolintent-events.js';
import { layeredRecord } from '../../base/layered-record.js';

const WS = '/w';
const HASH_A = 'a'.repeat(64);
const HASH_B = 'b'.repeat(64);
const file = (path: string, overrides: Partial<WorldObservation> = {}): WorldObservation => ({
  path,
  kind: 'file',
  realPath: path,
  linkTarget: null,
  sha256: HASH_A,
  size: 10,
  mtimeMs: 1,
  linkCount: 1,
  ...overrides,
});
const missing = (path: string): WorldObservation => ({
  path,
  kind: 'missing',
  realPath: path,
  linkTarget: null,
  sha256: null,
  size: null,
  mtimeMs: null,
  linkCount: null,
});

function view(
  observations: WorldObservation[],
  {
    reads = {},
    ...extra
  }: Partial<Omit<ToolSessionView, 'reads'>> & {
    reads?: Record<string, string>;
  } = {},
): ToolSessionView {
  return {
    roots: { workspaceRoot: WS, homeDirectory: '/home/u' },
    observations: layeredRecord(Object.fromEntries(observations.map((o) => [o.path, o]))),
    reads: layeredRecord(reads),
    egressAllowlist: [],
    writeManifest: null,
    ...extra,
  };
}
const tool = (name: string) => builtinTools.find((t) => t.name === name)!;
const policy = createAssessmentPolicy(
  parseWorkspacePolicy({ writeScope: [['src/**', 'docs/**']] }),
);
const unflaggedPolicy = createAssessmentPolicy(
  parseWorkspacePolicy({ writeScope: [['src/**', 'docs/**']] }),
  undefined,
  { flags: new Set() },
);
const assess = (v: ToolSessionView, name: string | ToolDefinition, args: unknown, p = policy) =>
  assessToolCall(p, v, { callId: 'c', tool: typeof name === 'string' ? tool(name) : name, args });
const codes = (a: ReturnType<typeof assess>, rule: string) =>
  a.findings.filter((f) => f.ruleId === rule).map((f) => `${f.severity}:${f.code}`);

describe('path-containment', () => {
  it('allows a write inside, asks for a read outside, blocks a write outside', () => {
    expect(
      codes(
        assess(view([missing('/w/src/n.ts')]), 'write_file', { path: 'src/n.ts', content: '' }),
        'path-containment',
      ),
    ).toEqual([]);
    expect(
      codes(
        assess(view([file('/etc/hosts')]), 'read_file', { path: '/etc/hosts' }),
        'path-containment',
      ),
    ).toEqual(['ask:read_outside_workspace']);
    expect(
      codes(
        assess(view([missing('/tmp/x')]), 'write_file', { path: '/tmp/x', content: '' }),
        'path-containment',
      ),
    ).toEqual(['block:outside_workspace']);
  });

  it('judges the observed real path, and blocks when no observation was recorded', () => {
    expect(
      codes(
        assess(
          view([
            missing('/w/src/l').realPath === ''
              ? missing('/x')
              : { ...missing('/w/src/l'), realPath: '/etc/l' },
          ]),
          'write_file',
          { path: 'src/l', content: '' },
        ),
        'path-containment',
      ),
    ).toEqual(['block:symlink_escape']);
    expect(
      codes(assess(view([]), 'write_file', { path: 'src/n.ts', content: '' }), 'path-containment'),
    ).toEqual(['block:observation_missing']);
  });
});

describe('reference-exists', () => {
  it('allows an existing source, asks for a special file (unflagged), blocks a missing one', () => {
    expect(
      codes(
        assess(view([file('/w/src/a.ts')]), 'read_file', { path: 'src/a.ts' }),
        'reference-exists',
      ),
    ).toEqual([]);
    expect(
      codes(
        assess(
          view([file('/w/src/fifo', { kind: 'other', sha256: null })]),
          'read_file',
          { path: 'src/fifo' },
          unflaggedPolicy,
        ),
        'reference-exists',
      ),
    ).toEqual(['ask:special_file']);
    expect(
      codes(
        assess(view([missing('/w/src/a.ts')]), 'read_file', { path: 'src/a.ts' }),
        'reference-exists',
      ),
    ).toEqual(['block:missing_reference']);
    expect(
      codes(
        assess(view([missing('/w/src/a.ts')]), 'write_file', { path: 'src/a.ts', content: '' }),
        'reference-exists',
      ),
    ).toEqual([]);
  });
});

describe('target-kind (flagged)', () => {
  const unflagged = createAssessmentPolicy(parseWorkspacePolicy({}), undefined, {
    flags: new Set(),
  });
  const fifo = file('/w/src/fifo', { kind: 'other', sha256: null });
  const moving: WorldObservation = {
    ...missing('/w/src/d/x.ts'),
    kind: 'other',
    changedDuringObservation: true,
  };

  it('blocks a target that changed during observation; without the flag it is judged as before', () => {
    const args = { path: 'src/d/x.ts', content: '' };
    expect(codes(assess(view([moving]), 'write_file', args), 'target-kind')).toEqual([
      'block:changed_during_observation',
    ]);
    expect(codes(assess(view([moving]), 'write_file', args, unflagged), 'target-kind')).toEqual([]);
  });

  it('blocks a file tool on a FIFO, socket or device; exec and unflagged sessions still ask', () => {
    expect(codes(assess(view([fifo]), 'read_file', { path: 'src/fifo' }), 'target-kind')).toEqual([
      'block:special_file',
    ]);
    expect(
      codes(assess(view([fifo]), 'read_file', { path: 'src/fifo' }, unflagged), 'reference-exists'),
    ).toEqual(['ask:special_file']);
    expect(
      codes(assess(view([fifo]), 'read_file', { path: 'src/fifo' }, unflagged), 'target-kind'),
    ).toEqual([]);
    expect(
      codes(assess(view([fifo]), 'read_file', { path: 'src/fifo' }), 'reference-exists'),
    ).toEqual([]);
  });

  it('blocks a write whose target is a folder, by observation or by a trailing slash', () => {
    const folder = file('/w/src', { kind: 'directory', sha256: null, linkCount: null });
    expect(
      codes(assess(view([folder]), 'write_file', { path: 'src', content: 'x' }), 'target-kind'),
    ).toEqual(['block:write_to_folder']);
    expect(
      codes(
        assess(view([missing('/w/src/new')]), 'write_file', { path: 'src/new/', content: 'x' }),
        'target-kind',
      ),
    ).toEqual(['block:write_to_folder']);
    expect(
      codes(
        assess(view([folder]), 'write_file', { path: 'src', content: 'x' }, unflagged),
        'target-kind',
      ),
    ).toEqual([]);
  });

  it('blocks a path with a lone surrogate, not one with a proper pair', () => {
    const lone = 'src/\ud800.ts';
    expect(
      codes(
        assess(view([missing('/w/src/\ud800.ts')]), 'write_file', { path: lone, content: '' }),
        'target-kind',
      ),
    ).toEqual(['block:lone_surrogate']);
    expect(
      codes(
        assess(view([missing('/w/src/\ud83d\ude00.ts')]), 'write_file', {
          path: 'src/\ud83d\ude00.ts',
          content: '',
        }),
        'target-kind',
      ),
    ).toEqual([]);
  });
});

describe('read-before-write', () => {
  it('allows after a read, asks for an unhashed file, blocks an unread file', () => {
    expect(
      codes(
        assess(view([file('/w/src/a.ts')], { reads: { '/w/src/a.ts': HASH_A } }), 'write_file', {
          path: 'src/a.ts',
          content: '',
        }),
        'read-before-write',
      ),
    ).toEqual([]);
    expect(
      codes(
        assess(view([file('/w/src/big.bin', { sha256: null })]), 'write_file', {
          path: 'src/big.bin',
          content: '',
        }),
        'read-before-write',
      ),
    ).toEqual(['ask:unread_unhashed']);
    expect(
      codes(
        assess(view([file('/w/src/a.ts')]), 'write_file', { path: 'src/a.ts', content: '' }),
        'read-before-write',
      ),
    ).toEqual(['block:not_read']);
  });

  it('exempts CONTENT_FROM_SOURCE only, never merely a SOURCE_PATH argument', () => {
    const observations = [file('/w/src/a.ts'), file('/w/src/b.ts')];
    expect(
      codes(
        assess(view(observations), 'copy_file', { source: 'src/a.ts', destination: 'src/b.ts' }),
        'read-before-write',
      ),
    ).toEqual([]);
    const transform = defineTool({
      name: 'transform_file',
      description: 'model-controlled transform of a source into a destination',
      argsSchema: z.strictObject({
        source: z.string(),
        destination: z.string(),
        template: z.string(),
      }),
      paramRoles: { source: 'SOURCE_PATH', destination: 'PATH' },
      capabilities: ['WRITES_FILES'],
      defaultTier: 'T1',
    });
    expect(
      codes(
        assess(view(observations), transform, {
          source: 'src/a.ts',
          destination: 'src/b.ts',
          template: 'x',
        }),
        'read-before-write',
      ),
    ).toEqual(['block:not_read']);
  });
});

describe('stale-write', () => {
  it('allows an unchanged file, asks when it became a directory, blocks when its content changed', () => {
    const reads = { reads: { '/w/src/a.ts': HASH_A } };
    expect(
      codes(
        assess(view([file('/w/src/a.ts')], reads), 'edit_file', {
          path: 'src/a.ts',
          search: 'x',
          replace: 'y',
        }),
        'stale-write',
      ),
    ).toEqual([]);
    expect(
      codes(
        assess(
          view([file('/w/src/a.ts', { kind: 'directory', sha256: null })], reads),
          'write_file',
          { path: 'src/a.ts', content: '' },
        ),
        'stale-write',
      ),
    ).toEqual(['ask:replaced']);
    expect(
      codes(
        assess(view([file('/w/src/a.ts', { sha256: HASH_B })], reads), 'write_file', {
          path: 'src/a.ts',
          content: '',
        }),
        'stale-write',
      ),
    ).toEqual(['block:stale']);
  });

  it('records the hash at read and the hash now (flagged), and neither without the flag', () => {
    const reads = { reads: { '/w/src/a.ts': HASH_A } };
    const stale = view([file('/w/src/a.ts', { sha256: HASH_B })], reads);
    const args = { path: 'src/a.ts', content: '' };
    const of = (a: ReturnType<typeof assess>) => a.findings.find((f) => f.code === 'stale');
    expect(of(assess(stale, 'write_file', args))?.hashes).toEqual({ atRead: HASH_A, now: HASH_B });
    expect(of(assess(stale, 'write_file', args, unflaggedPolicy))).not.toHaveProperty('hashes');
  });
});

describe('manifest-containment and write-scope', () => {
  it('manifest: skipped without a manifest, allows entries, blocks others', () => {
    const observations = [missing('/w/src/a.ts')];
    const call = { path: 'src/a.ts', content: '' };
    expect(codes(assess(view(observations), 'write_file', call), 'manifest-containment')).toEqual(
      [],
    );
    expect(
      codes(
        assess(view(observations, { writeManifest: ['src/*.ts'] }), 'write_file', call),
        'manifest-containment',
      ),
    ).toEqual([]);
    expect(
      codes(
        assess(view(observations, { writeManifest: ['docs/**'] }), 'write_file', call),
        'manifest-containment',
      ),
    ).toEqual(['block:outside_manifest']);
  });

  it('write scope: allows inside, blocks outside', () => {
    expect(
      codes(
        assess(view([missing('/w/docs/a.md')]), 'write_file', { path: 'docs/a.md', content: '' }),
        'write-scope',
      ),
    ).toEqual([]);
    expect(
      codes(
        assess(view([missing('/w/build/a.js')]), 'write_file', { path: 'build/a.js', content: '' }),
        'write-scope',
      ),
    ).toEqual(['block:outside_write_scope']);
  });
});

describe('network-host', () => {
  it('allows an allowlisted host at T3, blocks anything else', () => {
    const allowed = assess(view([], { egressAllowlist: ['api.example.com'] }), 'http_fetch', {
      url: 'https://api.example.com/v1',
    });
    expect([allowed.verdict, allowed.tier]).toEqual(['ALLOW', 'T3']);
    expect(
      codes(assess(view([]), 'http_fetch', { url: 'https://api.example.com/v1' }), 'network-host'),
    ).toEqual(['block:egress_denied']);
  });
});

describe('exec-interpreter', () => {
  const execView = view([]);
  // Sessions recorded before sandbox-containment (no flags) keep this judgement.
  const legacy = createAssessmentPolicy(
    parseWorkspacePolicy({ writeScope: [['src/**', 'docs/**']] }),
    undefined,
    { flags: new Set() },
  );
  it('allows allowlisted pipelines, asks for network-touching git, blocks the rest', () => {
    const ok = assess(execView, 'exec', { command: 'git diff --stat | tail -n 1' }, legacy);
    expect([ok.verdict, ok.tier]).toEqual(['ALLOW', 'T2']);
    expect(
      codes(
        assess(execView, 'exec', { command: 'git push origin main' }, legacy),
        'exec-interpreter',
      ),
    ).toEqual(['ask:git_network']);
    expect(codes(assess(execView, 'exec', { argv: ['bash'] }, legacy), 'exec-interpreter')).toEqual(
      ['block:program_not_allowed', 'block:interactive_shell'],
    );
  });

  it('with sandbox-containment, a program off the list is asked and an interactive shell stays final', () => {
    expect(codes(assess(execView, 'exec', { argv: ['bash'] }), 'exec-interpreter')).toEqual([
      'ask:program_not_allowed',
      'block:interactive_shell',
      'info:programs',
    ]);
  });

  it('judges the same line identically whether it arrives as argv or inside sh -c', () => {
    const p = createAssessmentPolicy(
      parseWorkspacePolicy({ allowedExecutables: ['sh', 'ls', 'curl'] }),
    );
    const inner = assess(execView, 'exec', { command: 'ls; curl http://x.example' }, p);
    const wrapped = assess(
      execView,
      'exec',
      { argv: ['sh', '-c', 'ls; curl http://x.example'] },
      p,
    );
    expect(wrapped.findings.filter((f) => f.code !== 'programs')).toEqual(
      inner.findings.filter((f) => f.code !== 'programs'),
    );
  });
});

describe('the assessor', () => {
  it('runs only registered rules: new rules are registered in the policy, not written into the assessor', () => {
    const none = createAssessmentPolicy(parseWorkspacePolicy({}), []);
    expect(
      assess(view([missing('/tmp/x')]), 'write_file', { path: '/tmp/x', content: '' }, none)
        .verdict,
    ).toBe('ALLOW');
    const custom: ToolCallRule = {
      id: 'no-fridays',
      appliesTo: () => true,
      evaluate: () => [
        {
          ruleId: 'no-fridays',
          severity: 'ask',
          code: 'friday',
          message: 'it is Friday',
          tier: 'T2',
        },
      ],
    };
    const withCustom = createAssessmentPolicy(parseWorkspacePolicy({}), [custom]);
    expect(assess(view([]), 'read_file', { path: 'src/a.ts' }, withCustom)).toMatchObject({
      verdict: 'ASK',
      tier: 'T2',
      risk: 'medium',
    });
    expect(() => createAssessmentPolicy(parseWorkspacePolicy({}), [custom, custom])).toThrow(
      /twice/,
    );
  });

  it('applies tier overrides, which only raise a tool tier', () => {
    const p = createAssessmentPolicy(
      parseWorkspacePolicy({ tierOverrides: { read_file: 'T2', write_file: 'T0' } }),
    );
    expect(assess(view([file('/w/src/a.ts')]), 'read_file', { path: 'src/a.ts' }, p).tier).toBe(
      'T2',
    );
    expect(
      assess(view([missing('/w/src/n.ts')]), 'write_file', { path: 'src/n.ts', content: '' }, p)
        .tier,
    ).toBe('T1');
  });

  it('blocks arguments that fail the schema, and lists the paths the probe must observe', () => {
    expect(assess(view([]), 'read_file', { path: 3 })).toMatchObject({
      verdict: 'BLOCK',
      risk: 'critical',
    });
    expect(
      pathsToObserve(policy, view([]), {
        callId: 'c',
        tool: tool('copy_file'),
        args: { source: '~/a', destination: 'b/../c' },
      }),
    ).toEqual(['/home/u/a', '/w/c']);
    expect(
      pathsToObserve(policy, view([]), {
        callId: 'c',
        tool: tool('exec'),
        args: { command: 'sort < in.txt > out.txt', cwd: 'src' },
      }),
    ).toEqual(['/w/src', '/w/src/in.txt', '/w/src/out.txt']);
  });

  it('sniffs path-like strings for a tool that declares no roles', () => {
    const undeclared = defineTool({
      name: 'mystery',
      description: 'declares nothing',
      argsSchema: z.strictObject({ target: z.string() }),
      paramRoles: {},
      capabilities: ['WRITES_FILES'],
      defaultTier: 'T1',
    });
    expect(
      codes(
        assess(view([missing('/etc/evil')]), undeclared, { target: '/etc/evil' }),
        'path-containment',
      ),
    ).toEqual(['block:outside_workspace']);
  });
});
