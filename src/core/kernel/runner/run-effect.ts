import { CorrexError } from '../../base/correx-error.js';
import type { CorrexEvent } from '../../event-catalog.js';
import { wellFormedDeep } from '../../base/well-formed.js';
import { canonicalJson, NonCanonicalValueError } from '../../events/canonical-json.js';
import { InferenceError } from '../../inference/inference-failure.js';
import { InferenceResultSchema, type InferenceResult } from '../../inference/inference-result.js';
import type { Effect } from '../decider/effect.js';
import type { KernelState } from '../decider/kernel-state.js';
import type { Clock } from '../../base/clock.js';
import type { KernelConfig } from '../config/kernel-config.js';
import type { KernelPorts } from './kernel-ports.js';
import { EXEC_BASH } from '../../toolintent/toolintent-flags.js';
import { boundRefusedArguments } from '../features/bounded-refused-arguments/bound-refused-arguments.js';
import { finishingToolName } from '../features/finishing-tool/finishing-tool.js';
import { BOUNDED_REFUSED_ARGUMENTS, MCP_CHANGE_RECORDS } from '../config/kernel-flags.js';
import { runOf } from '../decider/kernel-state.js';
import { turnConfig } from '../features/follow-up-turns/turn-step.js';

/** What performing an effect needs from the runner's options. */
export type EffectContext = {
  readonly config: KernelConfig;
  readonly ports: KernelPorts;
  readonly clock: Clock;
};

type Payload = CorrexEvent['payload'];

/** A port was not wired (a provider named by a model profile is missing). A setup mistake. */
export class KernelWiringError extends CorrexError {
  constructor(message: string) {
    super('kernel_wiring', message);
  }
}

/** Why an answer has no recordable form (it breaks its schema or canonical JSON), if it has none. */
function whyUnrecordable(
  payload: Extract<Payload, { type: 'inference_completed' }>,
): string | undefined {
  const parsed = InferenceResultSchema.safeParse(payload.result);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `$.result.${issue?.path.map(String).join('.') ?? ''} ${issue?.message ?? 'is invalid'}`;
  }
  try {
    canonicalJson(payload);
    return undefined;
  } catch (error) {
    if (error instanceof NonCanonicalValueError) return error.message;
    throw error;
  }
}

/** The answer as recorded: under `bounded-refused-arguments`, refused megabytes kept as heads. */
function boundedAnswer(
  config: KernelConfig,
  state: KernelState,
  answer: InferenceResult,
): InferenceResult {
  if (!config.behaviour.flags.has(BOUNDED_REFUSED_ARGUMENTS.name)) return answer;
  const stage = turnConfig(config, state.features.turns).workflow.stages.get(
    runOf(state)?.stageId ?? '',
  );
  if (stage === undefined) return answer;
  return boundRefusedArguments(config, answer, stage.allowedTools, finishingToolName(stage));
}

const ABORTED = Symbol('aborted');

/** The promise's value, or ABORTED as soon as the signal aborts (whichever comes first). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.resolve(ABORTED);
  }
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Performs one effect through its port and returns the input events that record its result
 * (none when it was aborted and has nothing to record: it stays pending).
 */
export async function runEffect(
  options: EffectContext,
  state: KernelState,
  effect: Exclude<Effect, { type: 'await_approval' | 'run_subagent' }>,
  signal: AbortSignal,
): Promise<Payload[]> {
  const { config, ports } = options;
  switch (effect.type) {
    case 'infer': {
      const provider = ports.providers.get(effect.provider);
      if (provider === undefined) {
        throw new KernelWiringError(
          `no inference provider named ${effect.provider} is wired (request ${effect.requestId})`,
        );
      }
      try {
        // The runner stops waiting the moment the call is aborted, and a result that arrives
        // after its abort is never recorded: the request stays pending and runs on resume.
        const answer = await untilAborted(provider.infer(effect.request, signal), signal);
        if (answer === ABORTED || signal.aborted) return [];
        const result = boundedAnswer(config, state, answer);
        const completed: Payload = {
          type: 'inference_completed',
          requestId: effect.requestId,
          provider: provider.name,
          requestDigest: effect.requestDigest,
          result,
        };
        const unrecordable = whyUnrecordable(completed);
        // An answer that cannot be written down would stop the session at every resume: record
        // that the answer was malformed instead, which the stage's retry policy reads.
        if (unrecordable !== undefined) {
          throw new InferenceError({
            category: 'malformed_response',
            provider: provider.name,
            message: `the answer cannot be recorded: ${unrecordable}`,
          });
        }
        return [completed];
      } catch (error) {
        if (!(error instanceof InferenceError)) throw error;
        // We aborted it (stop or cancel): a model call has no effect to record, and recording a
        // failure would spend a stage attempt. The request stays pending and runs on resume.
        if (signal.aborted) return [];
        return [
          {
            type: 'inference_failed',
            requestId: effect.requestId,
            provider: provider.name,
            model: effect.request.model,
            category: error.category,
            message: error.message,
            ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
          },
        ];
      }
    }
    case 'wait': {
      if (ports.timer === undefined) {
        throw new KernelWiringError(
          `a provider asked for a ${effect.delayMs} ms retry delay but no Timer is wired`,
        );
      }
      // What is left of the delay by this runner's clock (all of it after a restart is at most delayMs).
      const left = Date.parse(effect.until) - Date.parse(options.clock.now());
      await ports.timer.sleep(Math.min(Math.max(left, 0), effect.delayMs), signal);
      // Cut short by a cancel, a pause or a stop: nothing happened; the wait is pending again on resume.
      if (signal.aborted) return [];
      return [{ type: 'retry_delay_elapsed', until: effect.until }];
    }
    case 'probe': {
      const observations = [];
      for (const path of effect.paths) observations.push(await ports.probe.observe(path));
      return observations.map((observation) => ({
        type: 'world_observed',
        callId: effect.callId,
        observation,
      }));
    }
    case 'run_diagnostics': {
      const base = {
        type: 'language_diagnostics_recorded' as const,
        stageId: effect.stageId,
        attempt: effect.attempt,
      };
      if (ports.diagnostics === undefined)
        return [
          {
            ...base,
            server: 'none',
            method: 'unavailable',
            files: [],
            error: 'no language server is wired into this runner',
            durationMs: 0,
          },
        ];
      const run = await ports.diagnostics.diagnose(
        { workspaceRoot: state.session.workspace ?? '/', files: effect.files },
        signal,
      );
      if (signal.aborted) return [];
      return [{ ...base, ...run }];
    }
    case 'detect_checks': {
      if (ports.checks === undefined) {
        throw new KernelWiringError(
          "the session detects the project's checks at its start but no ProjectCheckDetector is wired",
        );
      }
      const detected = await ports.checks.detect(state.session.workspace ?? '/', signal);
      if (signal.aborted) return [];
      return [
        {
          type: 'project_checks_detected',
          checks: [...detected.checks],
          problems: [...detected.problems],
        },
      ];
    }
    case 'run_analysis': {
      if (ports.analysis === undefined) {
        throw new KernelWiringError(
          `stage ${effect.stageId} has definition-of-done checks but no StaticAnalysisRunner is wired`,
        );
      }
      const run = await ports.analysis.run(
        {
          name: effect.name,
          command: effect.command,
          workspaceRoot: state.session.workspace ?? '/',
        },
        signal,
      );
      return [
        {
          type: 'dod_check_ran',
          stageId: effect.stageId,
          attempt: effect.attempt,
          name: effect.name,
          command: effect.command,
          ...wellFormedDeep(run),
        },
      ];
    }
    case 'run_pre_tool_use_hooks': {
      const hooks = (config.hooks?.pre_tool_use ?? []).filter((hook) =>
        effect.hooks.includes(hook.name),
      );
      const input = {
        event: 'pre_tool_use',
        sessionId: state.session.sessionId,
        stageId: effect.stageId,
        callId: effect.callId,
        tool: effect.tool,
        args: effect.args,
        tier: effect.tier,
        findings: effect.findings,
        targets: effect.targets,
      };
      const results =
        ports.hooks === undefined
          ? hooks.map((hook) => ({
              hook: hook.name,
              outcome: 'failed_to_start' as const,
              decision: 'block' as const,
              tier: null,
              reason: 'this runner has no hook runner wired',
              durationMs: 0,
            }))
          : await ports.hooks.runPreToolUse(
              { hooks, workspaceRoot: state.session.workspace ?? '/', input },
              signal,
            );
      // Stopped mid-hook: nothing is recorded, the hooks run again on resume.
      if (signal.aborted) return [];
      return [{ type: 'pre_tool_use_hooks_ran', callId: effect.callId, results }];
    }
    case 'execute': {
      const tool = config.tools.get(effect.tool);
      if (tool === undefined)
        throw new KernelWiringError(
          `tool ${effect.tool} has no contract in the kernel configuration`,
        );
      const execution = await ports.tools.run(
        {
          callId: effect.callId,
          tool,
          args: effect.args,
          workspaceRoot: state.session.workspace ?? '/',
          homeDirectory: config.homeDirectory,
          targets: effect.targets,
          observations: state.tools.observations,
          // What the call was approved to reach beyond the list, for this call only.
          egressAllowlist:
            effect.egressHosts === undefined
              ? state.tools.egressAllowlist
              : [...new Set([...state.tools.egressAllowlist, ...effect.egressHosts])].sort(),
          commandShell: config.behaviour.flags.has(EXEC_BASH.name) ? 'bash' : 'sh',
          ...(config.behaviour.flags.has(MCP_CHANGE_RECORDS.name)
            ? { mcpChangeRecords: true }
            : {}),
        },
        signal,
      );
      return [
        {
          type: 'tool_receipt',
          callId: effect.callId,
          tool: effect.tool,
          args: effect.args as Record<string, never>,
          // What a tool hands back is the world's text: a lone surrogate in it (output parsed
          // from JSON) would make the receipt unrecordable, and the call would run again.
          ...wellFormedDeep(execution),
        },
      ];
    }
  }
}
