import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import type { OperatorMode } from '../../core/approvals/approval-tier.js';
import { CorrexError } from '../../core/base/correx-error.js';
import type { CorrexEvent } from '../../core/event-catalog.js';
import type { CommandContext } from '../cli/cli-context.js';
import { createAcpAgent } from './acp-agent.js';

export type ServeAcpOptions = {
  readonly location: string;
  readonly allowRoots: readonly string[];
  readonly workflow?: string;
  readonly modelProfile?: string;
  readonly mode?: OperatorMode;
};

/**
 * Serves correx as an ACP agent on the process's stdin and stdout until the client closes stdin
 * (or Ctrl-C/SIGTERM): sessions run in this process; on the way out those still running are
 * paused (`correx resume` continues them). Stdout carries protocol messages only; everything
 * else goes to stderr.
 */
export async function serveAcp(context: CommandContext, options: ServeAcpOptions): Promise<void> {
  const streams = context.protocolStreams;
  if (streams === undefined)
    throw new CorrexError('usage', 'this correx cannot speak a protocol on its stdin and stdout');
  const log = (line: string) => context.err(`correx acp: ${line}`);
  const allowedRoots = options.allowRoots.map((root) => {
    try {
      return realpathSync(resolve(context.cwd, root));
    } catch {
      throw new CorrexError('usage', `--allow-root ${root} does not exist`);
    }
  });
  const workflow =
    options.workflow === undefined ||
    !(options.workflow.includes('/') || /\.ya?ml$/.test(options.workflow))
      ? options.workflow
      : resolve(context.cwd, options.workflow);
  const stores = await context.openStores(options.location, { create: true });
  try {
    const listeners = new Set<(event: CorrexEvent) => void>();
    const host = await context.createSessionHost({
      store: stores.events,
      location: options.location,
      attend: true,
      onEvent: (event) => {
        for (const listener of listeners) listener(event);
      },
    });
    const app = createAcpAgent({
      version: context.version,
      store: stores.events,
      host,
      recording: context,
      allowedRoots,
      defaults: {
        ...(workflow === undefined ? {} : { workflow }),
        ...(options.modelProfile === undefined ? {} : { modelProfile: options.modelProfile }),
        ...(options.mode === undefined ? {} : { mode: options.mode }),
      },
      onHostEvent: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      log,
    });
    const input = Readable.toWeb(streams.input as Readable) as ReadableStream<Uint8Array>;
    const output = Writable.toWeb(streams.output as Writable) as WritableStream<Uint8Array>;
    const connection = app.connect(ndJsonStream(output, input));
    log(
      `serving ACP on stdio (store ${stores.location}; workspaces under ${allowedRoots.join(', ')})`,
    );
    await new Promise<void>((done) => {
      const release = context.onInterrupt(() => {
        release();
        done();
      });
      void connection.closed.then(done, done);
    });
    connection.close();
    await host.shutdown();
  } finally {
    await stores.close();
  }
}
