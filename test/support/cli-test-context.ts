import type { CliContext } from '../../src/interfaces/cli/cli-context.js';

/** The parts of a CLI context that unit tests of non-running commands never reach. */
export const cliTestDefaults: Pick<
  CliContext,
  | 'createSessionHost'
  | 'createRouter'
  | 'exportTrace'
  | 'lines'
  | 'onInterrupt'
  | 'terminal'
  | 'status'
  | 'cwd'
> = {
  cwd: '/nonexistent/cwd',
  createSessionHost: () => Promise.reject(new Error('this test runs no session')),
  createRouter: () => Promise.reject(new Error('this test talks to no router')),
  exportTrace: () => Promise.reject(new Error('this test exports no trace')),
  lines: async function* () {},
  onInterrupt: () => () => {},
  terminal: false,
  status: () => {},
};
