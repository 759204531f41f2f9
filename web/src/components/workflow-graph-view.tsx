import type { StageSection, WorkflowGraph } from '../model/timeline-types.js';

/** The workflow's stages in order with their transitions; the current stage is highlighted. */
export function WorkflowGraphView(props: {
  graph: WorkflowGraph | null;
  currentStageId: string | null;
  reworkCycles: number;
  sections: readonly StageSection[];
}) {
  const visits = new Map<string, number>();
  for (const section of props.sections)
    if (section.stageId !== null)
      visits.set(section.stageId, (visits.get(section.stageId) ?? 0) + 1);
  return (
    <section class="panel" aria-labelledby="graph-title">
      <h2 id="graph-title">
        Workflow{props.graph ? ` ${props.graph.id}` : ''}{' '}
        <span class="badge" data-testid="rework-cycles">
          {props.reworkCycles} rework {props.reworkCycles === 1 ? 'cycle' : 'cycles'}
        </span>
      </h2>
      {props.graph === null ? (
        <p class="muted">
          The workflow is not in the log yet (it is recorded when the session is configured).
        </p>
      ) : (
        <ol class="graph">
          {props.graph.stages.map((stage) => {
            const current = stage.id === props.currentStageId;
            return (
              <li
                key={stage.id}
                class={current ? 'node current' : 'node'}
                aria-current={current ? 'step' : undefined}
              >
                <span class="node-name">
                  {stage.id}
                  {stage.id === props.graph!.initialStage && (
                    <span class="muted small"> (start)</span>
                  )}
                </span>
                <span class="muted small">
                  {visits.get(stage.id) ?? 0} {visits.get(stage.id) === 1 ? 'visit' : 'visits'}
                  {current ? ' · current' : ''}
                </span>
                <ul class="edges">
                  {stage.transitions.map((edge, index) => (
                    <li key={index}>
                      → {edge.to} <span class="muted">on {edge.when}</span>
                    </li>
                  ))}
                </ul>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
