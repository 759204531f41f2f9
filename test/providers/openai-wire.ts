/** Bodies in the OpenAI chat-completions wire format, as llama-server, vLLM and OpenAI send them. */
export type WireToolCall = { id: string; name: string; arguments: string };

export function chatCompletion(options: {
  content?: string | null;
  toolCalls?: WireToolCall[];
  finishReason?: string;
  model?: string;
}) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1_764_000_000,
    model: options.model ?? 'served-model',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: options.content ?? null,
          ...(options.toolCalls === undefined
            ? {}
            : {
                tool_calls: options.toolCalls.map((call) => ({
                  id: call.id,
                  type: 'function',
                  function: { name: call.name, arguments: call.arguments },
                })),
              }),
        },
        finish_reason: options.finishReason ?? (options.toolCalls ? 'tool_calls' : 'stop'),
      },
    ],
    usage: { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 },
  };
}

const chunk = (delta: unknown, finishReason: string | null = null, usage?: unknown) =>
  JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1_764_000_000,
    model: 'served-model',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
    ...(usage === undefined ? {} : { usage }),
  });

/** A streamed answer: text in pieces, then tool calls with arguments split across chunks. */
export function chatCompletionStream(options: {
  text?: string[];
  toolCalls?: WireToolCall[];
}): string[] {
  const events: string[] = [chunk({ role: 'assistant', content: '' })];
  for (const piece of options.text ?? []) events.push(chunk({ content: piece }));
  (options.toolCalls ?? []).forEach((call, index) => {
    const half = Math.floor(call.arguments.length / 2);
    events.push(
      chunk({
        tool_calls: [
          {
            index,
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: call.arguments.slice(0, half) },
          },
        ],
      }),
    );
    events.push(
      chunk({ tool_calls: [{ index, function: { arguments: call.arguments.slice(half) } }] }),
    );
  });
  events.push(chunk({}, options.toolCalls ? 'tool_calls' : 'stop'));
  events.push(
    JSON.stringify({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1_764_000_000,
      model: 'served-model',
      choices: [],
      usage: { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 },
    }),
  );
  events.push('[DONE]');
  return events;
}
