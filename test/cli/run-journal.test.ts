import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../../src/core/context/tokenizer.js';
import { sse } from '../providers/fake-http-server.js';
import { chatCompletionStream } from '../providers/openai-wire.js';
import { writeThenFinish } from '../support/model-turns.js';
import { cliWorld } from './cli-world.js';
import { correx } from './cli-process.js';

type Line = { payload: { type: string } & Record<string, unknown> };

/** `journal:` in the user's harness.yaml, through a real `correx run` and a loopback model. */
describe('correx run with journal limits', () => {
  const world = cliWorld('correx-journal-test-');
  const { home, workflowFile } = world;

  it('compacts a long stage as the file says, records the limits, and replays', async () => {
    writeFileSync(
      join(home, 'harness.yaml'),
      'journal:\n  compactAfter: 4\n  keep: 2\n  summaryMaxTokens: 60\n',
    );
    const dir = world.workspace('long');
    writeFileSync(join(dir, 'notes.txt'), 'a line of notes\n');
    const reads = Array.from({ length: 6 }, (_, index) =>
      sse(
        chatCompletionStream({
          text: [`Reading the notes again, pass ${index + 1}, to be sure nothing was missed.`],
          toolCalls: [
            {
              id: `read_${index}`,
              name: 'read_file',
              arguments: JSON.stringify({ path: 'notes.txt' }),
            },
          ],
        }),
      ),
    );
    world.model.reply(...reads, ...writeThenFinish('hello.txt', 'hello\n'));
    const run = await correx(
      home,
      [
        'run',
        'read the notes, then write hello.txt',
        '--workspace',
        dir,
        '--workflow',
        workflowFile,
        '--mode',
        'auto',
      ],
      world.env,
    );
    expect(run.code, run.stderr).toBe(0);
    const id = /session (\S+)/.exec(run.stdout)![1]!;
    const lines = (await correx(home, ['events', id, '--json'], world.env)).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Line);
    const configured = lines.find((line) => line.payload.type === 'session_configured')!;
    expect(
      (configured.payload.configuration as { limits: Record<string, number> }).limits,
    ).toMatchObject({ compactJournalAfter: 4, compactJournalKeep: 2, compactJournalMaxTokens: 60 });
    const summaries = lines
      .filter((line) => line.payload.type === 'journal_compacted')
      .map((line) => line.payload.summary as string);
    expect(summaries.length).toBeGreaterThanOrEqual(2);
    for (const summary of summaries) expect(estimateTokens(summary)).toBeLessThanOrEqual(60);
    // The last request the model saw carries the latest summary, not the first turn's result.
    const last = JSON.stringify(world.model.requests.at(-1)!.body);
    expect(last).toContain('Summary of earlier turns in this stage');
    expect(last).not.toContain('pass 1,');
    expect((await correx(home, ['replay', id, '--verify'], world.env)).code).toBe(0);
  });
});
