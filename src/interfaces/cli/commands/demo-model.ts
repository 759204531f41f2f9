import type { InferenceProvider } from '../../../core/inference/inference-provider.js';
import { createToolCallProposal } from '../../../core/inference/tool-call-arguments.js';
import {
  createScriptedProvider,
  type ScriptedTurn,
} from '../../../infrastructure/providers/scripted-provider.js';

const PLACEHOLDER = /\{\{artifact:([a-z]+)\}\}/g;

/**
 * The demo's model: a ScriptedProvider playing the bundled turns. An artifact hash cannot be
 * written into a script ahead of time (it covers the session id), so a turn may say
 * `{{artifact:<kind>}}` and gets the hash the context pack it was shown names for that kind,
 * which is how a real model learns it. A kind the pack does not name stays unresolved and the
 * artifact then fails validation, as a model's wrong guess would.
 */
export function createDemoModel(turns: readonly ScriptedTurn[], name: string): InferenceProvider {
  const inner = createScriptedProvider({ turns, name });
  return {
    name,
    async infer(request, signal) {
      const result = await inner.infer(request, signal);
      const pack = request.messages.map((message) => message.content).join('\n');
      const fill = (raw: string) =>
        raw.replace(PLACEHOLDER, (placeholder, kind: string) => {
          const named = [
            ...pack.matchAll(new RegExp(`Accepted ${kind} artifact ([0-9a-f]{64})`, 'g')),
          ];
          return named.at(-1)?.[1] ?? placeholder;
        });
      // The answer is text, or the finishing tool's arguments when the request offered one.
      return {
        ...result,
        text: fill(result.text),
        toolCalls: result.toolCalls.map((call) =>
          call.argsRaw.includes('{{artifact:')
            ? createToolCallProposal(call.callId, call.name, fill(call.argsRaw))
            : call,
        ),
      };
    },
  };
}
