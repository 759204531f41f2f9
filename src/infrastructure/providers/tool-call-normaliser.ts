import { InferenceError } from '../../core/inference/inference-failure.js';
import { safeParseToolArguments } from '../../core/inference/tool-call-arguments.js';

/** The parts of a tool-call content or stream part the normaliser reads and rewrites. */
type ToolCallPart = { toolCallId: string; toolName: string; input: string };

/** The most characters of text and arguments one answer may carry before it is refused whole. */
export const MAX_ANSWER_CHARS = 4 * 1024 * 1024;

export type ToolCallNormaliser = {
  /**
   * Checks one tool call as the provider sent it, before the SDK parses it. Returns the part to
   * hand the SDK: an empty or repeated id replaced by a fresh one, and arguments correx will
   * refuse replaced by `{}` so the SDK never walks them (100,000 levels overflow its stack). A
   * call without a name cannot be proposed, so it fails the whole answer as malformed.
   */
  normalise<P extends ToolCallPart>(part: P): P;
  /**
   * Counts text as it arrives; an answer past `MAX_ANSWER_CHARS` is refused whole as malformed
   * (a runaway or hostile server), before the SDK parses it.
   */
  count(text: string): void;
  /** The model's argument text verbatim, by the id handed to the SDK. */
  rawInput(toolCallId: string): string | undefined;
};

export function createToolCallNormaliser(provider: string): ToolCallNormaliser {
  const rawInputs = new Map<string, string>();
  let count = 0;
  let size = 0;
  const counted = (text: string) => {
    size += text.length;
    if (size > MAX_ANSWER_CHARS) {
      throw new InferenceError({
        category: 'malformed_response',
        provider,
        message: `the answer holds more than the ${MAX_ANSWER_CHARS} characters of text and arguments correx records`,
      });
    }
  };
  return {
    count: counted,
    normalise(part) {
      count++;
      counted(part.input);
      if (part.toolName.trim() === '') {
        throw new InferenceError({
          category: 'malformed_response',
          provider,
          message: `tool call ${count} has no tool name`,
        });
      }
      const id =
        part.toolCallId.trim() === '' || rawInputs.has(part.toolCallId)
          ? uniqueId(rawInputs, count)
          : part.toolCallId;
      rawInputs.set(id, part.input);
      const readable = safeParseToolArguments(part.input).ok;
      return { ...part, toolCallId: id, input: readable ? part.input : '{}' };
    },
    rawInput: (toolCallId) => rawInputs.get(toolCallId),
  };
}

function uniqueId(taken: ReadonlyMap<string, string>, count: number): string {
  let id = `correx-call-${count}`;
  while (taken.has(id)) id = `${id}'`;
  return id;
}

// With the `u` flag a surrogate class matches only a surrogate that is not half of a pair.
const LONE_SURROGATES = /\p{Surrogate}/gu;

/**
 * Model text as Unicode: a lone surrogate (which a JSON `\ud800` escape can smuggle in) becomes
 * U+FFFD, as an invalid UTF-8 byte already does when the body is decoded.
 */
export function wellFormedText(text: string): string {
  return text.replace(LONE_SURROGATES, '\uFFFD');
}
