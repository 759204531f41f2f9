import type { CorrexEvent } from '../../core/event-catalog.js';
import type { CliContext } from './cli-context.js';
import { createEventLines } from './paired-event-lines.js';

const GREEN = '\x1b[32m';
const RED = '\x1b[31m';
const DIM = '\x1b[2m';
const RESET = '\x1b[0m';

/** Colours a progress line by its mark: ✓ green, ✗ red, waits dim. Only on a terminal. */
export function colourLine(line: string, colour: boolean): string {
  if (!colour) return line;
  // A call's lines lead with its tag (`[2.1] ✗ exec failed`): the mark is the first thing after it.
  const mark = line.trimStart().replace(/^\[[^\]]*\] /, '')[0];
  if (mark === '✓') return `${GREEN}${line}${RESET}`;
  if (mark === '✗') return `${RED}${line}${RESET}`;
  if (line.includes('waiting for approval')) return `${DIM}${line}${RESET}`;
  return line;
}

export type SessionProgress = {
  readonly onEvent: (event: CorrexEvent) => void;
  /** Stops the status line's clock and clears it. */
  dispose(): void;
};

/**
 * Live progress of a session: one line per meaningful event, and on a terminal a status line
 * saying what runs now (a model call, a tool) and for how long. Quiet extras off a terminal,
 * so piped output stays plain and stable.
 */
export function createSessionProgress(
  context: Pick<CliContext, 'out' | 'status' | 'terminal'>,
  colour: boolean,
): SessionProgress {
  let running: { label: string; since: number } | null = null;
  let root: string | undefined;
  // One pairing per session: a sub-session's call tags are its own.
  const views = new Map<string, ReturnType<typeof createEventLines>>();
  const render = () => {
    if (running === null) return context.status('');
    const seconds = Math.floor((Date.now() - running.since) / 1000);
    context.status(`… ${running.label} ${seconds}s`);
  };
  const timer = context.terminal ? setInterval(render, 1000) : undefined;
  timer?.unref();
  return {
    onEvent(event) {
      // Events of a stage's sub-session arrive here too: marked, so the two read apart.
      root ??= event.sessionId;
      let view = views.get(event.sessionId);
      if (view === undefined) views.set(event.sessionId, (view = createEventLines()));
      for (const line of view.lines(event))
        context.out(`${event.sessionId === root ? '' : '  ↳ '}${colourLine(line, colour)}`);
      const payload = event.payload;
      if (payload.type === 'inference_requested') {
        running = {
          label: `model ${payload.model} thinking (stage ${payload.stageId})`,
          since: Date.now(),
        };
      } else if (payload.type === 'journal_summary_requested') {
        running = {
          label: `model ${payload.model} summarising the journal (stage ${payload.stageId})`,
          since: Date.now(),
        };
      } else if (payload.type === 'tool_call_started') {
        running = { label: `running ${payload.tool}`, since: Date.now() };
      } else if (payload.type === 'inference_completed' || payload.type === 'tool_receipt') {
        running = null;
      }
      render();
    },
    dispose() {
      if (timer !== undefined) clearInterval(timer);
      running = null;
      context.status('');
    },
  };
}
