/** Bodies in Anthropic's Messages API wire format. */
export type WireToolUse = { id: string; name: string; input: string };

export function message(options: {
  text?: string;
  toolUses?: { id: string; name: string; input: unknown }[];
}) {
  return {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-served',
    content: [
      ...(options.text === undefined ? [] : [{ type: 'text', text: options.text }]),
      ...(options.toolUses ?? []).map((use) => ({ type: 'tool_use', ...use })),
    ],
    stop_reason: options.toolUses ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 42, output_tokens: 7 },
  };
}

/** A streamed message; tool inputs arrive as `input_json_delta` pieces (raw text, maybe broken). */
export function messageStream(options: { text?: string[]; toolUses?: WireToolUse[] }) {
  const events: { event: string; data: unknown }[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          ...message({}),
          content: [],
          stop_reason: null,
          usage: { input_tokens: 42, output_tokens: 1 },
        },
      },
    },
  ];
  let index = 0;
  if (options.text) {
    events.push({
      event: 'content_block_start',
      data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
    });
    for (const piece of options.text) {
      events.push({
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } },
      });
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
    index += 1;
  }
  for (const use of options.toolUses ?? []) {
    events.push({
      event: 'content_block_start',
      data: {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: use.id, name: use.name, input: {} },
      },
    });
    const half = Math.floor(use.input.length / 2);
    for (const part of [use.input.slice(0, half), use.input.slice(half)]) {
      events.push({
        event: 'content_block_delta',
        data: {
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: part },
        },
      });
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
    index += 1;
  }
  events.push({
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: options.toolUses ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: 7 },
    },
  });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return events;
}

export function anthropicError(type: string, text: string) {
  return { type: 'error', error: { type, message: text } };
}
