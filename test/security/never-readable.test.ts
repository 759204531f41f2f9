import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { flagSet } from '../../src/core/base/behaviour-flag.js';
import { DEFAULT_NEVER_READABLE } from '../../src/core/policies/workspace-policy.js';
import { toolIntentFlags } from '../../src/core/toolintent/toolintent-flags.js';
import { createGrepExecutor } from '../../src/infrastructure/tools/search-tools.js';
import { createDiskWorldProbe } from '../../src/infrastructure/world-probe/disk-world-probe.js';
import { createPlaneTwoHarness } from './plane-two-harness.js';
import { layeredRecord } from '../../src/core/base/layered-record.js';

/** Never-readable paths (flag never-readable): refused to read tools, skipped by grep. */
const h = createPlaneTwoHarness({}, { flags: flagSet(toolIntentFlags), sandbox: 'bubblewrap' });
const legacy = createPlaneTwoHarness();
const configured = createPlaneTwoHarness(
  { neverReadable: ['secrets/**'] },
  { flags: flagSet(toolIntentFlags) },
);
const CANARY = 'CANARY-7f3a-never-in-an-event';

beforeAll(() => {
  for (const harness of [h, legacy, configured]) {
    mkdirSync(join(harness.workspace, 'src'));
    mkdirSync(join(harness.workspace, 'secrets'));
    writeFileSync(join(harness.workspace, '.env'), `TOKEN=${CANARY}\n`);
    writeFileSync(join(harness.workspace, 'src/server.pem'), `${CANARY}\n`);
    writeFileSync(join(harness.workspace, 'secrets/a.txt'), `${CANARY}\n`);
    writeFileSync(join(harness.workspace, 'src/a.ts'), 'export const a = 1;\n');
  }
});

const codes = (assessment: { findings: readonly { ruleId: string; code: string }[] }) =>
  assessment.findings.map((f) => `${f.ruleId}/${f.code}`);

describe('never-readable paths', () => {
  for (const [tool, args] of [
    ['read_file', { path: '.env' }],
    ['read_file', { path: 'src/server.pem' }],
    ['read_file', { path: '../workspace/.env' }],
    ['grep', { path: '.env', pattern: 'TOKEN' }],
    ['copy_file', { source: '.env', destination: 'src/env.txt' }],
    ['move_file', { source: 'src/server.pem', destination: 'src/x.txt' }],
    ['exec', { command: 'wc -c < .env' }],
  ] as const) {
    it(`blocks ${tool} ${JSON.stringify(args)}`, async () => {
      const assessment = await h.assess(await h.newSession(), tool, args);
      expect(assessment.verdict).toBe('BLOCK');
      expect(codes(assessment)).toContain('never-readable/never_readable');
    });
  }

  it('still lets names be listed and a new .env be written from the model', async () => {
    const session = await h.newSession();
    for (const [tool, args] of [
      ['list_dir', { path: '.' }],
      ['glob', { pattern: '**/*.pem' }],
      ['write_file', { path: 'sub/.env', content: 'A=1\n' }],
    ] as const) {
      const assessment = await h.assess(session, tool, args);
      expect(codes(assessment)).not.toContain('never-readable/never_readable');
      expect(assessment.verdict).not.toBe('BLOCK');
    }
  });

  it('uses the configured globs instead of the defaults', async () => {
    const session = await configured.newSession();
    expect(
      codes(await configured.assess(session, 'read_file', { path: 'secrets/a.txt' })),
    ).toContain('never-readable/never_readable');
    expect(codes(await configured.assess(session, 'read_file', { path: '.env' }))).not.toContain(
      'never-readable/never_readable',
    );
  });

  it('leaves sessions recorded without the flag as they were', async () => {
    const assessment = await legacy.assess(await legacy.newSession(), 'read_file', {
      path: '.env',
    });
    expect(assessment.verdict).toBe('ALLOW');
  });

  it('grep never searches never-readable files, so their contents reach no receipt', async () => {
    const probe = createDiskWorldProbe();
    const receipt = await createGrepExecutor({ probe }).execute(
      { path: '.', pattern: 'CANARY' },
      {
        callId: 'g',
        roots: h.roots,
        observations: layeredRecord({ [h.workspace]: await probe.observe(h.workspace) }),
        egressAllowlist: [],
      },
    );
    expect(receipt.outcome).toBe('succeeded');
    // Only the file no never-readable glob names is searched.
    expect(receipt.output).toBe(`secrets/a.txt:1:${CANARY}`);
    const configuredGrep = await createGrepExecutor({
      probe,
      neverReadable: [...DEFAULT_NEVER_READABLE, 'secrets/**'],
    }).execute(
      { path: '.', pattern: 'CANARY' },
      {
        callId: 'g2',
        roots: h.roots,
        observations: layeredRecord({ [h.workspace]: await probe.observe(h.workspace) }),
        egressAllowlist: [],
      },
    );
    expect(JSON.stringify(configuredGrep)).not.toContain(CANARY);
  });
});
