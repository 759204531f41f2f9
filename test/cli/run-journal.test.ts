import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../../src/core/context/tokenizer.js';
import { sse, type FakeHandler } from '../providers/fake-http-server.js';
import { chatCompletionStream } from '../providers/openai-wire.js';
import { writeThenFinish } from '../support/model-turns.js';
import { cliWorld } from './cli-world.js';
import { correx } from './cli-process.js';

type Line = { payload: { type: string } & Record<string, unknown> };

/** `limits:` and `journal:` in the user's harness.yaml, through a real `correx run` and a loopback model. */
describe('correx run with limits and journal settings', () => {
  const world = cliWorld('correx-journal-test-');
  const { home, workflowFile } = world;

  /** `correx run` in auto mode in `dir`, which must complete; its session id and events. */
  async function runInAuto(dir: string) {
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
    return { run, id, lines };
  }

  it('compacts a long stage as the file says, records the limits, and replays', async () => {
    writeFileSync(
      join(home, 'harness.yaml'),
      'limits:\n  turnsPerStage: 20\n  modelTimeout: 90s\njournal:\n  compactAfter: 4\n  keep: 2\n  summaryMaxTokens: 60\n',
    );
    const dir = world.workspace('long');
    writeFileSync(join(dir, 'notes.txt'), 'a line of notes\n');
    // 15 turns in all: past the default 12 a stage may take, within the file's 20.
    const reads = Array.from({ length: 13 }, (_, index) =>
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
    const { id, lines } = await runInAuto(dir);
    const configured = lines.find((line) => line.payload.type === 'session_configured')!;
    expect(
      (configured.payload.configuration as { limits: Record<string, number> }).limits,
    ).toMatchObject({
      compactJournalAfter: 4,
      compactJournalKeep: 2,
      compactJournalMaxTokens: 60,
      maxTurnsPerStage: 20,
      inferenceTimeoutMs: 90_000,
    });
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

  it('with summary: model, the model writes the summaries over the wire, and replay reads them', async () => {
    writeFileSync(
      join(home, 'harness.yaml'),
      'journal:\n  compactAfter: 4\n  keep: 2\n  summaryMaxTokens: 80\n  summary: model\n',
    );
    const dir = world.workspace('long-model');
    writeFileSync(join(dir, 'notes.txt'), 'a line of notes\n');
    const turns = [
      ...Array.from({ length: 6 }, (_, index) =>
        sse(
          chatCompletionStream({
            toolCalls: [
              {
                id: `read_${index}`,
                name: 'read_file',
                arguments: JSON.stringify({ path: 'notes.txt' }),
              },
            ],
          }),
        ),
      ),
      ...writeThenFinish('hello.txt', 'hello\n'),
    ];
    let summaries = 0;
    // A request that offers no tools is a summary request; the rest are the stage's turns.
    const dispatch: FakeHandler = (request, response) => {
      const tools = (request.body as { tools?: unknown[] }).tools ?? [];
      if (tools.length > 0) return turns.shift()!(request, response);
      summaries += 1;
      return sse(
        chatCompletionStream({
          text: [`Read notes.txt ${summaries} times; it says a line of notes.`],
        }),
      )(request, response);
    };
    world.model.reply(dispatch);
    const { run, id, lines } = await runInAuto(dir);
    // The progress view names the compaction once, not the summary as the model's own turn.
    expect(run.stdout).toMatch(
      /journal: \d+ older entries of stage implement folded into a summary the model wrote/,
    );
    expect(run.stdout).not.toContain('model: Read notes.txt');
    const requested = lines.filter((line) => line.payload.type === 'journal_summary_requested');
    const compacted = lines.filter((line) => line.payload.type === 'journal_compacted');
    expect(summaries).toBeGreaterThanOrEqual(2);
    expect(requested).toHaveLength(summaries);
    expect(compacted).toHaveLength(summaries);
    expect(compacted.at(-1)!.payload.summary).toContain(`Read notes.txt ${summaries} times`);
    expect(compacted.at(-1)!.payload.requestId).toBe(requested.at(-1)!.payload.requestId);
    // The summary's tokens were reported and are the session's too.
    const completed = lines.filter(
      (line) =>
        line.payload.type === 'inference_completed' &&
        line.payload.requestId === requested[0]!.payload.requestId,
    );
    expect(completed).toHaveLength(1);
    expect((await correx(home, ['replay', id, '--verify'], world.env)).code).toBe(0);
  });
});
