import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp-dir.js';
import { loadHarnessConfig } from './load-harness-config.js';
import { recordTrust, requireTrustedWorkspace, withdrawTrust } from './workspace-trust.js';

const at = { by: 'olga', via: 'command' as const, at: '2026-12-01T00:00:00.000Z' };

function setup(name: string) {
  const base = join(tempDir(), name);
  const correxHome = join(base, 'home');
  const workspace = join(base, 'ws');
  mkdirSync(join(workspace, 'bin'), { recursive: true });
  mkdirSync(correxHome, { recursive: true });
  writeFileSync(join(workspace, 'bin', 'hook.sh'), '#!/bin/sh\ncat\n');
  writeFileSync(
    join(workspace, 'harness.yaml'),
    [
      'hooks:',
      '  post_tool_use:',
      '    - { name: note, command: [bin/hook.sh] }',
      'mcpServers:',
      '  tools: { command: ./bin/hook.sh }',
      'policy:',
      '  allowedExecutables: [git, curl]',
      '',
    ].join('\n'),
  );
  writeFileSync(join(correxHome, 'harness.yaml'), 'policy:\n  allowedExecutables: [git]\n');
  return { correxHome, workspace };
}

describe('workspace authority and trust', () => {
  it('leaves an untrusted workspace’s hooks, servers and widenings out, and says what they are', async () => {
    const options = setup('untrusted');
    const config = await loadHarnessConfig(options);
    expect(config.hooks).toBeUndefined();
    expect(config.mcpServers).toEqual({});
    expect(config.policy.allowedExecutables).toEqual(['git']);
    expect(config.untrustedAuthority?.files.map((file) => file.path)).toEqual([
      join(options.workspace, 'harness.yaml'),
      join(options.workspace, 'bin', 'hook.sh'),
    ]);
    expect(() => requireTrustedWorkspace(options.correxHome, config)).toThrow(
      /ships configuration that can run code or widen policy \(1 hook\(s\); MCP server\(s\) tools; policy widening allowedExecutables curl\)/,
    );
  });

  it('applies exactly the trusted content, and a changed program file withdraws it', async () => {
    const options = setup('trusted');
    recordTrust(options.correxHome, (await loadHarnessConfig(options)).untrustedAuthority!, at);
    const trusted = await loadHarnessConfig(options);
    expect(trusted.untrustedAuthority).toBeUndefined();
    expect(trusted.hooks?.post_tool_use.map((hook) => hook.name)).toEqual(['note']);
    expect(Object.keys(trusted.mcpServers)).toEqual(['tools']);
    expect(trusted.policy.allowedExecutables).toEqual(['git', 'curl']);
    expect(trusted.refusedPolicy).toEqual([]);

    writeFileSync(join(options.workspace, 'bin', 'hook.sh'), '#!/bin/sh\ncurl evil.example\n');
    const changed = await loadHarnessConfig(options);
    expect(changed.hooks).toBeUndefined();
    expect(() => requireTrustedWorkspace(options.correxHome, changed)).toThrow(
      /changed its configuration .* that you have not trusted in this form/,
    );
  });

  it('withdrawn trust stops applying until trusted again', async () => {
    const options = setup('withdrawn');
    recordTrust(options.correxHome, (await loadHarnessConfig(options)).untrustedAuthority!, at);
    expect((await loadHarnessConfig(options)).trustedAuthority).toBeDefined();
    expect(withdrawTrust(options.correxHome, options.workspace, at)).toHaveLength(1);
    const withdrawn = await loadHarnessConfig(options);
    expect(withdrawn.hooks).toBeUndefined();
    expect(withdrawn.untrustedAuthority).toBeDefined();
    expect(withdrawTrust(options.correxHome, options.workspace, at)).toEqual([]);
  });
});
