import {
  createPreimageStore,
  preimageDirectory
} from "./chunk-76ZWS4BR.js";
import {
  parseDuration
} from "./chunk-BEI6ZGZB.js";
import {
  replay,
  sessionProjection
} from "./chunk-OYJRPCLU.js";
import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/interfaces/cli/headless-run.ts
var JSON_HELP = "print NDJSON on stdout: each event as `correx tail --json` prints it, then a summary object (docs/headless.md)";
var WAIT_HELP = "without a terminal in prompt mode: wait for decisions made elsewhere (correx approve, the web page), each up to DURATION if given";
function waitDuration(option) {
  if (typeof option !== "string") return void 0;
  const ms = parseDuration(option);
  if (ms === null)
    throw new CorrexError(
      "usage",
      `--wait-for-approval takes a duration such as 90s, 30m or 2h, got ${JSON.stringify(option)}`
    );
  return ms;
}
function refuseUnattendedPrompt(context, mode, options) {
  if (mode !== "prompt" || context.ask !== void 0 || options.waitForApproval !== void 0)
    return;
  throw new CorrexError(
    "usage",
    "prompt mode asks for approvals on a terminal and stdin is not one: pass --mode auto (or yolo, deny), or --wait-for-approval [DURATION] to wait for `correx approve` or the web page"
  );
}
async function announceWait(context, store, rootSessionId, wait, stream) {
  const { state } = await replay(store, sessionProjection, wait.sessionId);
  const pending = state.pendingApprovals.find((call) => call.callId === wait.callId);
  const decide = [
    `correx approve ${wait.sessionId} ${wait.callId}`,
    `correx deny ${wait.sessionId} ${wait.callId} --reason ...`
  ];
  const until = wait.until === null ? null : new Date(wait.until).toISOString();
  if (wait.unattended === true)
    context.err(
      `correx: ${wait.callId}${pending === void 0 ? "" : ` (${pending.tool}, ${pending.tier})`} needs a person's decision and stdin is not a terminal to ask on: stopping with the session open (exit 4). Decide it with ${decide[0]} | ${decide[1]}, then correx resume ${rootSessionId}; or pass --wait-for-approval [DURATION] to wait for decisions`
    );
  else if (context.ask === void 0)
    context.err(
      `correx: waiting ${until === null ? "" : `until ${until} `}for a decision on ${wait.callId}${pending === void 0 ? "" : ` (${pending.tool}, ${pending.tier})`}: ${decide[0]} | ${decide[1]} | or the session's page of correx serve`
    );
  await stream?.write({
    type: "waiting",
    for: "approval",
    sessionId: rootSessionId,
    approvalSessionId: wait.sessionId,
    callId: wait.callId,
    tool: pending?.tool ?? null,
    tier: pending?.tier ?? null,
    until,
    ...wait.unattended === true ? { stopping: true } : {},
    decide
  });
}
function storedText(correxHome) {
  const blobs = createPreimageStore(preimageDirectory(correxHome));
  return (sha256) => {
    const bytes = blobs.get(sha256);
    if (bytes === null || bytes.subarray(0, 8e3).includes(0)) return null;
    return bytes.toString("utf8");
  };
}

export {
  JSON_HELP,
  WAIT_HELP,
  waitDuration,
  refuseUnattendedPrompt,
  announceWait,
  storedText
};
