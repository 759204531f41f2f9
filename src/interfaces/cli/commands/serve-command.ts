import { Command, InvalidArgumentError } from 'commander';
import { CorrexError } from '../../../core/base/correx-error.js';
import { pino, type Logger } from 'pino';
import type { CorrexEventStore } from '../../../core/event-catalog.js';
import type { RouterFacade } from '../../../core/router/router-facade.js';
import { createCorrexServer } from '../../server/correx-server.js';
import { preimageDirectory } from '../../../infrastructure/sandbox/preimage-store.js';
import { evalReportDirectory } from '../../eval/eval-report-archive.js';
import { LOOPBACK_HOSTS } from '../../server/request-guard.js';
import { routerPortFrom } from '../../server/router-port.js';
import {
  generateServerToken,
  loadOrCreateServerToken,
  rotateServerTokenFile,
  watchServerTokenFile,
} from '../../server/server-token.js';
import { readableLogLine } from '../readable-log-line.js';
import type { SessionHost } from '../../session-host.js';

export const DEFAULT_SERVE_PORT = 7787;

/**
 * What `correx serve` needs from the composition root. The CLI's CommandContext has these
 * members already (plus `serverToken` and `cwd`, which src/main reads from the environment).
 */
export type ServeCommandContext = {
  readonly version: string;
  readonly correxHome: string;
  readonly defaultStore: string;
  readonly user: string;
  /** $CORREX_SERVER_TOKEN, when set; `--token` wins over it. */
  readonly serverToken?: string | undefined;
  /** The default allowed root when no `--allow-root` is given. */
  readonly cwd: string;
  /** The built web page, served at `/` unless `--web` names another folder. */
  readonly webRoot?: string | undefined;
  openStores(
    location: string,
    options?: { readonly create?: boolean },
  ): Promise<{
    readonly location: string;
    readonly events: CorrexEventStore;
    close(): Promise<void>;
  }>;
  createSessionHost(options: {
    readonly store: CorrexEventStore;
    readonly location: string;
    /** false: record sessions and commands only; workers drive them. */
    readonly drive?: boolean;
    /** Keep sessions that wait for a person driven here, woken by any recorded answer. */
    readonly attend?: boolean;
  }): Promise<SessionHost>;
  /** The conversational router; without it the server answers user input with an error. */
  createRouter?(store: CorrexEventStore): Promise<{
    readonly facade: Pick<RouterFacade, 'onUserInput'>;
    dispose(): Promise<void>;
  }>;
  /** Calls `handler` on Ctrl-C (and SIGTERM, where the root wires it) until the returned function is called. */
  onInterrupt(handler: () => void): () => void;
  /** Where the server logs (JSON lines); default: stderr at info. */
  readonly logger?: Logger;
  out(text: string): void;
  err(text: string): void;
};

type ServeOptions = {
  host: string;
  port: number;
  token?: string;
  allowRoot?: string[];
  allowHost?: string[];
  allowOrigin?: string[];
  web?: string;
  rotateToken?: boolean;
  drive: boolean;
};

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new InvalidArgumentError('expected a port number (0 picks a free one)');
  }
  return port;
}

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

/**
 * `correx serve`: the HTTP + WebSocket server, running sessions in this process on the store
 * of `--store`. Stops gracefully on Ctrl-C: running sessions are paused and resumed on the
 * next start.
 */
export function serveCommand(context: ServeCommandContext): Command {
  return new Command('serve')
    .description('serve the REST + WebSocket API (bearer token; loopback only by default)')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--port <port>', 'port (0 picks a free one)', parsePort, DEFAULT_SERVE_PORT)
    .option(
      '--token <token>',
      'bearer token (default: $CORREX_SERVER_TOKEN, else $CORREX_HOME/server-token)',
    )
    .option(
      '--allow-root <dir>',
      'a folder new sessions may work in (repeatable; default: the current folder)',
      collect,
    )
    .option(
      '--allow-host <name>',
      'another Host name to answer to, e.g. behind a proxy (repeatable)',
      collect,
    )
    .option(
      '--allow-origin <origin>',
      'another Origin allowed to call the API (repeatable)',
      collect,
    )
    .option('--web <dir>', 'serve the web page from this folder at / (default: the built one)')
    .option(
      '--rotate-token',
      'write a new token into $CORREX_HOME/server-token and exit; a running server switches to it',
    )
    .option(
      '--no-drive',
      'record new sessions and commands, drive none here: `correx worker` processes drive them',
    )
    .action(async (options: ServeOptions, command: Command) => {
      if (options.rotateToken) {
        const rotated = rotateServerTokenFile(context.correxHome);
        context.out(
          `new bearer token written to ${rotated.path}; a running correx serve now accepts only it and closes the WebSockets opened with the old one`,
        );
        return;
      }
      const given = options.token ?? context.serverToken;
      const webRoot = options.web ?? context.webRoot;
      const token = loadOrCreateServerToken({
        correxHome: context.correxHome,
        ...(given === undefined ? {} : { given }),
      });
      const location =
        (command.optsWithGlobals() as { store?: string }).store ?? context.defaultStore;
      const stores = await context.openStores(location, { create: true });
      // One readable line per record on stderr, not raw JSON.
      const logger =
        context.logger ??
        pino(
          { level: 'info' },
          { write: (record: string) => context.err(readableLogLine(record)) },
        );
      // Watching, approving and steering need no model: without one the server still serves,
      // and only questions to the router (and new sessions) say what is missing.
      const router = await context.createRouter?.(stores.events).catch((error: unknown) => {
        if (!CorrexError.isInstance(error)) throw error;
        context.err(`correx: the router is off: ${error.message}`);
        return undefined;
      });
      try {
        const host = await context.createSessionHost({
          store: stores.events,
          location,
          ...(options.drive ? { attend: true } : { drive: false }),
        });
        const server = createCorrexServer(
          {
            store: stores.events,
            host,
            ...(router === undefined ? {} : { router: routerPortFrom(router.facade) }),
            token: token.token,
            allowedRoots: options.allowRoot ?? [context.cwd],
            ...(options.allowHost === undefined ? {} : { allowedHosts: options.allowHost }),
            ...(options.allowOrigin === undefined ? {} : { allowedOrigins: options.allowOrigin }),
            ...(webRoot === undefined ? {} : { webRoot }),
            logger,
            user: context.user,
            preimageDirectory: preimageDirectory(context.correxHome),
            evalReportDirectory: evalReportDirectory(context.correxHome),
          },
          { version: context.version },
        );
        const stopped = new Promise<void>((resolve) => {
          const release = context.onInterrupt(() => {
            release();
            resolve();
          });
        });
        const address = await server.listen({ host: options.host, port: options.port });
        // A token kept in the file follows the file: rewritten (or `serve --rotate-token`), the
        // old one stops working at once. A file that turns unreadable or insecure locks everyone
        // out until it is fixed, rather than keeping a token someone meant to revoke.
        const stopWatching =
          token.path === null
            ? () => {}
            : watchServerTokenFile(token.path, (result) => {
                if ('token' in result) {
                  server.rotateToken(result.token);
                  context.err(
                    `correx serve: the token changed (${token.path}); old sockets closed`,
                  );
                } else {
                  server.rotateToken(generateServerToken());
                  context.err(
                    `correx serve: ${result.error.message}; no token is accepted until the file is fixed`,
                  );
                }
              });
        if (
          !(LOOPBACK_HOSTS as readonly string[]).includes(options.host) &&
          options.host !== '::1'
        ) {
          context.err(`correx: warning: listening on ${options.host}, not only on this machine`);
        }
        context.out(`correx serve: listening on ${address.url} (store ${stores.location})`);
        if (!options.drive) context.out('drives no sessions here (--no-drive): workers drive them');
        context.out(
          token.path === null
            ? `bearer token: the one given (${options.token === undefined ? '$CORREX_SERVER_TOKEN' : '--token'})`
            : `bearer token: ${token.source === 'generated' ? 'generated into' : 'read from'} ${token.path} (the web page asks for it; rotate with: correx serve --rotate-token)`,
        );
        if (address.resumed.length > 0) {
          context.out(`resumed ${address.resumed.length} session(s) paused by the last shutdown`);
        }
        await stopped;
        stopWatching();
        context.out(
          'correx serve: stopping; running sessions are paused and resume on the next start',
        );
        await server.close();
      } finally {
        await router?.dispose();
        await stores.close();
      }
    });
}
