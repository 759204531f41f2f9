import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { CorrexError } from '../../core/base/correx-error.js';

/** A language server broke the protocol, answered with an error, or went away. */
export class LanguageServerError extends CorrexError {
  constructor(message: string) {
    super('language_server', message);
  }
}

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

/**
 * JSON-RPC 2.0 over a language server's stdio with LSP's `Content-Length` framing: requests
 * answered by id, notifications handed to `onNotification`, requests from the server
 * (`workspace/configuration`, `client/registerCapability`...) answered with null. Owns the process.
 */
export class LspConnection {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private buffer = Buffer.alloc(0);
  private closed: Error | null = null;

  constructor(
    private readonly process: ChildProcessWithoutNullStreams,
    private readonly onNotification: (method: string, params: unknown) => void,
  ) {
    process.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    const end = (why: string) => this.fail(new LanguageServerError(why));
    process.on('error', (error) => end(`the language server could not run: ${error.message}`));
    process.on('exit', (code, signal) =>
      end(`the language server exited (${signal ?? `code ${code ?? 'none'}`})`),
    );
  }

  request(method: string, params: unknown): Promise<unknown> {
    if (this.closed !== null) return Promise.reject(this.closed);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method: string, params: unknown): void {
    if (this.closed === null) this.send({ jsonrpc: '2.0', method, params });
  }

  /** `shutdown` then `exit`; the process is killed if it does not go by itself. */
  async close(): Promise<void> {
    if (this.closed === null) {
      try {
        await this.request('shutdown', null);
        this.notify('exit', null);
      } catch {
        // Already gone: nothing to shut down.
      }
    }
    this.process.kill('SIGKILL');
  }

  private send(message: object): void {
    const body = Buffer.from(JSON.stringify(message), 'utf8');
    this.process.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.process.stdin.write(body);
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const header = this.buffer.subarray(0, headerEnd).toString('ascii');
      const length = /Content-Length:\s*(\d+)/i.exec(header)?.[1];
      if (length === undefined) {
        this.fail(new LanguageServerError(`a message without Content-Length: ${header}`));
        return;
      }
      const start = headerEnd + 4;
      const end = start + Number(length);
      if (this.buffer.length < end) return;
      const body = this.buffer.subarray(start, end).toString('utf8');
      this.buffer = this.buffer.subarray(end);
      this.dispatch(JSON.parse(body) as Message);
    }
  }

  private dispatch(message: Message): void {
    if (message.id !== undefined && message.method !== undefined) {
      // A request from the server: correx offers no client features beyond the defaults.
      this.send({ jsonrpc: '2.0', id: message.id, result: null });
      return;
    }
    if (message.id !== undefined) {
      const pending = this.pending.get(Number(message.id));
      if (pending === undefined) return;
      this.pending.delete(Number(message.id));
      if (message.error !== undefined)
        pending.reject(new LanguageServerError(`${message.error.message} (${message.error.code})`));
      else pending.resolve(message.result);
      return;
    }
    if (message.method !== undefined) this.onNotification(message.method, message.params);
  }

  private fail(error: Error): void {
    if (this.closed !== null) return;
    this.closed = error;
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}

type Message = {
  id?: number | string;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
};
