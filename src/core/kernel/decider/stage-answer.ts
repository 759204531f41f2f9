import { finishingToolName } from '../features/finishing-tool/finishing-tool.js';
import { FINISHING_TOOL } from '../config/kernel-flags.js';
import { rejected } from './call-step.js';
import type { StageContext } from './stage-context.js';
import { emit, type Step } from './step.js';
import { proposedArtifact } from './stage-artifact.js';
import { answerBoundsProblem, answerTextOf } from './artifact-content.js';
import type { TurnRecord } from './stage-run.js';

/** A model's answer: its tool calls proposed in order, or its artifact. */
export function answer(
  context: StageContext,
  turn: Extract<TurnRecord, { status: 'answered' }>,
): Step {
  const { config, stage } = context;
  const result = turn.result;
  const finishName = finishingToolName(stage);
  // Behind `finishing-tool`, a request that offered the finishing tool is answered by calling it.
  const finishingDue =
    config.behaviour.flags.has(FINISHING_TOOL.name) && turn.toolNames.includes(finishName);
  if (!finishingDue) {
    return result.toolCalls.length === 0
      ? proposeArtifact(context, turn)
      : proposeCalls(context, turn, null);
  }
  if (result.toolCalls.length === 0) {
    const proposal = proposeArtifact(context, turn);
    const [proposed] = proposal.events;
    if (proposed?.type !== 'artifact_proposed') return proposal;
    return {
      ...proposal,
      events: [
        proposed,
        {
          type: 'validation_failed',
          hash: proposed.hash,
          stageId: stage.id,
          phase: 'schema',
          validator: 'finishing_tool',
          message: `a plain-text answer is not accepted: call the tool \`${finishName}\` with the \`${stage.artifact.kind}\` artifact as its arguments`,
        },
      ],
    };
  }
  const only = result.toolCalls.length === 1 ? result.toolCalls[0] : undefined;
  if (only?.name === finishName) return proposeArtifact(context, turn);
  return proposeCalls(context, turn, finishName);
}

function proposeArtifact(
  context: StageContext,
  turn: Extract<TurnRecord, { status: 'answered' }>,
): Extract<Step, { kind: 'emit' }> {
  const { config, state, run, stage } = context;
  const artifact = proposedArtifact(state, stage, turn, config.sha256);
  // An answer nested too deep is its text, refused at once: no validator ever walks it.
  const tooDeep = answerBoundsProblem(answerTextOf(turn.result));
  return {
    kind: 'emit',
    events: [
      {
        type: 'artifact_proposed',
        hash: artifact.hash,
        kind: artifact.kind,
        stageId: stage.id,
        attempt: run.attempt,
        inferenceEventId: artifact.lineage.inferenceEventId,
        parents: artifact.lineage.parents,
      },
      ...(tooDeep === undefined
        ? []
        : [
            {
              type: 'validation_failed' as const,
              hash: artifact.hash,
              stageId: stage.id,
              phase: 'schema' as const,
              validator: 'answer_bounds',
              message: `${tooDeep}: answer with the \`${stage.artifact.kind}\` artifact itself`,
            },
          ]),
    ],
    artifacts: [artifact],
  };
}

/** A turn's tool calls, proposed in order; a finishing call among others is refused. */
function proposeCalls(
  context: StageContext,
  turn: Extract<TurnRecord, { status: 'answered' }>,
  finishName: string | null,
): Step {
  const { config, stage } = context;
  const result = turn.result;
  const callId = (index: number) => `${turn.requestId}.${index + 1}`;
  return emit(
    ...result.toolCalls.map((call, index) => ({
      type: 'tool_call_proposed' as const,
      callId: callId(index),
      stageId: stage.id,
      tool: call.name,
      argsRaw: call.argsRaw,
      // Present only on answers recorded with a kept head, so older sessions derive the same bytes.
      ...(call.argsLength === undefined ? {} : { argsLength: call.argsLength }),
    })),
    ...result.toolCalls.flatMap((call, index) =>
      finishName !== null && call.name === finishName
        ? [
            rejected(
              config,
              stage,
              callId(index),
              call.name,
              'tool_not_allowed',
              `call ${finishName} alone, in a turn of its own, once the results of your other calls are back`,
            ),
          ]
        : index < config.limits.maxCallsPerTurn
          ? []
          : [
              rejected(
                config,
                stage,
                callId(index),
                call.name,
                'call_limit',
                `only ${config.limits.maxCallsPerTurn} tool calls run per turn; propose the rest next turn`,
              ),
            ],
    ),
  );
}
