import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../base/sha256.js';
import { buildContextPack } from './build-context-pack.js';
import type { ContextCandidate } from './context-candidate.js';
import { instructionCandidates, type ProjectInstruction } from './project-instructions.js';
import { createEstimatingTokenizer } from './tokenizer.js';

const instruction = (
  scope: ProjectInstruction['scope'],
  path: string,
  directory: string,
  content: string,
): ProjectInstruction => ({
  scope,
  path,
  directory,
  sha256: sha256Hex(content),
  content,
  truncated: false,
});

const recorded = [
  instruction('directory', 'packages/web/AGENTS.md', 'packages/web', 'Web: use preact.'),
  instruction('workspace', 'AGENTS.md', '', 'Run npm test before finishing.'),
  instruction('user', '$CORREX_HOME/AGENTS.md', '', 'Answer in British English.'),
];

describe('project instructions in a pack', () => {
  it('orders user, workspace, then nested files, and adds a nested one only once its folder is touched', () => {
    expect(instructionCandidates(recorded, []).map((c) => c.id)).toEqual([
      'instructions:$CORREX_HOME/AGENTS.md',
      'instructions:AGENTS.md',
    ]);
    expect(instructionCandidates(recorded, ['packages/webby/x.ts']).map((c) => c.id)).toHaveLength(
      2,
    );
    expect(instructionCandidates(recorded, ['packages/web/src/app.tsx']).map((c) => c.id)).toEqual([
      'instructions:$CORREX_HOME/AGENTS.md',
      'instructions:AGENTS.md',
      'instructions:packages/web/AGENTS.md',
    ]);
  });

  it('keeps them pinned under budget pressure, with their content hash in the manifest', () => {
    const turns: ContextCandidate[] = Array.from({ length: 40 }, (_, n) => ({
      id: `turn-${n}`,
      layer: 'L1',
      kind: 'turn',
      source: { kind: 'event', id: `t${n}` },
      content: `turn ${n} ${'words '.repeat(40)}`,
      order: n + 1,
    }));
    const candidates = [...turns, ...instructionCandidates(recorded, [])];
    const pack = buildContextPack(
      { stageId: 'implement', candidates },
      { maxTokens: 600 },
      createEstimatingTokenizer(),
    );
    expect(pack.manifest.excluded.some((entry) => entry.reason === 'over_budget')).toBe(true);
    const kept = pack.manifest.included.filter((entry) => entry.kind === 'instructions');
    expect(kept.map((entry) => entry.id)).toEqual([
      'instructions:$CORREX_HOME/AGENTS.md',
      'instructions:AGENTS.md',
    ]);
    const workspaceEntry = pack.entries.find((entry) => entry.id === 'instructions:AGENTS.md');
    expect(workspaceEntry?.content).toContain('Run npm test before finishing.');
    expect(workspaceEntry?.contentSha256).toBe(sha256Hex(workspaceEntry!.content));
    expect(kept[1]?.source).toEqual({ kind: 'config', id: `instructions:${recorded[1]!.sha256}` });
  });
});
