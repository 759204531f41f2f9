import { sse, type FakeHandler } from '../providers/fake-http-server.js';
import { chatCompletionStream } from '../providers/openai-wire.js';

/**
 * A model's two answers over the OpenAI wire (streamed): a `write_file` call, then the stage's
 * change artifact naming the file, as a call of the finishing tool `finish_change`. Tests that run whole sessions through a real provider use it.
 */
export function writeThenFinish(path: string, content: string): [FakeHandler, FakeHandler] {
  return [
    sse(
      chatCompletionStream({
        toolCalls: [
          { id: 'call_1', name: 'write_file', arguments: JSON.stringify({ path, content }) },
        ],
      }),
    ),
    sse(
      chatCompletionStream({
        toolCalls: [
          {
            id: 'call_2',
            name: 'finish_change',
            arguments: JSON.stringify({ summary: `wrote ${path}`, filesChanged: [path] }),
          },
        ],
      }),
    ),
  ];
}
