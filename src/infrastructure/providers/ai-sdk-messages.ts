import type { ModelMessage } from 'ai';
import type { InferenceRequest } from '../../core/inference/inference-request.js';

/**
 * The request's messages as AI SDK messages: system text apart, an assistant turn's calls as
 * `tool-call` parts and each consecutive run of results as one `tool` message, so every
 * provider adapter writes its own native form (OpenAI-compatible `tool_calls` + `role: "tool"`,
 * Anthropic `tool_use` + `tool_result`). Deterministic: the same request, the same messages.
 */
export function toModelMessages(request: InferenceRequest): {
  system?: string;
  messages: ModelMessage[];
} {
  const system: string[] = [];
  const messages: ModelMessage[] = [];
  for (const message of request.messages) {
    switch (message.role) {
      case 'system':
        system.push(message.content);
        break;
      case 'user':
        messages.push({ role: 'user', content: message.content });
        break;
      case 'assistant':
        messages.push(
          message.toolCalls === undefined
            ? { role: 'assistant', content: message.content }
            : {
                role: 'assistant',
                content: [
                  ...(message.content === ''
                    ? []
                    : [{ type: 'text' as const, text: message.content }]),
                  ...message.toolCalls.map((call) => ({
                    type: 'tool-call' as const,
                    toolCallId: call.callId,
                    toolName: call.name,
                    input: argumentsOf(call.argsRaw),
                  })),
                ],
              },
        );
        break;
      case 'tool': {
        const part = {
          type: 'tool-result' as const,
          toolCallId: message.callId,
          toolName: message.toolName,
          output: { type: 'text' as const, value: message.content },
        };
        const previous = messages.at(-1);
        if (previous?.role === 'tool') previous.content.push(part);
        else messages.push({ role: 'tool', content: [part] });
        break;
      }
    }
  }
  return system.length === 0 ? { messages } : { system: system.join('\n\n'), messages };
}

/** What the system prompt says when the response schema cannot travel in `response_format`. */
export function responseSchemaInstruction(schema: Record<string, unknown>): string {
  return `Answer with one JSON value and nothing else. It must match this JSON Schema:\n${JSON.stringify(schema)}`;
}

export function withSchemaInPrompt(
  rendered: { system?: string; messages: ModelMessage[] },
  schema: Record<string, unknown> | undefined,
): { system?: string; messages: ModelMessage[] } {
  if (schema === undefined) return rendered;
  const instruction = responseSchemaInstruction(schema);
  return {
    ...rendered,
    system: rendered.system === undefined ? instruction : `${rendered.system}\n\n${instruction}`,
  };
}

/** A call's arguments as the model sent them: the object, or the raw text when it was none. */
function argumentsOf(argsRaw: string): unknown {
  try {
    const value: unknown = JSON.parse(argsRaw);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : argsRaw;
  } catch {
    return argsRaw;
  }
}
