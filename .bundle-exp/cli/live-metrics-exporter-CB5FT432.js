import {
  recordedProfiles,
  recordsCachedInputPrices,
  tokenCost
} from "./chunk-OYJRPCLU.js";
import "./chunk-COPIES7C.js";
import "./chunk-CORQQBM5.js";
import "./chunk-IRD534JB.js";
import "./chunk-A7ITNCWT.js";
import "./chunk-W32ANIA4.js";
import "./chunk-AYFXHFZY.js";
import "./chunk-7N5K7NRY.js";
import "./chunk-BDZLLWVY.js";

// src/infrastructure/telemetry/live-metrics-exporter.ts
import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";

// src/infrastructure/telemetry/session-measures.ts
var SESSION_INSTRUMENTS = {
  "gen_ai.client.token.usage": {
    kind: "histogram",
    unit: "{token}",
    description: "Tokens per model call, by gen_ai.token.type (input or output)"
  },
  "gen_ai.client.operation.duration": {
    kind: "histogram",
    unit: "s",
    description: "Duration of a model call, from request to answer or failure"
  },
  "correx.model.cost": {
    kind: "counter",
    unit: "USD",
    description: "Cost of model calls by the profile's prices (priced profiles only)"
  },
  "correx.tool.calls": {
    kind: "counter",
    unit: "{call}",
    description: "Tool calls by tool and outcome (succeeded, failed, rejected, \u2026)"
  },
  "correx.approvals": {
    kind: "counter",
    unit: "{decision}",
    description: "Approval decisions by outcome (granted or denied) and tier"
  },
  "correx.approval.wait.duration": {
    kind: "histogram",
    unit: "s",
    description: "Time a tool call waited for its approval decision"
  },
  "correx.stage.duration": {
    kind: "histogram",
    unit: "s",
    description: "Duration of a stage attempt by stage and outcome"
  },
  "correx.sessions": {
    kind: "counter",
    unit: "{session}",
    description: "Sessions that ended, by status (completed, failed, cancelled)"
  }
};
var seconds = (from, to) => Math.max(0, Date.parse(to) - Date.parse(from)) / 1e3;
function createSessionMeasures() {
  const started = /* @__PURE__ */ new Map();
  const profilesOf = /* @__PURE__ */ new Map();
  const cachedPriced = /* @__PURE__ */ new Set();
  const requests = /* @__PURE__ */ new Map();
  const workflowOf = /* @__PURE__ */ new Map();
  return {
    measure(event) {
      const payload = event.payload;
      const session = event.sessionId;
      const time = event.timestamp;
      switch (payload.type) {
        case "session_created":
          workflowOf.set(session, payload.workflowId);
          return [];
        case "session_configured":
          profilesOf.set(session, recordedProfiles(payload));
          if (recordsCachedInputPrices(payload)) cachedPriced.add(session);
          return [];
        case "stage_started":
          started.set(`stage:${session}:${payload.stageId}:${payload.attempt}`, time);
          return [];
        case "stage_completed":
        case "stage_failed": {
          const key = `stage:${session}:${payload.stageId}:${payload.attempt}`;
          const from = started.get(key);
          started.delete(key);
          if (from === void 0) return [];
          return [
            {
              instrument: "correx.stage.duration",
              value: seconds(from, time),
              attributes: {
                "correx.stage.id": payload.stageId,
                "correx.stage.outcome": payload.type === "stage_completed" ? "completed" : "failed"
              }
            }
          ];
        }
        case "inference_requested":
        case "journal_summary_requested":
          requests.set(`${session}:${payload.requestId}`, {
            model: payload.model,
            profileId: payload.profileId,
            time
          });
          return [];
        case "inference_completed":
        case "inference_failed": {
          const key = `${session}:${payload.requestId}`;
          const request = requests.get(key);
          requests.delete(key);
          if (request === void 0) return [];
          const model = { "gen_ai.operation.name": "chat", "gen_ai.request.model": request.model };
          const duration = {
            instrument: "gen_ai.client.operation.duration",
            value: seconds(request.time, time),
            attributes: payload.type === "inference_failed" ? { ...model, "error.type": payload.category } : model
          };
          if (payload.type === "inference_failed") return [duration];
          const usage = payload.result.usage;
          const measurements = [
            duration,
            {
              instrument: "gen_ai.client.token.usage",
              value: usage.inputTokens,
              attributes: { ...model, "gen_ai.token.type": "input" }
            },
            {
              instrument: "gen_ai.client.token.usage",
              value: usage.outputTokens,
              attributes: { ...model, "gen_ai.token.type": "output" }
            }
          ];
          const prices = profilesOf.get(session)?.find((profile) => profile.id === request.profileId)?.prices;
          if (prices !== void 0)
            measurements.push({
              instrument: "correx.model.cost",
              value: tokenCost(
                {
                  input: usage.inputTokens,
                  output: usage.outputTokens,
                  cached: usage.cachedInputTokens ?? 0
                },
                prices,
                cachedPriced.has(session)
              ),
              attributes: model
            });
          return measurements;
        }
        case "approval_requested":
          started.set(`approval:${session}:${payload.callId}`, time);
          return [];
        case "approval_granted":
        case "approval_denied": {
          const key = `approval:${session}:${payload.callId}`;
          const from = started.get(key);
          started.delete(key);
          const outcome = payload.type === "approval_granted" ? "granted" : "denied";
          const decision = {
            instrument: "correx.approvals",
            value: 1,
            attributes: {
              "correx.approval.outcome": outcome,
              "correx.approver.kind": payload.by.kind
            }
          };
          return from === void 0 ? [decision] : [
            decision,
            {
              instrument: "correx.approval.wait.duration",
              value: seconds(from, time),
              attributes: { "correx.approval.outcome": outcome }
            }
          ];
        }
        case "tool_call_proposed":
          started.set(`tool:${session}:${payload.callId}`, payload.tool);
          return [];
        case "tool_receipt":
        case "tool_call_rejected": {
          const key = `tool:${session}:${payload.callId}`;
          const tool = started.get(key);
          started.delete(key);
          if (tool === void 0) return [];
          return [
            {
              instrument: "correx.tool.calls",
              value: 1,
              attributes: {
                "gen_ai.tool.name": tool,
                "correx.tool.outcome": payload.type === "tool_receipt" ? payload.outcome : "rejected"
              }
            }
          ];
        }
        case "workflow_completed":
        case "workflow_failed":
        case "workflow_cancelled":
          return [
            {
              instrument: "correx.sessions",
              value: 1,
              attributes: {
                "correx.session.status": payload.type.slice("workflow_".length),
                "correx.workflow.id": workflowOf.get(session) ?? "unknown"
              }
            }
          ];
        default:
          return [];
      }
    }
  };
}

// src/infrastructure/telemetry/live-metrics-exporter.ts
var FINAL = /* @__PURE__ */ new Set(["workflow_completed", "workflow_failed", "workflow_cancelled"]);
function createLiveMetricsExporter(settings, report) {
  const exporter = new OTLPMetricExporter(settings.url === void 0 ? {} : { url: settings.url });
  const reader = new PeriodicExportingMetricReader({
    exporter: {
      export: (metrics, done) => exporter.export(metrics, (result) => {
        if (result.error !== void 0) report(result.error);
        done(result);
      }),
      forceFlush: () => exporter.forceFlush(),
      shutdown: () => exporter.shutdown(),
      selectAggregationTemporality: (kind) => exporter.selectAggregationTemporality(kind)
    },
    exportIntervalMillis: settings.intervalMs,
    exportTimeoutMillis: Math.min(3e4, settings.intervalMs)
  });
  const provider = new MeterProvider({
    resource: resourceFromAttributes({ "service.name": settings.serviceName }),
    readers: [reader]
  });
  const meter = provider.getMeter("correx");
  const instruments = /* @__PURE__ */ new Map();
  for (const [name, spec] of Object.entries(SESSION_INSTRUMENTS)) {
    const options = { unit: spec.unit, description: spec.description };
    instruments.set(
      name,
      spec.kind === "counter" ? meter.createCounter(name, options) : meter.createHistogram(name, options)
    );
  }
  const measures = createSessionMeasures();
  const flushing = (promise) => promise.catch(report);
  const children = /* @__PURE__ */ new Set();
  return {
    onEvent(event) {
      for (const measurement of measures.measure(event)) {
        const instrument = instruments.get(measurement.instrument);
        if ("add" in instrument) instrument.add(measurement.value, measurement.attributes);
        else instrument.record(measurement.value, measurement.attributes);
      }
      const type = event.payload.type;
      if (event.payload.type === "subagent_started") children.add(event.payload.childSessionId);
      if (FINAL.has(type) && !children.has(event.sessionId)) void flushing(provider.forceFlush());
    },
    flush: () => flushing(provider.forceFlush()),
    shutdown: () => flushing(provider.shutdown())
  };
}
export {
  createLiveMetricsExporter
};
