import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Readable, Writable } from 'node:stream';
import { CorrexError } from '../../core/base/correx-error.js';
import type { CommandContext } from '../cli/cli-context.js';
import { createCorrexMcpServer } from './correx-mcp-server.js';

/**
 * Serves correx over MCP on the process's stdin and stdout until the client closes stdin (or
 * Ctrl-C/SIGTERM): sessions started here run in this process; on the way out those still
 * running are paused (`correx resume` continues them). Stdout carries protocol messages only;
 * everything else goes to stderr.
 */
export async function serveMcp(
  context: CommandContext,
  options: { readonly location: string; readonly allowRoots: readonly string[] },
): Promise<void> {
  const streams = context.protocolStreams;
  if (streams === undefined)
    throw new CorrexError('usage', 'this correx cannot speak a protocol on its stdin and stdout');
  const log = (line: string) => context.err(`correx mcp: ${line}`);
  const allowedRoots = options.allowRoots.map((root) => {
    try {
      return realpathSync(resolve(context.cwd, root));
    } catch {
      throw new CorrexError('usage', `--allow-root ${root} does not exist`);
    }
  });
  const stores = await context.openStores(options.location, { create: true });
  try {
    // Like `correx serve`: a session that waits for a person stays with this process, woken
    // by a decision recorded anywhere (correx approve, the web page).
    const host = await context.createSessionHost({
      store: stores.events,
      location: options.location,
      attend: true,
    });
    const server = createCorrexMcpServer({
      version: context.version,
      store: stores.events,
      host,
      correxHome: context.correxHome,
      recording: context,
      user: context.user,
      cwd: context.cwd,
      allowedRoots,
      ...(context.sessionDriver === undefined
        ? {}
        : {
            sessionDriver: (sessionId: string) =>
              context.sessionDriver!(options.location, sessionId),
          }),
      log,
    });
    const input = streams.input as Readable;
    const stopped = new Promise<void>((done) => {
      const release = context.onInterrupt(() => {
        release();
        done();
      });
      input.once('end', done);
      input.once('close', done);
      server.server.onclose = done;
    });
    await server.connect(new StdioServerTransport(input, streams.output as Writable));
    log(`serving on stdio (store ${stores.location}; workspaces under ${allowedRoots.join(', ')})`);
    await stopped;
    await host.shutdown();
    await server.close();
  } finally {
    await stores.close();
  }
}
