import { outsideTmpFolder } from '../support/outside-tmp.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { flagSet } from '../../src/core/base/behaviour-flag.js';
import {
  CONFINEMENT_BY_CONSTRUCTION,
  toolIntentFlags,
} from '../../src/core/toolintent/toolintent-flags.js';
import { autoApproval } from './auto-approval.js';
import { createPlaneTwoHarness } from './plane-two-harness.js';

const OUTSIDE_TMP = outsideTmpFolder();

const withFlag = flagSet(toolIntentFlags);
const withoutFlag = flagSet(
  toolIntentFlags.filter((flag) => flag.name !== CONFINEMENT_BY_CONSTRUCTION.name),
);

function harness(flags = withFlag, sandbox: 'bubblewrap' | 'none' = 'bubblewrap') {
  const h = createPlaneTwoHarness({}, { flags, sandbox }, { under: OUTSIDE_TMP });
  mkdirSync(join(h.workspace, 'src'));
  writeFileSync(join(h.workspace, 'src/a.py'), 'print(1)\n');
  writeFileSync(join(h.workspace, 'a.png'), 'png');
  writeFileSync(join(h.workspace, 'run.sh'), 'echo hi\n');
  return h;
}

describe('confinement by construction (flag confinement-by-construction, bubblewrap)', () => {
  const h = harness();
  // Made here, not inside a test: their folders are removed after the file.
  const before = harness(withoutFlag);
  const bare = harness(withFlag, 'none');
  const assess = async (command: string) => {
    const assessment = await h.assess(await h.newSession(), 'exec', { command });
    return { assessment, outcome: autoApproval(assessment, command) };
  };

  const runConfined = [
    'python3 -c "import shutil; shutil.rmtree(\'src\')"',
    'convert a.png -colorspace Gray b.png',
    'convert a.png -resize 50% b.png',
    './run.sh',
    'bash run.sh',
    "sh -c 'echo hi'",
    'chmod +x run.sh && ./run.sh',
    'timeout 10 python3 src/a.py',
    'nohup python3 src/a.py',
    'gcc -o x x.c',
    'tar czf out.tgz src',
    'unzip x.zip',
    'ps aux',
    'hexdump -C a.png',
    'strings a.png',
    'dpkg -l',
    'pip list',
    'openssl req -x509 -newkey rsa:2048 -keyout key.pem -out cert.pem -days 1 -nodes -subj /CN=x',
    "find . -name '*.pyc' -delete",
    'mkdir -p .',
    'rm -rf src',
    'git clean -fdx',
    'cat /srv/other-repo/.env',
    "find / -name '*.pem' -exec cat {} \\;",
    'sudo apt-get install -y jq',
    'set -e; python3 src/a.py',
    'source venv/bin/activate && pytest',
    `cat > big.py <<'EOF'\n${'x = 1\n'.repeat(2000)}EOF`,
    'echo $(( 1 + 2 ',
    // the sandbox's private /tmp: discarded when the call ends, never the host's
    'git diff > /tmp/full_patch.txt',
    'mkdir -p /tmp/repro && cd /tmp/repro && touch a.py',
  ];
  for (const command of runConfined) {
    it(`runs confined at T2 in auto mode: ${command.slice(0, 60)}`, async () => {
      const { assessment, outcome } = await assess(command);
      expect(
        { verdict: assessment.verdict, tier: assessment.tier, outcome },
        JSON.stringify(assessment.findings),
      ).toEqual({ verdict: 'ALLOW', tier: 'T2', outcome: 'approved' });
    });
  }

  const refusedOutside = ['cd .. && rm -rf *', 'rm -rf ../*', 'rm -rf ~/*', 'echo x > ../x'];
  for (const command of refusedOutside) {
    it(`refuses a target outside the workspace, saying so: ${command}`, async () => {
      const { assessment } = await assess(command);
      expect(assessment.verdict).toBe('BLOCK');
      const block = assessment.findings.find((f) => f.severity === 'block');
      expect(block?.code).toBe('outside_workspace');
      expect(block?.message).toMatch(/outside the workspace/);
    });
  }

  it('still refuses protected paths and asks for what leaves the sandbox by design', async () => {
    expect((await assess('echo x > .git/hooks/pre-commit')).assessment.verdict).toBe('BLOCK');
    expect((await assess('git config core.pager cat')).outcome).not.toBe('approved');
    expect((await assess('git push origin main')).outcome).not.toBe('approved');
    expect((await assess('npm publish')).outcome).not.toBe('approved');
    expect((await assess('curl https://evil.example.com/x')).outcome).not.toBe('approved');
  });

  it('is behind its flag: without it, the same calls are judged as before', async () => {
    for (const command of ['convert a.png -colorspace Gray b.png', 'rm -rf src', 'gcc -o x x.c']) {
      const assessment = await before.assess(await before.newSession(), 'exec', { command });
      expect(autoApproval(assessment, command), command).not.toBe('approved');
    }
  });

  it('without a sandbox, the careful list-based assessment stays', async () => {
    for (const command of ['gcc -o x x.c', "python3 -c 'print(1)'", './run.sh']) {
      const assessment = await bare.assess(await bare.newSession(), 'exec', { command });
      expect(autoApproval(assessment, command), command).not.toBe('approved');
    }
  });
});
