import { z } from 'zod';
import type { ContextCandidate } from './context-candidate.js';

/**
 * Facts about the repository, gathered by a probe when the session starts and recorded in
 * `session_configured`, so packs (and replay) read the record and never probe. Every list is
 * bounded by the probe; `truncated` says a bound was hit.
 */
export const RepositoryKnowledgeSchema = z.strictObject({
  /** Files seen (outside dependency and build folders). */
  fileCount: z.number().int().min(0),
  /** Top-level entries with how many files each holds (`src/ (120 files)`, `README.md`). */
  tree: z.array(z.string()),
  languages: z.array(z.strictObject({ language: z.string(), files: z.number().int().min(0) })),
  packageManager: z.string().nullable(),
  /** package.json scripts (or their equivalents), by name. */
  scripts: z.record(z.string(), z.string()),
  testCommands: z.array(z.string()),
  entryPoints: z.array(z.string()),
  /** Exported symbols by file (TypeScript/JavaScript through the TypeScript compiler API). */
  symbols: z.array(z.strictObject({ file: z.string(), names: z.array(z.string()) })),
  truncated: z.boolean(),
});
export type RepositoryKnowledge = z.infer<typeof RepositoryKnowledgeSchema>;

/** The knowledge as text a model reads. */
export function renderRepositoryKnowledge(knowledge: RepositoryKnowledge): string {
  const lines = [
    `Repository overview (${knowledge.fileCount} files${knowledge.truncated ? ', partly surveyed' : ''}):`,
  ];
  if (knowledge.languages.length > 0)
    lines.push(
      `Languages: ${knowledge.languages.map((entry) => `${entry.language} (${entry.files})`).join(', ')}`,
    );
  if (knowledge.packageManager !== null) lines.push(`Package manager: ${knowledge.packageManager}`);
  const scripts = Object.entries(knowledge.scripts);
  if (scripts.length > 0)
    lines.push('Scripts:', ...scripts.map(([name, command]) => `  ${name}: ${command}`));
  if (knowledge.testCommands.length > 0)
    lines.push(`Test commands: ${knowledge.testCommands.join('; ')}`);
  if (knowledge.entryPoints.length > 0)
    lines.push(`Entry points: ${knowledge.entryPoints.join(', ')}`);
  if (knowledge.tree.length > 0)
    lines.push('Top level:', ...knowledge.tree.map((entry) => `  ${entry}`));
  if (knowledge.symbols.length > 0)
    lines.push(
      'Exported symbols:',
      ...knowledge.symbols.map((entry) => `  ${entry.file}: ${entry.names.join(', ')}`),
    );
  return lines.join('\n');
}

/**
 * The L3 entry for the recorded knowledge: compressible and the first to go under budget
 * pressure (L3 is evicted before the working set), so it fills only room the pack has spare.
 */
export function repositoryKnowledgeCandidate(knowledge: RepositoryKnowledge): ContextCandidate {
  return {
    id: 'repository-knowledge',
    layer: 'L3',
    kind: 'knowledge',
    source: { kind: 'config', id: 'repository-knowledge' },
    content: renderRepositoryKnowledge(knowledge),
    order: 0,
  };
}
