// src/infrastructure/telemetry/session-spans.ts
function sessionSpans(rootSessionId, eventsOf) {
  const spans = [];
  collect(rootSessionId, null, eventsOf, spans);
  return spans;
}
function collect(sessionId, parentId, eventsOf, spans) {
  const events = eventsOf(sessionId);
  if (events.length === 0) return;
  const open = /* @__PURE__ */ new Map();
  const close = (key, endTime, error = null, more = {}) => {
    const span = open.get(key);
    if (span === void 0) return;
    open.delete(key);
    spans.push({ ...span, attributes: { ...span.attributes, ...more }, endTime, error });
  };
  const sessionKey = `session:${sessionId}`;
  open.set(sessionKey, {
    id: sessionKey,
    parentId,
    name: "correx session",
    startTime: events[0].timestamp,
    attributes: { "correx.session.id": sessionId },
    events: []
  });
  let stageKey = null;
  let inputTokens = 0;
  let outputTokens = 0;
  for (const event of events) {
    const time = event.timestamp;
    const payload = event.payload;
    const session2 = open.get(sessionKey);
    switch (payload.type) {
      case "session_created":
        session2.attributes["correx.workflow.id"] = payload.workflowId;
        break;
      case "stage_started":
        stageKey = `stage:${sessionId}:${payload.stageId}:${payload.attempt}`;
        open.set(stageKey, {
          id: stageKey,
          parentId: sessionKey,
          name: `stage ${payload.stageId}`,
          startTime: time,
          attributes: {
            "correx.stage.id": payload.stageId,
            "correx.stage.attempt": payload.attempt
          },
          events: []
        });
        break;
      case "stage_completed":
        close(`stage:${sessionId}:${payload.stageId}:${payload.attempt}`, time, null, {
          "correx.stage.outcome": "completed"
        });
        break;
      case "stage_failed":
        close(`stage:${sessionId}:${payload.stageId}:${payload.attempt}`, time, payload.message, {
          "correx.stage.outcome": "failed",
          "error.type": payload.category
        });
        break;
      case "inference_requested":
      case "journal_summary_requested":
        open.set(`model:${payload.requestId}`, {
          id: `model:${payload.requestId}`,
          parentId: stageKey ?? sessionKey,
          name: `chat ${payload.model}`,
          startTime: time,
          attributes: {
            "gen_ai.operation.name": "chat",
            "gen_ai.provider.name": payload.provider,
            "gen_ai.request.model": payload.model,
            "correx.request.id": payload.requestId
          },
          events: []
        });
        break;
      case "inference_completed":
        inputTokens += payload.result.usage.inputTokens;
        outputTokens += payload.result.usage.outputTokens;
        close(`model:${payload.requestId}`, time, null, {
          "gen_ai.response.model": payload.result.modelId,
          "gen_ai.usage.input_tokens": payload.result.usage.inputTokens,
          "gen_ai.usage.output_tokens": payload.result.usage.outputTokens,
          "gen_ai.response.finish_reasons": payload.result.finishReason
        });
        break;
      case "inference_failed":
        close(`model:${payload.requestId}`, time, payload.message, {
          "error.type": payload.category
        });
        break;
      case "tool_call_proposed":
        open.set(`tool:${payload.callId}`, {
          id: `tool:${sessionId}:${payload.callId}`,
          parentId: stageKey ?? sessionKey,
          name: `execute_tool ${payload.tool}`,
          startTime: time,
          attributes: {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": payload.tool,
            "gen_ai.tool.call.id": payload.callId
          },
          events: []
        });
        break;
      case "tool_call_assessed": {
        const span = open.get(`tool:${payload.callId}`);
        if (span !== void 0) {
          span.attributes["correx.verdict"] = payload.verdict;
          span.attributes["correx.tier"] = payload.tier;
        }
        break;
      }
      case "approval_requested":
      case "approval_granted":
      case "approval_denied":
        open.get(`tool:${payload.callId}`)?.events.push({
          name: payload.type,
          time,
          attributes: payload.type === "approval_requested" ? { "correx.tier": payload.tier } : { "correx.approver": `${payload.by.kind}:${payload.by.id}` }
        });
        break;
      case "tool_receipt":
        close(
          `tool:${payload.callId}`,
          time,
          payload.outcome === "succeeded" ? null : payload.error ?? payload.outcome,
          {
            "correx.tool.outcome": payload.outcome,
            ...payload.exitCode === null ? {} : { "process.exit.code": payload.exitCode }
          }
        );
        break;
      case "tool_call_rejected":
        close(`tool:${payload.callId}`, time, `rejected: ${payload.reason}`, {
          "correx.tool.outcome": "rejected"
        });
        break;
      case "subagent_started":
        collect(payload.childSessionId, stageKey ?? sessionKey, eventsOf, spans);
        break;
      case "workflow_completed":
      case "workflow_failed":
      case "workflow_cancelled":
        session2.attributes["correx.session.status"] = payload.type.slice("workflow_".length);
        break;
      default:
        break;
    }
  }
  const end = events.at(-1).timestamp;
  const session = open.get(sessionKey);
  session.attributes["gen_ai.usage.input_tokens"] = inputTokens;
  session.attributes["gen_ai.usage.output_tokens"] = outputTokens;
  for (const key of [...open.keys()].reverse()) close(key, end);
}

export {
  sessionSpans
};
