import { layeredEntries } from '../../base/layered-record.js';
import { safeBuildContextPack } from '../../context/build-context-pack.js';
import type { ContextCandidate } from '../../context/context-candidate.js';
import { renderContextPack } from '../../context/render-context-pack.js';
import { steeringNoteCandidate } from '../../context/steering-note.js';
import {
  CONTEXT_FEEDBACK,
  PROJECT_INSTRUCTIONS,
  REPOSITORY_KNOWLEDGE,
} from '../../context/context-flags.js';
import { feedbackRelevance } from '../../context/context-feedback.js';
import { repositoryKnowledgeCandidate } from '../../context/repository-knowledge.js';
import { instructionCandidates } from '../../context/project-instructions.js';
import { relativeInside } from '../../tools/tool-path.js';
import { canonicalJson } from '../../events/canonical-json.js';
import type { PayloadOf } from '../../events/event-definition.js';
import type { inferenceRequested } from '../../inference/inference-events.js';
import type { InferenceRequest } from '../../inference/inference-request.js';
import { inferenceRequestDigests } from '../../inference/request-digest.js';
import type { WorkflowStage } from '../../transitions/workflow.js';
import { finishingToolName } from '../features/finishing-tool/finishing-tool.js';
import type { KernelConfig } from '../config/kernel-config.js';
import { requestDefinitions, responseSchemaOf } from './request-definitions.js';
import { routeStage } from './route-stage.js';
import {
  BUDGET_REQUEST_DEFINITIONS,
  FINISHING_TOOL,
  NATIVE_TOOL_TRANSCRIPT,
} from '../config/kernel-flags.js';
import { recordedManifest } from '../features/manifest-by-reference/manifests-feature.js';
import { featureCoreOf, type KernelState, type StageRunState } from './kernel-state.js';
import { featureCandidates } from '../features/kernel-features.js';
import { renderNativeTranscript } from '../features/native-transcript/native-transcript.js';
import type { NativeTurn } from './transcript.js';
import { turnCandidates, turnTask } from '../features/follow-up-turns/turn-step.js';

export type StageRequest =
  | {
      readonly ok: true;
      readonly provider: string;
      readonly request: InferenceRequest;
      readonly requested: PayloadOf<typeof inferenceRequested>;
    }
  | { readonly ok: false; readonly category: 'provider' | 'inference'; readonly message: string };

/**
 * Builds the model call for the next turn of a stage attempt: routes to a model profile, builds
 * the budgeted context pack from recorded state (task, steering notes, accepted artifacts, this
 * attempt's transcript, tool-argument hints, validation feedback), and renders the request.
 * Pure: the same state and config give the same request, byte for byte, which is how the runner
 * can rebuild a pending request after a restart and check it against the recorded digest.
 */
export function buildStageRequest(
  config: KernelConfig,
  state: KernelState,
  stage: WorkflowStage,
  run: StageRunState,
  requestId: string,
  /** Only what was recorded before this sequence goes in (rebuilding a pending request). */
  beforeSequence = Number.POSITIVE_INFINITY,
): StageRequest {
  const routed = routeStage(config, stage);
  if (!routed.ok) return { ok: false, category: 'provider', message: routed.message };
  const { profile, tools } = routed;
  const flags = config.behaviour.flags;
  // A tool-calling profile ends the stage with a call; one without keeps the JSON answer.
  const finishing = flags.has(FINISHING_TOOL.name) && profile.capabilities.includes('tool_calling');
  const {
    tools: definitions,
    text: definitionsText,
    toolsJson,
  } = requestDefinitions(stage, tools, finishing);
  const responseSchema = responseSchemaOf(stage, finishing);
  // What travels beside the messages costs context too (behind `budget-request-definitions`).
  const definitionTokens = flags.has(BUDGET_REQUEST_DEFINITIONS.name)
    ? (config.packMemo?.tokens(config.tokenizer, definitionsText) ??
      config.tokenizer.count(definitionsText))
    : 0;
  const built = safeBuildContextPack(
    {
      stageId: stage.id,
      candidates: [
        ...candidatesFor(config, state, stage, run, beforeSequence, finishing),
        ...projectInstructionCandidates(config, state),
        ...(config.knowledge !== undefined && flags.has(REPOSITORY_KNOWLEDGE.name)
          ? [repositoryKnowledgeCandidate(config.knowledge)]
          : []),
      ],
    },
    {
      maxTokens: profile.contextWindow,
      reserveForOutput: profile.maxOutputTokens + definitionTokens,
    },
    config.tokenizer,
    config.packMemo === undefined
      ? { hash: config.sha256 }
      : { hash: config.sha256, memo: config.packMemo },
  );
  if (!built.ok) return { ok: false, category: 'inference', message: built.error.message };
  const messages = flags.has(NATIVE_TOOL_TRANSCRIPT.name)
    ? renderNativeTranscript(built.pack, nativeTurns(run))
    : renderContextPack(built.pack);
  const request: InferenceRequest = {
    model: profile.model,
    messages,
    tools: definitions,
    ...(responseSchema === undefined ? {} : { responseSchema }),
    limits: {
      maxOutputTokens: profile.maxOutputTokens,
      timeoutMs: config.limits.inferenceTimeoutMs,
    },
  };
  const { packDigest, requestDigest } = inferenceRequestDigests(request, config.sha256, toolsJson);
  return {
    ok: true,
    provider: profile.provider,
    request,
    requested: {
      type: 'inference_requested',
      requestId,
      stageId: stage.id,
      provider: profile.provider,
      model: profile.model,
      profileId: profile.id,
      packDigest,
      requestDigest,
      tokenEstimate: built.pack.totalTokens + definitionTokens,
      toolNames: request.tools.map((tool) => tool.name),
      ...recordedManifest(config, state.features.manifests, built.pack.manifest),
    },
  };
}

function candidatesFor(
  config: KernelConfig,
  state: KernelState,
  stage: WorkflowStage,
  run: StageRunState,
  beforeSequence: number,
  finishing: boolean,
): ContextCandidate[] {
  const candidates: ContextCandidate[] = [
    {
      id: `stage:${stage.id}`,
      layer: 'L0',
      kind: 'system',
      source: { kind: 'config', id: `stage:${stage.id}` },
      content: [
        `You are the ${stage.role} of stage \`${stage.id}\` (attempt ${run.attempt}).`,
        stage.instructions,
        finishing
          ? `Use the tools to inspect and change the workspace. When the stage is done, call the tool \`${finishingToolName(stage)}\` alone, with the \`${stage.artifact.kind}\` artifact as its arguments.`
          : `Use the tools to inspect and change the workspace. When the stage is done, answer with no tool calls and only the \`${stage.artifact.kind}\` artifact as JSON matching the response schema.`,
      ].join('\n'),
      order: 0,
    },
  ];
  // In a follow-up turn the turn's request is the task; the turns before it are candidates.
  const turn = turnTask(state.features.turns);
  if (turn !== null) {
    candidates.push({
      id: 'task',
      layer: 'L1',
      kind: 'task',
      source: { kind: 'event', id: `turn-${turn.turn}` },
      content: `Task (follow-up turn ${turn.turn} of this session, event #${turn.eventSequence}): ${turn.text}\nThe session's first request: ${state.session.task ?? ''}\nWorkspace: ${state.session.workspace ?? ''}`,
      order: 0,
    });
    candidates.push(
      ...turnCandidates(state.features.turns, state.session.workspace ?? '/', beforeSequence),
    );
  } else if (state.session.task !== null) {
    candidates.push({
      id: 'task',
      layer: 'L1',
      kind: 'task',
      source: { kind: 'event', id: state.taskEventId ?? 'session_created' },
      content: `Task: ${state.session.task}\nWorkspace: ${state.session.workspace ?? ''}`,
      order: 0,
    });
  }
  for (const note of state.steering.filter((n) => n.sequence < beforeSequence)) {
    candidates.push(
      steeringNoteCandidate(
        {
          sessionId: state.session.sessionId ?? '',
          content: note.content,
          ...(note.stageId === null ? {} : { stageId: note.stageId }),
        },
        note.eventId,
        note.sequence,
      ),
    );
  }
  for (const artifact of state.accepted.filter((a) => a.sequence < beforeSequence)) {
    candidates.push({
      id: `artifact:${artifact.eventId}`,
      layer: 'L2',
      kind: 'brief',
      source: { kind: 'artifact', id: artifact.hash },
      content: `Accepted ${artifact.kind} artifact ${artifact.hash} from stage ${artifact.stageId}:\n${canonicalJson(artifact.content)}`,
      order: artifact.sequence,
    });
  }
  const transcript = run.transcript.filter((e) => e.sequence < beforeSequence);
  const relevance = config.behaviour.flags.has(CONTEXT_FEEDBACK.name)
    ? feedbackRelevance(
        transcript.map((entry) => ({
          id: entry.eventId,
          subjects: entry.subjects ?? [],
          sequence: entry.sequence,
        })),
        transcript
          .filter((entry) => entry.kind === 'turn')
          .map((entry) => ({ sequence: entry.sequence, calls: entry.content })),
      )
    : new Map<string, number>();
  for (const entry of transcript) {
    const ranked = relevance.get(entry.eventId);
    // The optional field added after the literal, not spread into its head: a leading spread of
    // `{}` or `{ relevance }` took V8's slow clone, most of this function's time.
    const candidate: ContextCandidate = {
      id: candidateId(entry),
      layer: 'L1',
      kind: entry.kind,
      source: { kind: 'event', id: entry.eventId },
      content: entry.content,
      order: entry.sequence,
      role: entry.role,
    };
    candidates.push(ranked === undefined ? candidate : { ...candidate, relevance: ranked });
  }
  candidates.push(
    ...featureCandidates(featureCoreOf(config, state), {
      stage,
      run,
      beforeSequence,
      written: state.written,
      lastStageFailure: state.lastStageFailure,
    }),
  );
  return candidates;
}

/** The native form of each transcript entry, by the id its pack candidate has. */
function nativeTurns(run: StageRunState): (entryId: string) => NativeTurn | undefined {
  const byId = new Map<string, NativeTurn>();
  for (const entry of run.transcript)
    if (entry.native !== undefined) byId.set(candidateId(entry), entry.native);
  return (entryId) => byId.get(entryId);
}

function candidateId(entry: { readonly kind: string; readonly eventId: string }): string {
  return `${entry.kind}:${entry.eventId}`;
}

/** The recorded instruction files, when the session's behaviour pins them in its packs. */
function projectInstructionCandidates(
  config: KernelConfig,
  state: KernelState,
): ContextCandidate[] {
  if (!config.behaviour.flags.has(PROJECT_INSTRUCTIONS.name) || config.instructions === undefined)
    return [];
  // The paths the session has observed so far (every path a call named is observed first).
  const workspace = state.session.workspace ?? '';
  const touched = Object.keys(layeredEntries(state.tools.observations)).flatMap((path) => {
    const relative = relativeInside(path, workspace);
    return relative === undefined ? [] : [relative];
  });
  return instructionCandidates(config.instructions, touched);
}
