import { records, text, type Payload } from './payload-fields.js';
import type { WorkflowGraph } from './timeline-types.js';

function describeCondition(when: Payload | undefined): string {
  if (!when) return '?';
  const on = text(when, 'on') ?? '?';
  return on === 'verdict' ? `verdict ${text(when, 'verdict') ?? '?'}` : on;
}

/** The workflow graph of a recorded session configuration (`session_configured`). */
export function readWorkflowGraph(configuration: Payload): WorkflowGraph | null {
  const workflow = configuration.workflow;
  if (typeof workflow !== 'object' || workflow === null) return null;
  const definition = workflow as Payload;
  const stages = records(definition, 'stages').map((stage) => ({
    id: text(stage, 'id') ?? '?',
    transitions: records(stage, 'transitions').map((transition) => {
      const when = transition.when;
      return {
        when: describeCondition(
          typeof when === 'object' && when !== null ? (when as Payload) : undefined,
        ),
        to: text(transition, 'to') ?? `end:${text(transition, 'end') ?? '?'}`,
      };
    }),
  }));
  return {
    id: text(definition, 'id') ?? '?',
    initialStage: text(definition, 'initialStage') ?? stages[0]?.id ?? '?',
    stages,
  };
}
