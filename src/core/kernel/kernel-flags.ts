import { defineBehaviourFlag, type BehaviourFlag } from '../base/behaviour-flag.js';

/**
 * The stage transcript reaches the model as native tool messages: an assistant turn carrying its
 * tool calls, then one tool result per call (refused, denied and interrupted calls included),
 * instead of text lines (`Tool call 1: …`, `Result of call …`).
 */
export const NATIVE_TOOL_TRANSCRIPT = defineBehaviourFlag({
  name: 'native-tool-transcript',
  description:
    'the stage transcript is rendered as native tool calls and one tool result per call, not as text',
});

/**
 * A stage whose model profile calls tools finishes by calling `finish_<artifact>` with the
 * artifact as its arguments; a plain-text answer is a validation failure naming that tool. The
 * JSON-answer form stays for profiles declared without tool calling.
 */
export const FINISHING_TOOL = defineBehaviourFlag({
  name: 'finishing-tool',
  description:
    'a tool-calling stage ends by calling finish_<artifact> whose parameters are the artifact schema',
});

/**
 * The context budget of a stage request also pays for what travels beside the messages: the tool
 * definitions and the response schema (a provider renders them into the prompt too), so the pack
 * plus them fits the window and `tokenEstimate` counts them.
 */
export const BUDGET_REQUEST_DEFINITIONS = defineBehaviourFlag({
  name: 'budget-request-definitions',
  description:
    'the context budget and token estimate of a request include its tool definitions and response schema',
});

/** The behaviour flags the kernel's stage requests and answers branch on. */
export const kernelFlags: readonly BehaviourFlag[] = [
  NATIVE_TOOL_TRANSCRIPT,
  FINISHING_TOOL,
  BUDGET_REQUEST_DEFINITIONS,
];
