import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { serveCommand } from '../../src/interfaces/cli/commands/serve-command.js';
import { TOKEN_FILE_NAME } from '../../src/interfaces/server/server-token.js';
import { openStore, scenarioWorkspace } from '../kernel/kernel-harness.js';
import { tempDir } from '../support/temp-dir.js';
import { createTestSessionHost } from './support/test-session-host.js';

describe('correx serve', () => {
  it('generates a token, serves until interrupted, then pauses, closes and releases the store', async () => {
    const home = tempDir('correx-serve-home-');
    const { workspace, storePath } = scenarioWorkspace({});
    const lines: string[] = [];
    let interrupt: (() => void) | undefined;
    let storeClosed = false;
    const program = new Command('correx').option('--store <location>').exitOverride();
    program.addCommand(
      serveCommand({
        version: '0.0.0-test',
        correxHome: home,
        defaultStore: storePath,
        user: 'tester',
        cwd: workspace,
        async openStores(location) {
          const events = openStore(location);
          return {
            location,
            events,
            close: async () => {
              storeClosed = true;
              await events.close();
            },
          };
        },
        createSessionHost: async ({ store }) =>
          createTestSessionHost({
            store,
            modelFor: () => {
              throw new Error('no sessions here');
            },
          }),
        onInterrupt(handler) {
          interrupt = handler;
          return () => (interrupt = undefined);
        },
        logger: pino({ level: 'silent' }),
        out: (text) => lines.push(text),
        err: (text) => lines.push(text),
      }),
    );
    const running = program.parseAsync(['serve', '--port', '0'], { from: 'user' });
    while (!lines.some((line) => line.includes('listening on'))) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const url = /listening on (\S+)/.exec(lines.join('\n'))![1]!;
    const tokenPath = join(home, TOKEN_FILE_NAME);
    expect(statSync(tokenPath).mode & 0o777).toBe(0o600);
    expect(lines.join('\n')).toContain(`generated into ${tokenPath}`);
    const token = readFileSync(tokenPath, 'utf8').trim();
    expect((await fetch(`${url}/api/sessions`)).status).toBe(401);
    const ok = await fetch(`${url}/api/sessions`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await ok.json()).toEqual({ sessions: [] });
    interrupt!();
    await running;
    expect(storeClosed).toBe(true);
    await expect(fetch(`${url}/api/sessions`)).rejects.toThrow();
  });
});
