import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sse } from '../providers/fake-http-server.js';
import { chatCompletionStream } from '../providers/openai-wire.js';
import { cliWorld } from './cli-world.js';
import { correx } from './cli-process.js';

const WORKFLOW = `id: exec-once
initialStage: implement
stages:
  - id: implement
    role: implementer
    instructions: Change the workspace as the task says.
    allowedTools: [read_file, write_file, exec]
    capabilities: [tool_calling]
    artifact:
      kind: change
      schema:
        type: object
        properties:
          summary: { type: string }
          filesChanged: { type: array, items: { type: string } }
        required: [summary, filesChanged]
    transitions:
      - when: { on: success }
        end: completed
      - when: { on: failure }
        end: failed
`;

/** A command that prints 50 numbered lines and fails. */
const FAILING = 'for i in $(seq 1 50); do echo "out $i"; done; exit 3';

/** What a person watching `run`, `tail` and `show` reads of a turn with two parallel calls. */
describe('correx run progress: the model text, paired calls, a failed command’s output', () => {
  const world = cliWorld('correx-progress-test-', WORKFLOW);
  const { root, home, workflowFile } = world;

  it('prints what the model said, each call with its verdict and result under one tag, and the failed output bounded', async () => {
    world.model.reply(
      sse(
        chatCompletionStream({
          text: ['I will write the note ', 'and run the check.'],
          toolCalls: [
            {
              id: 'call_1',
              name: 'write_file',
              arguments: JSON.stringify({ path: 'note.txt', content: 'hi\n' }),
            },
            { id: 'call_2', name: 'exec', arguments: JSON.stringify({ command: FAILING }) },
          ],
        }),
      ),
      sse(
        chatCompletionStream({
          toolCalls: [
            {
              id: 'call_3',
              name: 'finish_change',
              arguments: JSON.stringify({ summary: 'wrote note.txt', filesChanged: ['note.txt'] }),
            },
          ],
        }),
      ),
    );
    const dir = join(root, 'work');
    mkdirSync(dir, { recursive: true });
    const result = await correx(
      home,
      ['run', 'write a note', '--workspace', dir, '--workflow', workflowFile, '--mode', 'auto'],
      world.env,
    );
    expect(result.stdout, result.stderr).toContain('✓ workflow completed');
    const sessionId = /^session (\S+)$/m.exec(result.stdout)![1]!;

    const expectProgress = (text: string) => {
      expect(text).toMatch(/model: I will write the note and run the check\./);
      expect(text).toMatch(/\[1\.1\] write_file \{"path":"note\.txt".* · ALLOW T\d risk \w+/);
      expect(text).toMatch(/\[1\.2\] exec \{"command":"for i in.* · \w+ T\d risk \w+/);
      expect(text).toMatch(/\[1\.1\] ✓ write_file succeeded/);
      expect(text).toMatch(/\[1\.2\] ✗ exec failed \(exit 3\)/);
      // The head and the tail of the output, around what was left out.
      const output = text
        .split('\n')
        .filter((line) => line.includes('│ '))
        .map((line) => line.slice(line.indexOf('│ ') + 2));
      expect(output).toEqual([
        ...Array.from({ length: 10 }, (_, index) => `out ${index + 1}`),
        '… 20 lines omitted …',
        ...Array.from({ length: 20 }, (_, index) => `out ${index + 31}`),
      ]);
    };
    expectProgress(result.stdout);
    const tail = await correx(home, ['tail', sessionId]);
    expectProgress(tail.stdout);
    const shown = await correx(home, ['show', sessionId]);
    expectProgress(shown.stdout);
  });
});
