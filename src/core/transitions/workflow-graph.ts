import type { WorkflowDefinition } from './workflow-definition.js';

export const WORKFLOW_ISSUE_CODES = [
  'invalid_shape',
  'duplicate_stage',
  'unknown_stage',
  'unreachable_stage',
  'no_terminal_stage',
  'dead_end_stage',
  'unknown_verdict',
  'unbounded_cycle',
  'invalid_artifact_schema',
] as const;
export type WorkflowIssueCode = (typeof WORKFLOW_ISSUE_CODES)[number];

/** One problem with a workflow definition, naming the stage when there is one. */
export type WorkflowIssue = {
  readonly code: WorkflowIssueCode;
  readonly stageId?: string;
  /** Where in the definition, e.g. `['stages', 3, 'transitions', 1, 'to']`. */
  readonly path: readonly (string | number)[];
  readonly message: string;
  /** 1-based position in the source text, when the definition came from a file that has one. */
  readonly line?: number;
  readonly column?: number;
};

/**
 * The load-time graph checks, on a definition that already passed the schema. Every problem is
 * reported, not only the first, each with the stage it concerns.
 */
export function findGraphIssues(definition: WorkflowDefinition): WorkflowIssue[] {
  const issues: WorkflowIssue[] = [];
  const indexOf = new Map<string, number>();
  definition.stages.forEach((stage, index) => {
    if (indexOf.has(stage.id)) {
      issues.push({
        code: 'duplicate_stage',
        stageId: stage.id,
        path: ['stages', index, 'id'],
        message: `stage \`${stage.id}\` is defined twice`,
      });
    } else indexOf.set(stage.id, index);
  });

  if (!indexOf.has(definition.initialStage)) {
    issues.push({
      code: 'unknown_stage',
      stageId: definition.initialStage,
      path: ['initialStage'],
      message: `initial stage \`${definition.initialStage}\` is not defined (stages: ${[...indexOf.keys()].join(', ')})`,
    });
  }

  definition.stages.forEach((stage, index) => {
    stage.transitions.forEach((transition, position) => {
      const path = ['stages', index, 'transitions', position];
      if (transition.to !== undefined && !indexOf.has(transition.to)) {
        issues.push({
          code: 'unknown_stage',
          stageId: stage.id,
          path: [...path, 'to'],
          message: `stage \`${stage.id}\`: transition ${position + 1} goes to \`${transition.to}\`, which is not a stage`,
        });
      }
      if (transition.when.on === 'verdict' && !stage.verdicts.includes(transition.when.verdict)) {
        const declared = stage.verdicts.length ? stage.verdicts.join(', ') : 'none';
        issues.push({
          code: 'unknown_verdict',
          stageId: stage.id,
          path: [...path, 'when', 'verdict'],
          message: `stage \`${stage.id}\`: transition ${position + 1} routes on verdict \`${transition.when.verdict}\`, which the stage does not declare (verdicts: ${declared})`,
        });
      }
    });
  });

  const successors = (stageId: string, boundedToo: boolean): string[] => {
    const stage = definition.stages[indexOf.get(stageId) ?? -1];
    if (!stage) return [];
    return stage.transitions
      .filter((t) => t.to !== undefined && indexOf.has(t.to))
      .filter((t) => boundedToo || t.maxTraversals === undefined)
      .map((t) => t.to!);
  };

  if (indexOf.has(definition.initialStage)) {
    const reachable = closure([definition.initialStage], (id) => successors(id, true));
    for (const [id, index] of indexOf) {
      if (!reachable.has(id)) {
        issues.push({
          code: 'unreachable_stage',
          stageId: id,
          path: ['stages', index],
          message: `stage \`${id}\` is unreachable from the initial stage \`${definition.initialStage}\``,
        });
      }
    }
  }

  const completing = definition.stages.filter((stage) =>
    stage.transitions.some((t) => t.end === 'completed'),
  );
  if (completing.length === 0) {
    issues.push({
      code: 'no_terminal_stage',
      path: ['stages'],
      message: `workflow \`${definition.id}\` has no terminal stage: no transition ends it with \`end: completed\``,
    });
  }

  // A stage from which no `end` is reachable can only stall the session.
  const predecessors = new Map<string, string[]>();
  for (const stage of definition.stages) {
    for (const next of successors(stage.id, true)) {
      predecessors.set(next, [...(predecessors.get(next) ?? []), stage.id]);
    }
  }
  const ending = definition.stages.filter((s) => s.transitions.some((t) => t.end !== undefined));
  const canEnd = closure(
    ending.map((s) => s.id),
    (id) => predecessors.get(id) ?? [],
  );
  for (const [id, index] of indexOf) {
    if (!canEnd.has(id)) {
      issues.push({
        code: 'dead_end_stage',
        stageId: id,
        path: ['stages', index, 'transitions'],
        message: `stage \`${id}\` can never reach an end of the workflow: add a transition with \`end\``,
      });
    }
  }

  for (const cycle of unboundedCycles([...indexOf.keys()], (id) => successors(id, false))) {
    const first = cycle[0]!;
    const edges = cycle.map((id, i) => `${id}->${cycle[(i + 1) % cycle.length]!}`);
    issues.push({
      code: 'unbounded_cycle',
      stageId: first,
      path: ['stages', indexOf.get(first)!, 'transitions'],
      message: `stage \`${first}\`: cycle ${[...cycle, first].join(' → ')} has no exit bound: set \`maxTraversals\` on one of its transitions (${edges.join(', ')})`,
    });
  }
  return issues;
}

function closure(start: readonly string[], next: (id: string) => readonly string[]): Set<string> {
  const seen = new Set(start);
  const queue = [...start];
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    for (const successor of next(id)) {
      if (!seen.has(successor)) {
        seen.add(successor);
        queue.push(successor);
      }
    }
  }
  return seen;
}

/** One cycle per strongly connected group of unbounded edges, found by depth-first search. */
function unboundedCycles(
  ids: readonly string[],
  next: (id: string) => readonly string[],
): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const cycles: string[][] = [];
  const stack: string[] = [];
  const visit = (id: string): void => {
    state.set(id, 'open');
    stack.push(id);
    for (const successor of next(id)) {
      const mark = state.get(successor);
      if (mark === 'open') cycles.push(stack.slice(stack.indexOf(successor)));
      else if (mark === undefined) visit(successor);
    }
    stack.pop();
    state.set(id, 'done');
  };
  for (const id of ids) if (!state.has(id)) visit(id);
  return cycles;
}
