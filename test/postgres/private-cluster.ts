import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A PostgreSQL server of a test's own, on a port of its own: restarting it disturbs nobody. */
export type PrivateCluster = {
  readonly url: string;
  readonly port: number;
  /** `pg_ctl restart -m immediate`: every connection ends at once, as in a crash. */
  restart(): Promise<void>;
  stop(): Promise<void>;
};

/** The newest PostgreSQL server binaries installed, or undefined. */
function binaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((version) => existsSync(join(root, version, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Creates and starts a throwaway cluster (initdb, trust authentication, no fsync), or returns
 * undefined when no server binaries are installed. As root it runs as the `postgres` user, since
 * PostgreSQL refuses to run as root. The server commits asynchronously by default
 * (`synchronous_commit=off`), as a server may be configured: a commit acknowledged within the
 * last few hundred milliseconds is lost by `restart()`, which PostgreSQL treats as a crash, unless
 * the client asked for synchronous commits (correx's connections do: postgres-connection.ts).
 * `settings` are more `-c name=value` server settings.
 */
export async function startPrivateCluster(
  settings: readonly string[] = [],
): Promise<PrivateCluster | undefined> {
  const bin = binaries();
  if (bin === undefined) return undefined;
  const root = mkdtempSync(join(tmpdir(), 'correx-cluster-'));
  const data = join(root, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: group } = await run('id', ['-g', 'postgres']);
    chownSync(root, Number(stdout.trim()), Number(group.trim()));
  }
  const exec = (program: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', join(bin, program), ...args], { cwd: root })
      : run(join(bin, program), args, { cwd: root });
  await exec('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  const options = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-k ${root}`,
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=300',
    ...settings.map((setting) => `-c ${setting}`),
  ].join(' ');
  const log = join(root, 'server.log');
  await exec('pg_ctl', ['-D', data, '-l', log, '-o', options, '-w', '-t', '60', 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async restart() {
      await exec('pg_ctl', [
        '-D',
        data,
        '-l',
        log,
        '-o',
        options,
        '-m',
        'immediate',
        '-w',
        '-t',
        '60',
        'restart',
      ]);
    },
    async stop() {
      await exec('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      rmSync(root, { recursive: true, force: true });
    },
  };
}
