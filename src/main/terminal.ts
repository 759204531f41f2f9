import { StringDecoder } from 'node:string_decoder';
import { visibleText } from '../core/base/visible-text.js';

/** Ctrl-C, Ctrl-D, Enter (CR or LF), backspace (DEL or BS), Ctrl-U, ESC in raw mode. */
const CTRL_C = '\x03';
const CTRL_D = '\x04';
const BACKSPACE = new Set(['\x7f', '\b']);
const CTRL_U = '\x15';
const ENTER = new Set(['\r', '\n']);
const ESC = '\x1b';

/** The process's terminal: a live status line on stderr, and questions on stdin. */
export type Terminal = {
  /** Whether stderr is a terminal (status lines are written only then). */
  readonly isTerminal: boolean;
  status(text: string): void;
  clearStatus(): void;
  /**
   * Asks one question and reads one line typed after it was shown: keys typed before (while the
   * model was thinking) are discarded, never taken as the answer. Resolves with the line, or null
   * on Ctrl-D. Ctrl-C is the process's interrupt (SIGINT), as anywhere else; the caller aborts
   * `signal` to withdraw the question.
   */
  ask(question: string, signal: AbortSignal): Promise<string | null>;
};

export function createTerminal(): Terminal {
  const stream = process.stderr;
  const isTerminal = stream.isTTY === true;
  let shown = false;
  const clearStatus = () => {
    if (!shown) return;
    stream.write('\r\x1b[2K');
    shown = false;
  };
  return {
    isTerminal,
    status(text) {
      if (!isTerminal) return;
      clearStatus();
      if (text === '') return;
      const width = Math.max(20, (stream.columns || 80) - 1);
      stream.write(text.length > width ? `${text.slice(0, width - 1)}…` : text);
      shown = true;
    },
    clearStatus,
    ask(question, signal) {
      clearStatus();
      return readLineRaw(question, signal);
    },
  };
}

/**
 * One line from stdin in raw mode, echoed as typed. Whatever the terminal already holds when the
 * question starts (type-ahead, including a half-typed line) is read and dropped first: the
 * question is shown, and keys taken, only once two turns of the event loop have passed after
 * reading started, so at least one full poll of stdin has emptied what was buffered (an ordering,
 * not a delay).
 */
function readLineRaw(question: string, signal: AbortSignal): Promise<string | null> {
  const input = process.stdin;
  const output = process.stderr;
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    let armed = false;
    let discarded = 0;
    let line = '';
    const decoder = new StringDecoder('utf8');
    const wasRaw = input.isRaw;
    const finish = (settle: () => void) => {
      input.off('data', onData);
      signal.removeEventListener('abort', onAbort);
      input.setRawMode(wasRaw);
      input.pause();
      settle();
    };
    const onAbort = () => {
      output.write('\n');
      finish(() => reject(signal.reason));
    };
    const onData = (chunk: Buffer) => {
      if (!armed) {
        discarded += chunk.length;
        return;
      }
      for (const key of decoder.write(chunk)) {
        if (key === CTRL_C) {
          // Raw mode keeps the terminal from sending SIGINT: send it, so Ctrl-C here pauses the
          // session exactly as it does anywhere else (and the handler withdraws this question).
          process.kill(process.pid, 'SIGINT');
          return;
        }
        if (key === CTRL_D) {
          output.write('^D\n');
          return finish(() => resolve(null));
        }
        if (ENTER.has(key)) {
          output.write('\n');
          return finish(() => resolve(line));
        }
        if (BACKSPACE.has(key)) {
          if (line.length > 0) {
            line = [...line].slice(0, -1).join('');
            output.write('\b \b');
          }
        } else if (key === CTRL_U) {
          output.write('\b \b'.repeat([...line].length));
          line = '';
        } else if (key === ESC) {
          return; // an arrow or function key: the rest of the chunk is its sequence
        } else if (key >= ' ') {
          line += key;
          output.write(visibleText(key));
        }
      }
    };
    signal.addEventListener('abort', onAbort, { once: true });
    input.setRawMode(true);
    input.on('data', onData);
    input.resume();
    // The question appears only once the type-ahead is gone: a key typed after it is seen is an answer.
    setImmediate(() =>
      setImmediate(() => {
        if (signal.aborted) return;
        armed = true;
        if (discarded > 0)
          output.write(
            `(ignored ${discarded} key${discarded === 1 ? '' : 's'} typed before this question)\n`,
          );
        output.write(question);
      }),
    );
  });
}
