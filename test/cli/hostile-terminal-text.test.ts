import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { correxEventCatalog } from '../../src/core/event-catalog.js';
import { preimageDirectory } from '../../src/infrastructure/sandbox/preimage-store.js';
import { openSqliteEventStore } from '../../src/infrastructure/sqlite/sqlite-event-store.js';
import { appendSession, createExecRecorder } from '../server/support/exec-change-session.js';
import { tempDir } from '../support/temp-dir.js';
import { correx } from './cli-process.js';

const ESC = '\u001b';
const BEL = '\u0007';
/** Writes the operator's clipboard. */
const CLIPBOARD = `${ESC}]52;c;cHduZWQ=${BEL}`;
/** Clears the screen, then sets the window title. */
const CLEAR_AND_TITLE = `${ESC}[2J${ESC}]0;pwned${BEL}`;
/** The 8-bit CSI and a right-to-left override. */
const C1_AND_BIDI = '\u009b2J\u202e';
const HOSTILE_NAME = `evil${CLIPBOARD}.txt`;

/** Any character a terminal would act on or hide, as the escaping function sees them. */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

function hiddenIn(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.replaceAll('\t', ''))
    .filter((line) => HIDDEN.test(line));
}

/**
 * A session whose task, command, file name and file contents carry terminal escapes (what a
 * model or a repository could put there), then every text view of it through the real CLI on a
 * pipe: none may pass an escape or an invisible character to whatever shows its output.
 */
describe('terminal escapes in recorded names and contents', () => {
  it('never reach the output of diff, show, events, tail, sessions or undo', async () => {
    const root = realpathSync(tempDir('correx-hostile-text-'));
    const home = join(root, 'home');
    const workspace = join(root, 'ws');
    mkdirSync(home);
    mkdirSync(workspace);
    writeFileSync(join(workspace, 'plain.txt'), `before ${C1_AND_BIDI}\n`);
    const record = createExecRecorder(workspace, preimageDirectory(home));
    const command = `printf '%s\\n' '${CLEAR_AND_TITLE}${C1_AND_BIDI}' > '${HOSTILE_NAME}' && echo '${CLEAR_AND_TITLE}' >> plain.txt`;
    const store = openSqliteEventStore(join(home, 'correx.db'), { catalog: correxEventCatalog });
    try {
      await appendSession(store, 's1', [
        {
          type: 'session_created',
          task: `fix ${CLEAR_AND_TITLE} the ${C1_AND_BIDI} bug`,
          workspace,
          workflowId: 'default-coding',
          mode: 'auto',
        },
        { type: 'stage_started', stageId: 'implement', attempt: 1 },
        ...(await record('implement.1', 'implement', command)),
        { type: 'stage_completed', stageId: 'implement', attempt: 1 },
        { type: 'workflow_completed', finalStageId: 'implement', summary: `done ${CLIPBOARD}` },
      ]);
    } finally {
      await store.close();
    }

    const views = [
      ['diff', 's1'],
      ['show', 's1'],
      ['show', 's1', '--summary'],
      ['events', 's1'],
      ['tail', 's1'],
      ['sessions'],
      ['undo', 's1'],
    ];
    for (const view of views) {
      const result = await correx(home, view);
      expect(result.code, `${view.join(' ')}: ${result.stderr}`).toBe(0);
      expect(hiddenIn(result.stdout), view.join(' ')).toEqual([]);
      expect(hiddenIn(result.stderr), view.join(' ')).toEqual([]);
    }
    // On a pipe the machine form keeps its exact values: every line parses, the task is whole.
    const json = await correx(home, ['events', 's1', '--json']);
    expect(hiddenIn(json.stdout)).toEqual([]);
    const created = JSON.parse(json.stdout.split('\n')[0]!) as { payload: { task: string } };
    expect(created.payload.task).toBe(`fix ${CLEAR_AND_TITLE} the ${C1_AND_BIDI} bug`);
    // Escaped, not dropped: the person still sees what is there.
    const diff = (await correx(home, ['diff', 's1'])).stdout;
    expect(diff).toContain('evil\\x1b]52;c;cHduZWQ=\\x07.txt');
    expect(diff).toContain('+\\x1b[2J\\x1b]0;pwned\\x07\\x9b2J\\u{202E}');
  }, 120_000);
});
