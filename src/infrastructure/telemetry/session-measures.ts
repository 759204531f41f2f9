import type { CorrexEvent } from '../../core/event-catalog.js';
import type { ModelProfile } from '../../core/inference/model-profile.js';
import { tokenCost, recordedProfiles, recordsCachedInputPrices } from '../../core/kernel/index.js';
import type { SpanAttributes } from './session-spans.js';

/** The instruments correx reports, named after the OpenTelemetry GenAI conventions where they exist. */
export const SESSION_INSTRUMENTS = {
  'gen_ai.client.token.usage': {
    kind: 'histogram',
    unit: '{token}',
    description: 'Tokens per model call, by gen_ai.token.type (input or output)',
  },
  'gen_ai.client.operation.duration': {
    kind: 'histogram',
    unit: 's',
    description: 'Duration of a model call, from request to answer or failure',
  },
  'correx.model.cost': {
    kind: 'counter',
    unit: 'USD',
    description: "Cost of model calls by the profile's prices (priced profiles only)",
  },
  'correx.tool.calls': {
    kind: 'counter',
    unit: '{call}',
    description: 'Tool calls by tool and outcome (succeeded, failed, rejected, …)',
  },
  'correx.approvals': {
    kind: 'counter',
    unit: '{decision}',
    description: 'Approval decisions by outcome (granted or denied) and tier',
  },
  'correx.approval.wait.duration': {
    kind: 'histogram',
    unit: 's',
    description: 'Time a tool call waited for its approval decision',
  },
  'correx.stage.duration': {
    kind: 'histogram',
    unit: 's',
    description: 'Duration of a stage attempt by stage and outcome',
  },
  'correx.sessions': {
    kind: 'counter',
    unit: '{session}',
    description: 'Sessions that ended, by status (completed, failed, cancelled)',
  },
} as const;

export type InstrumentName = keyof typeof SESSION_INSTRUMENTS;

/** One value recorded on one instrument. */
export type Measurement = {
  readonly instrument: InstrumentName;
  readonly value: number;
  readonly attributes: SpanAttributes;
};

export type SessionMeasures = {
  /** The measurements this event completes (a duration needs the event that started it). */
  measure(event: CorrexEvent): readonly Measurement[];
};

const seconds = (from: string, to: string) => Math.max(0, Date.parse(to) - Date.parse(from)) / 1000;

/**
 * Folds events into measurements, durations from the recorded timestamps, so the numbers are
 * the log's and not the exporter's clock. Feed it every session's events (sub-sessions too) in
 * append order; state is kept per session. No prompt or response content is read.
 */
export function createSessionMeasures(): SessionMeasures {
  const started = new Map<string, string>();
  const profilesOf = new Map<string, readonly ModelProfile[]>();
  const cachedPriced = new Set<string>();
  const requests = new Map<string, { model: string; profileId: string; time: string }>();
  const workflowOf = new Map<string, string>();
  return {
    measure(event) {
      const payload = event.payload;
      const session = event.sessionId;
      const time = event.timestamp;
      switch (payload.type) {
        case 'session_created':
          workflowOf.set(session, payload.workflowId);
          return [];
        case 'session_configured':
          profilesOf.set(session, recordedProfiles(payload));
          if (recordsCachedInputPrices(payload)) cachedPriced.add(session);
          return [];
        case 'stage_started':
          started.set(`stage:${session}:${payload.stageId}:${payload.attempt}`, time);
          return [];
        case 'stage_completed':
        case 'stage_failed': {
          const key = `stage:${session}:${payload.stageId}:${payload.attempt}`;
          const from = started.get(key);
          started.delete(key);
          if (from === undefined) return [];
          return [
            {
              instrument: 'correx.stage.duration',
              value: seconds(from, time),
              attributes: {
                'correx.stage.id': payload.stageId,
                'correx.stage.outcome': payload.type === 'stage_completed' ? 'completed' : 'failed',
              },
            },
          ];
        }
        case 'inference_requested':
        case 'journal_summary_requested':
          requests.set(`${session}:${payload.requestId}`, {
            model: payload.model,
            profileId: payload.profileId,
            time,
          });
          return [];
        case 'inference_completed':
        case 'inference_failed': {
          const key = `${session}:${payload.requestId}`;
          const request = requests.get(key);
          requests.delete(key);
          if (request === undefined) return [];
          const model = { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': request.model };
          const duration: Measurement = {
            instrument: 'gen_ai.client.operation.duration',
            value: seconds(request.time, time),
            attributes:
              payload.type === 'inference_failed'
                ? { ...model, 'error.type': payload.category }
                : model,
          };
          if (payload.type === 'inference_failed') return [duration];
          const usage = payload.result.usage;
          const measurements: Measurement[] = [
            duration,
            {
              instrument: 'gen_ai.client.token.usage',
              value: usage.inputTokens,
              attributes: { ...model, 'gen_ai.token.type': 'input' },
            },
            {
              instrument: 'gen_ai.client.token.usage',
              value: usage.outputTokens,
              attributes: { ...model, 'gen_ai.token.type': 'output' },
            },
          ];
          const prices = profilesOf
            .get(session)
            ?.find((profile) => profile.id === request.profileId)?.prices;
          if (prices !== undefined)
            measurements.push({
              instrument: 'correx.model.cost',
              value: tokenCost(
                {
                  input: usage.inputTokens,
                  output: usage.outputTokens,
                  cached: usage.cachedInputTokens ?? 0,
                },
                prices,
                cachedPriced.has(session),
              ),
              attributes: model,
            });
          return measurements;
        }
        case 'approval_requested':
          started.set(`approval:${session}:${payload.callId}`, time);
          return [];
        case 'approval_granted':
        case 'approval_denied': {
          const key = `approval:${session}:${payload.callId}`;
          const from = started.get(key);
          started.delete(key);
          const outcome = payload.type === 'approval_granted' ? 'granted' : 'denied';
          const decision: Measurement = {
            instrument: 'correx.approvals',
            value: 1,
            attributes: {
              'correx.approval.outcome': outcome,
              'correx.approver.kind': payload.by.kind,
            },
          };
          return from === undefined
            ? [decision]
            : [
                decision,
                {
                  instrument: 'correx.approval.wait.duration',
                  value: seconds(from, time),
                  attributes: { 'correx.approval.outcome': outcome },
                },
              ];
        }
        case 'tool_call_proposed':
          started.set(`tool:${session}:${payload.callId}`, payload.tool);
          return [];
        case 'tool_receipt':
        case 'tool_call_rejected': {
          const key = `tool:${session}:${payload.callId}`;
          const tool = started.get(key);
          started.delete(key);
          if (tool === undefined) return [];
          return [
            {
              instrument: 'correx.tool.calls',
              value: 1,
              attributes: {
                'gen_ai.tool.name': tool,
                'correx.tool.outcome':
                  payload.type === 'tool_receipt' ? payload.outcome : 'rejected',
              },
            },
          ];
        }
        case 'workflow_completed':
        case 'workflow_failed':
        case 'workflow_cancelled':
          return [
            {
              instrument: 'correx.sessions',
              value: 1,
              attributes: {
                'correx.session.status': payload.type.slice('workflow_'.length),
                'correx.workflow.id': workflowOf.get(session) ?? 'unknown',
              },
            },
          ];
        default:
          return [];
      }
    },
  };
}
