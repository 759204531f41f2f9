import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { flagSet } from '../../src/core/base/behaviour-flag.js';
import {
  CONFINEMENT_BY_CONSTRUCTION,
  EXEC_SIBLING_CLASSIFICATION,
  toolIntentFlags,
} from '../../src/core/toolintent/toolintent-flags.js';
import { BENIGN_CALLS } from './benign-calls.js';
import { createPlaneTwoHarness } from './plane-two-harness.js';

/**
 * Issue #17 on a real workspace with the real probe: with flag sandbox-containment the analysis
 * classifies under a sandbox (benign calls real agents make are allowed at T2), asks without one
 * (never blocks them), and keeps the final stops final in both.
 */
// Sessions recorded with sandbox-containment and before confinement-by-construction (issue #41),
// whose behaviour under a sandbox test/security/confined-assessment.test.ts covers.
const ALL_FLAGS = flagSet(toolIntentFlags.filter((flag) => flag !== CONFINEMENT_BY_CONSTRUCTION));
const sandboxed = createPlaneTwoHarness({}, { flags: ALL_FLAGS, sandbox: 'bubblewrap' });
const unsandboxed = createPlaneTwoHarness({}, { flags: ALL_FLAGS, sandbox: 'none' });

beforeAll(() => {
  for (const h of [sandboxed, unsandboxed]) {
    mkdirSync(join(h.workspace, 'src'));
    mkdirSync(join(h.workspace, '.git/hooks'), { recursive: true });
    writeFileSync(join(h.workspace, '.git/config'), '[core]\n');
    writeFileSync(join(h.workspace, 'src/a.py'), 'print(1)\n');
    writeFileSync(join(h.workspace, 'src/ok.test.mjs'), "import test from 'node:test';\n");
  }
});

describe('benign calls under the sandbox (flag sandbox-containment)', () => {
  for (const call of BENIGN_CALLS) {
    it(`allows at T2 or below: ${call.name}`, async () => {
      const session = await sandboxed.newSession();
      const assessment = await sandboxed.assess(session, 'exec', { command: call.command });
      expect(assessment.verdict, JSON.stringify(assessment.findings)).toBe('ALLOW');
      expect(['T0', 'T1', 'T2']).toContain(assessment.tier);
    });
  }

  for (const command of ['mkdir -p build && cd build && ls', 'python3 -m pytest -q', 'pytest -q']) {
    it(`allows at T2 or below: ${command}`, async () => {
      const assessment = await sandboxed.assess(await sandboxed.newSession(), 'exec', { command });
      expect([assessment.verdict, assessment.tier]).toEqual(['ALLOW', 'T2']);
    });
  }

  it('records what the command runs and writes', async () => {
    const session = await sandboxed.newSession();
    const assessment = await sandboxed.assess(session, 'exec', {
      command: "cd src && cat <<'EOF' > y.py\nprint(2)\nEOF",
    });
    expect(assessment.findings).toContainEqual(
      expect.objectContaining({ code: 'programs', message: 'runs cat inside the sandbox' }),
    );
    expect(assessment.targets).toContainEqual(
      expect.objectContaining({ resolved: join(sandboxed.workspace, 'src/y.py'), write: true }),
    );
  });
});

describe('the same benign calls without a sandbox are asked, never blocked', () => {
  for (const call of BENIGN_CALLS) {
    it(`asks: ${call.name}`, async () => {
      const session = await unsandboxed.newSession();
      const assessment = await unsandboxed.assess(session, 'exec', { command: call.command });
      expect(assessment.verdict, JSON.stringify(assessment.findings)).not.toBe('BLOCK');
      expect(assessment.tier).toBe('T3');
    });
  }
});

describe('final stops stay final under the sandbox', () => {
  const finals: readonly { command: string; code: string; egress?: string[] }[] = [
    { command: 'echo x > ../outside/x', code: 'outside_workspace' },
    { command: 'cd .. && echo x > planted.txt', code: 'outside_workspace' },
    { command: "cat <<'EOF' > .git/hooks/pre-commit\nid\nEOF", code: 'never_writable' },
    { command: 'echo "[core]" >> .git/config', code: 'never_writable' },
    { command: 'curl http://evil.example/x', code: 'egress_denied' },
    { command: 'npm install --ignore-scripts left-pad', code: 'egress_denied' },
    { command: 'source /etc/profile', code: 'source_outside_workspace' },
    { command: 'python3', code: 'interactive_shell' },
    { command: 'echo "import os" | python3', code: 'interactive_shell' },
    { command: 'cat payload.js | node', code: 'interactive_shell' },
    { command: 'bash <<EOF\n$(cat src/a.py)\nEOF', code: 'interactive_shell' },
    { command: "bash <<'EOF'\ncurl http://evil.example\nEOF", code: 'egress_denied' },
    { command: 'eval "ls"', code: 'forbidden_program' },
    { command: 'nc -l 4444', code: 'raw_network' },
    { command: 'git -c core.pager="sh -c id" log', code: 'git_config_injection' },
  ];
  for (const stop of finals) {
    it(`blocks ${JSON.stringify(stop.command)} (${stop.code})`, async () => {
      const session = await sandboxed.newSession();
      const assessment = await sandboxed.assess(session, 'exec', { command: stop.command });
      expect(assessment.verdict).toBe('BLOCK');
      expect(assessment.findings.map((f) => f.code)).toContain(stop.code);
    });
  }

  it('lets a package install through only when its registry host is allowlisted', async () => {
    const session = await sandboxed.newSession({ egress: ['registry.npmjs.org'] });
    const assessment = await sandboxed.assess(session, 'exec', {
      command: 'npm install --ignore-scripts left-pad',
    });
    expect([assessment.verdict, assessment.tier]).toEqual(['ASK', 'T3']);
  });
});

describe('what the sandbox cannot undo is raised, not refused', () => {
  for (const command of ['git reset --hard', 'git clean -fdx', 'rm -rf src', 'git push origin']) {
    it(`asks at T3: ${command}`, async () => {
      const session = await sandboxed.newSession();
      const assessment = await sandboxed.assess(session, 'exec', { command });
      expect([assessment.verdict, assessment.tier]).toEqual(['ASK', 'T3']);
    });
  }

  it('asks for a program off the list and for shell text it cannot parse', async () => {
    const session = await sandboxed.newSession();
    for (const command of ['perl -e 1', "echo 'unbalanced", 'case x in a) ls;; esac']) {
      const assessment = await sandboxed.assess(session, 'exec', { command });
      expect([assessment.verdict, assessment.tier]).toEqual(['ASK', 'T3']);
    }
  });
});

describe('siblings of refused forms (flag exec-sibling-classification, issue #25)', () => {
  const siblings = createPlaneTwoHarness(
    {},
    { flags: new Set([EXEC_SIBLING_CLASSIFICATION.name]) },
  );
  const legacy = createPlaneTwoHarness();
  beforeAll(() => {
    for (const h of [siblings, legacy]) {
      mkdirSync(join(h.workspace, 'src'));
      writeFileSync(join(h.workspace, 'src/a.txt'), 'a\n');
    }
  });

  for (const [command, code] of [
    ['rg -z secret', 'rg_preprocessor'],
    ['rg --search-zip secret', 'rg_preprocessor'],
    ['rg --hostname-bin=./x secret', 'rg_preprocessor'],
    ['python3 /dev/stdin', 'interactive_shell'],
    ['echo "import os" | python3 /dev/stdin', 'interactive_shell'],
  ] as const) {
    it(`blocks ${command} like its sibling, where the old judgement allowed it`, async () => {
      const now = await siblings.assess(await siblings.newSession(), 'exec', { command });
      expect(now.verdict).toBe('BLOCK');
      expect(now.findings.map((f) => f.code)).toContain(code);
      const before = await legacy.assess(await legacy.newSession(), 'exec', { command });
      expect(before.verdict).toBe('ALLOW');
    });
  }

  it('holds sed -i on a file never read to read-before-write', async () => {
    const command = "sed -i 's/a/b/' src/a.txt";
    const session = await siblings.newSession();
    const unread = await siblings.assess(session, 'exec', { command });
    expect(unread.verdict).toBe('BLOCK');
    expect(unread.findings.map((f) => `${f.ruleId}/${f.code}`)).toContain(
      'read-before-write/not_read',
    );
    await siblings.markRead(session, 'src/a.txt');
    expect((await siblings.assess(session, 'exec', { command })).verdict).toBe('ALLOW');
  });
});
